package sim

import (
	"fmt"
	"os"

	"github.com/parquet-go/parquet-go"

	"github.com/ecotune/ecotune/datasets"
)

// The Parquet files sim writes for users (the jobs file, the timeline)
// hold absolute times as the Parquet TIMESTAMP logical type in
// milliseconds, adjusted to UTC, so that DuckDB, pandas or Spark read them
// as instants; Parquet has no second unit. In memory, in CSV and in JSON
// the same times are Unix seconds. unixMillis and unixSeconds are the one
// conversion between the two, at the Parquet boundary.

// unixMillis is Unix time s (seconds) as the milliseconds of a
// TIMESTAMP(MILLIS) column. Times within datasets.MaxTime cannot overflow.
func unixMillis(s int64) int64 { return s * 1000 }

// unixSeconds is the milliseconds ms of a TIMESTAMP(MILLIS) column as Unix
// seconds; false when ms is not whole seconds (no file sim writes holds
// one).
func unixSeconds(ms int64) (int64, bool) {
	if ms%1000 != 0 {
		return 0, false
	}
	return ms / 1000, true
}

// checkTimestampColumns reports an error naming path and the column when
// one of the columns of schema is not TIMESTAMP(MILLIS) adjusted to UTC:
// a file from before the columns were timestamps, or from elsewhere, would
// otherwise be read a thousandfold off.
func checkTimestampColumns(path string, schema *parquet.Schema, columns ...string) error {
	for _, name := range columns {
		f, ok := schema.Lookup(name)
		if !ok {
			return fmt.Errorf("sim: %s: no column %q", path, name)
		}
		lt := f.Node.Type().LogicalType()
		if lt == nil || lt.Timestamp == nil || !lt.Timestamp.IsAdjustedToUTC || lt.Timestamp.Unit.Millis == nil {
			return fmt.Errorf("sim: %s: column %q is %s, want INT64 TIMESTAMP(MILLIS, UTC)", path, name, f.Node.Type())
		}
	}
	return nil
}

// readParquetRows reads the Parquet file at path as rows of P, after
// checking that its timestamp columns are TIMESTAMP(MILLIS, UTC), and makes
// each an R with conv, which names the column whose milliseconds are not
// whole seconds (or returns ""). A damaged file is an error naming path,
// never a panic, and no buffer is sized by what its footer claims.
func readParquetRows[P, R any](path string, timestamps []string, conv func(*P) (R, string)) ([]R, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	pf, err := datasets.OpenParquet(f, fi.Size())
	if err != nil {
		return nil, fmt.Errorf("sim: %s: %w", path, err)
	}
	if err := checkTimestampColumns(path, pf.Schema(), timestamps...); err != nil {
		return nil, err
	}
	var out []R
	err = datasets.ScanParquetRows(pf, func(done int64, rows []P) error {
		for k := range rows {
			r, bad := conv(&rows[k])
			if bad != "" {
				return fmt.Errorf("row %d: column %q is not whole seconds", done+int64(k)+1, bad)
			}
			out = append(out, r)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("sim: %s: %w", path, err)
	}
	return out, nil
}
