package sim_test

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/sim"
)

// epochTrace is refRandomTrace with submit times moved to real Unix
// times (from 2023-11-14 22:13:20 UTC), as an imported log has them.
func epochTrace(seed uint64, n, maxSlots int) *datasets.Trace {
	tr := refRandomTrace(seed, n, maxSlots)
	for i := range tr.Jobs {
		tr.Jobs[i].Submit += 1_700_000_000
	}
	return tr
}

// TestParquetTimestamps: each Parquet file sim writes for users holds its
// instants as TIMESTAMP(MILLIS) adjusted to UTC, each value the in-memory
// row's Unix seconds × 1000; its durations and counts stay plain
// integers; and the file reads back into the rows it was written from.
func TestParquetTimestamps(t *testing.T) {
	c := sim.Uniform(8, 2, simple)
	tr := epochTrace(5, 400, c.Slots())
	r, err := sim.Run(tr, c, offWhenIdle{timeout: 300}, sim.Options{Period: 60, Timeline: true, JobNodes: true})
	if err != nil {
		t.Fatal(err)
	}
	jobRows, err := sim.JobRows(tr, r)
	if err != nil {
		t.Fatal(err)
	}
	tlRows := r.Timeline.Rows()
	type column struct {
		name string
		secs func(i int) int64 // the in-memory row i's value, Unix seconds
	}
	cases := []struct {
		name     string
		rows     int
		write    func(path string) error
		readBack func(path string) (any, error)
		want     any
		instants []column
		integers []string // columns that stay integers (INT32/INT64, no logical type but INT)
	}{
		{
			name:     "jobs",
			rows:     len(jobRows),
			write:    func(path string) error { return sim.WriteJobsFile(path, jobRows, false) },
			readBack: func(path string) (any, error) { return sim.ReadJobsParquet(path) },
			want:     jobRows,
			instants: []column{
				{"submit", func(i int) int64 { return jobRows[i].Submit }},
				{"start", func(i int) int64 { return jobRows[i].Start }},
				{"end", func(i int) int64 { return jobRows[i].End }},
			},
			integers: []string{"job_id", "wait_s", "run_s", "slots"},
		},
		{
			name: "jobs from WriteJobsParquet",
			rows: len(jobRows),
			write: func(path string) error {
				return writeWith(path, func(w io.Writer) error { return sim.WriteJobsParquet(w, jobRows) })
			},
			readBack: func(path string) (any, error) { return sim.ReadJobsParquet(path) },
			want:     jobRows,
			instants: []column{{"submit", func(i int) int64 { return jobRows[i].Submit }}},
			integers: []string{"wait_s", "run_s"},
		},
		{
			name:     "timeline",
			rows:     len(tlRows),
			write:    func(path string) error { return sim.WriteTimelineFile(path, r.Timeline, false) },
			readBack: func(path string) (any, error) { return sim.ReadTimelineParquet(path) },
			want:     tlRows,
			instants: []column{{"time", func(i int) int64 { return tlRows[i].Time }}},
			integers: []string{"level", "requested", "powered", "busy"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.rows < 100 {
				t.Fatalf("only %d rows: the case checks too little", tc.rows)
			}
			path := filepath.Join(t.TempDir(), "out.parquet")
			if err := tc.write(path); err != nil {
				t.Fatal(err)
			}
			f := openParquet(t, path)
			for _, col := range tc.instants {
				leaf, ok := f.Schema().Lookup(col.name)
				if !ok {
					t.Fatalf("no column %q", col.name)
				}
				lt := leaf.Node.Type().LogicalType()
				if lt == nil || lt.Timestamp == nil || !lt.Timestamp.IsAdjustedToUTC || lt.Timestamp.Unit.Millis == nil {
					t.Errorf("column %q is %v, want TIMESTAMP(isAdjustedToUTC=true, unit=MILLIS)", col.name, leaf.Node.Type())
				}
				got := int64Column(t, f, col.name)
				if len(got) != tc.rows {
					t.Fatalf("column %q: %d values, want %d", col.name, len(got), tc.rows)
				}
				for i, v := range got {
					if want := col.secs(i) * 1000; v != want {
						t.Fatalf("column %q row %d: %d ms, want %d (%d s × 1000)", col.name, i, v, want, col.secs(i))
					}
				}
			}
			for _, name := range tc.integers {
				leaf, ok := f.Schema().Lookup(name)
				if !ok {
					t.Fatalf("no column %q", name)
				}
				lt := leaf.Node.Type().LogicalType()
				if k := leaf.Node.Type().Kind(); (lt != nil && lt.Integer == nil) || (k != parquet.Int32 && k != parquet.Int64) {
					t.Errorf("column %q is %v, want an integer, not a time", name, leaf.Node.Type())
				}
			}
			back, err := tc.readBack(path)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back, tc.want) {
				t.Errorf("read back rows differ from the rows written")
			}
		})
	}
}

// TestReadParquetRefuses: the readers refuse a file whose time column is
// a plain integer (a file written before the timestamps) or holds
// milliseconds that are not whole seconds, naming the file, the column
// and, for a value, the row.
func TestReadParquetRefuses(t *testing.T) {
	type plainJobs struct { // the jobs file's columns as before: times in Unix seconds
		JobID  int64 `parquet:"job_id"`
		Submit int64 `parquet:"submit"`
		Start  int64 `parquet:"start"`
		End    int64 `parquet:"end"`
	}
	type msJobs struct {
		JobID  int64 `parquet:"job_id"`
		Submit int64 `parquet:"submit,timestamp(millisecond:utc)"`
		Start  int64 `parquet:"start,timestamp(millisecond:utc)"`
		End    int64 `parquet:"end,timestamp(millisecond:utc)"`
	}
	type localTimeline struct {
		Time int64 `parquet:"time,timestamp(millisecond:local)"`
	}
	type microsTimeline struct {
		Time int64 `parquet:"time,timestamp(microsecond:utc)"`
	}
	dir := t.TempDir()
	cases := []struct {
		name  string
		rows  any
		read  func(string) error
		wants []string
	}{
		{"jobs, plain int64 seconds", []plainJobs{{1, 10, 20, 30}}, readJobs, []string{`"submit"`, "TIMESTAMP(MILLIS, UTC)"}},
		{"jobs, not whole seconds", []msJobs{{1, 10_000, 20_000, 30_000}, {2, 10_000, 20_500, 30_000}}, readJobs, []string{"row 2", `"start"`, "whole seconds"}},
		{"timeline, local time", []localTimeline{{1000}}, readTimeline, []string{`"time"`, "TIMESTAMP(MILLIS, UTC)"}},
		{"timeline, microseconds", []microsTimeline{{1_000_000}}, readTimeline, []string{`"time"`, "TIMESTAMP(MILLIS, UTC)"}},
		{"timeline, no time column", []plainJobs{{1, 10, 20, 30}}, readTimeline, []string{`no column "time"`}},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.Repeat("x", i+1)+".parquet")
			var err error
			switch rows := tc.rows.(type) {
			case []plainJobs:
				err = parquet.WriteFile(path, rows)
			case []msJobs:
				err = parquet.WriteFile(path, rows)
			case []localTimeline:
				err = parquet.WriteFile(path, rows)
			case []microsTimeline:
				err = parquet.WriteFile(path, rows)
			}
			if err != nil {
				t.Fatal(err)
			}
			err = tc.read(path)
			if err == nil {
				t.Fatal("read without error")
			}
			for _, w := range append(tc.wants, path) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not name %s", err, w)
				}
			}
		})
	}
	if _, err := sim.ReadJobsParquet(filepath.Join(dir, "missing.parquet")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v, want os.ErrNotExist", err)
	}
}

func readJobs(path string) error     { _, err := sim.ReadJobsParquet(path); return err }
func readTimeline(path string) error { _, err := sim.ReadTimelineParquet(path); return err }

// writeWith writes a file at path with write.
func writeWith(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// openParquet opens the Parquet file at path.
func openParquet(t *testing.T, path string) *parquet.File {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := parquet.OpenFile(strings.NewReader(string(data)), int64(len(data)))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return f
}

// int64Column is the values of f's column name, in row order, as stored.
func int64Column(t *testing.T, f *parquet.File, name string) []int64 {
	t.Helper()
	leaf, _ := f.Schema().Lookup(name)
	var out []int64
	buf := make([]parquet.Row, 256)
	for _, rg := range f.RowGroups() {
		rows := rg.Rows()
		for {
			n, err := rows.ReadRows(buf)
			for _, row := range buf[:n] {
				for _, v := range row {
					if v.Column() == leaf.ColumnIndex {
						out = append(out, v.Int64())
					}
				}
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("column %q: %v", name, err)
			}
		}
		rows.Close()
	}
	return out
}

// FuzzReadParquetOutputs: on any bytes, ReadJobsParquet and
// ReadTimelineParquet return rows or an error naming the file, never a
// panic; jobs they read write back (WriteJobsParquet) and read again the
// same.
func FuzzReadParquetOutputs(f *testing.F) {
	c := sim.Uniform(4, 2, simple)
	tr := epochTrace(3, 12, c.Slots())
	r, err := sim.Run(tr, c, offWhenIdle{timeout: 300}, sim.Options{Period: 60, Timeline: true, JobNodes: true})
	if err != nil {
		f.Fatal(err)
	}
	jobRows, err := sim.JobRows(tr, r)
	if err != nil {
		f.Fatal(err)
	}
	jobRows[0].User, jobRows[1].Group = "алиса", ""
	var jobs, timeline strings.Builder
	if err := sim.WriteJobsParquet(&jobs, jobRows); err != nil {
		f.Fatal(err)
	}
	if err := r.Timeline.WriteParquet(&timeline); err != nil {
		f.Fatal(err)
	}
	f.Add([]byte(jobs.String()))
	f.Add([]byte(timeline.String()))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "in.parquet")
		if err := os.WriteFile(path, data, 0o666); err != nil {
			t.Fatal(err)
		}
		if _, err := sim.ReadTimelineParquet(path); err != nil && !strings.Contains(err.Error(), path) {
			t.Fatalf("timeline: the error does not name the file: %v", err)
		}
		rows, err := sim.ReadJobsParquet(path)
		if err != nil {
			if !strings.Contains(err.Error(), path) {
				t.Fatalf("jobs: the error does not name the file: %v", err)
			}
			return
		}
		again := filepath.Join(dir, "again.parquet")
		if err := writeWith(again, func(w io.Writer) error { return sim.WriteJobsParquet(w, rows) }); err != nil {
			t.Fatalf("writing back jobs that read: %v", err)
		}
		back, err := sim.ReadJobsParquet(again)
		if err != nil || !reflect.DeepEqual(back, rows) && len(back)+len(rows) > 0 {
			t.Fatalf("jobs read, written and read again: %v (%d rows, then %d)", err, len(rows), len(back))
		}
	})
}
