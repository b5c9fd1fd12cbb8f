package datasets

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/parquet-go/parquet-go"
)

// plainJob is Job with its names stored plain, not in dictionaries: a
// canonical schema all the same, as another writer may make it.
type plainJob struct {
	ID        int64  `parquet:"id"`
	Submit    int64  `parquet:"submit"`
	Wait      int64  `parquet:"wait"`
	Run       int64  `parquet:"run"`
	Procs     int32  `parquet:"procs"`
	ReqProcs  int32  `parquet:"req_procs"`
	ReqTime   int64  `parquet:"req_time"`
	Status    int32  `parquet:"status"`
	User      string `parquet:"user"`
	Group     string `parquet:"group"`
	Queue     string `parquet:"queue"`
	Partition string `parquet:"partition"`
}

// dictJob is Job with its integer columns in dictionaries too, as other
// writers (pyarrow's default) store them, but wait and req_procs.
type dictJob struct {
	ID        int64  `parquet:"id,dict"`
	Submit    int64  `parquet:"submit,dict"`
	Wait      int64  `parquet:"wait"`
	Run       int64  `parquet:"run,dict"`
	Procs     int32  `parquet:"procs,dict"`
	ReqProcs  int32  `parquet:"req_procs"`
	ReqTime   int64  `parquet:"req_time,dict"`
	Status    int32  `parquet:"status,dict"`
	User      string `parquet:"user,dict"`
	Group     string `parquet:"group,dict"`
	Queue     string `parquet:"queue,dict"`
	Partition string `parquet:"partition,dict"`
}

// parquetLayouts write a trace's jobs as canonical Parquet files laid out
// in different ways: as WriteParquet does; in row groups of 1,000 rows
// and pages of 4 KiB (page ends fall at other rows in every column, and
// batches end at row groups); with plain names; with integers in
// dictionaries, in small row groups.
var parquetLayouts = []struct {
	name  string
	write func(tb testing.TB, t *Trace) []byte
}{
	{"canonical", func(tb testing.TB, t *Trace) []byte {
		var buf bytes.Buffer
		if err := WriteParquet(&buf, t); err != nil {
			tb.Fatal(err)
		}
		return buf.Bytes()
	}},
	{"small-groups-pages", func(tb testing.TB, t *Trace) []byte {
		return writeJobsParquet(tb, t, t.Jobs, parquet.MaxRowsPerRowGroup(1000), parquet.PageBufferSize(4096))
	}},
	{"plain-names", func(tb testing.TB, t *Trace) []byte {
		jobs := make([]plainJob, len(t.Jobs))
		for i, j := range t.Jobs {
			jobs[i] = plainJob(j)
		}
		return writeJobsParquet(tb, t, jobs, parquet.PageBufferSize(16384))
	}},
	{"integer-dictionaries", func(tb testing.TB, t *Trace) []byte {
		jobs := make([]dictJob, len(t.Jobs))
		for i, j := range t.Jobs {
			jobs[i] = dictJob(j)
		}
		return writeJobsParquet(tb, t, jobs, parquet.MaxRowsPerRowGroup(5000), parquet.PageBufferSize(8192))
	}},
}

// writeJobsParquet writes jobs (Job or plainJob) with t's metadata.
func writeJobsParquet[J any](tb testing.TB, t *Trace, jobs []J, opts ...parquet.WriterOption) []byte {
	tb.Helper()
	var buf bytes.Buffer
	pw := parquet.NewGenericWriter[J](&buf, append(opts, parquet.Compression(&parquet.Zstd))...)
	if _, err := pw.Write(jobs); err != nil {
		tb.Fatal(err)
	}
	js, err := json.Marshal(t.Meta)
	if err != nil {
		tb.Fatal(err)
	}
	pw.SetKeyValueMetadata(parquetMetaKey, string(js))
	pw.SetKeyValueMetadata(parquetVersionKey, parquetVersion)
	if err := pw.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// readBothWays reads a Parquet trace's jobs column by column (reporting
// whether its schema let it) and row by row, each opened by OpenParquet
// and with panics recovered, as scanParquet reads.
func readBothWays(data []byte) (cols, rows []Job, canonical bool, colErr, rowErr error) {
	read := func(columns bool) (jobs []Job, canonical bool, err error) {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("parquet: damaged file: %v", p)
			}
		}()
		f, err := OpenParquet(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return nil, false, err
		}
		keep := func(b []Job) error { jobs = append(jobs, b...); return nil }
		c, ok := canonicalColumns(f.Schema())
		if !columns {
			return jobs, ok, ScanParquetRows(f, func(_ int64, b []Job) error { return keep(b) })
		}
		if !ok {
			return nil, false, nil
		}
		return jobs, true, readColumns(f, c, make([]Job, parquetBatch), func(_ int64, b []Job) error { return keep(b) })
	}
	cols, canonical, colErr = read(true)
	rows, _, rowErr = read(false)
	return cols, rows, canonical, colErr, rowErr
}

// TestReadColumnsSameAsRows: reading a canonical trace column by column
// gives the jobs parquet-go's row reader gives, whatever the file's
// layout, on real logs and on one with empty and non-ASCII names.
func TestReadColumnsSameAsRows(t *testing.T) {
	traces := map[string]*Trace{"round-trip": roundTripTrace()}
	for name, file := range map[string]string{
		"CEA-Curie": "CEA-Curie-2011-2.1-cln.swf.gz",
		"SDSC-SP2":  "SDSC-SP2-1998-4.2-cln.swf.gz",
		"LANL-CM5":  "LANL-CM5-1994-4.1-cln.swf.gz",
	} {
		tr, err := Open(tracePath(t, file), ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		traces[name] = tr
	}
	for name, tr := range traces {
		for _, layout := range parquetLayouts {
			t.Run(name+"/"+layout.name, func(t *testing.T) {
				cols, rows, canonical, colErr, rowErr := readBothWays(layout.write(t, tr))
				if !canonical || colErr != nil || rowErr != nil {
					t.Fatalf("canonical %v, column reader: %v, row reader: %v", canonical, colErr, rowErr)
				}
				if !reflect.DeepEqual(cols, tr.Jobs) || !reflect.DeepEqual(rows, tr.Jobs) {
					t.Fatalf("%d jobs read by column, %d by row, %d written: not the same", len(cols), len(rows), len(tr.Jobs))
				}
			})
		}
	}
}

// TestReadColumnsShareNames: the jobs of a row group that name the same
// user share the name's bytes (one string per dictionary value, not one
// per job), and ReadParquet reads by column.
func TestReadColumnsShareNames(t *testing.T) {
	tr, err := Open(tracePath(t, "CEA-Curie-2011-2.1-cln.swf.gz"), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	data := parquetLayouts[0].write(t, tr)
	got, err := ReadParquet(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	group := got.Jobs[:min(len(got.Jobs), parquetRowGroup)]
	first := map[string]*byte{}
	for i, j := range group {
		if j.User == "" {
			continue
		}
		p := unsafe.StringData(j.User)
		if q, ok := first[j.User]; ok && q != p {
			t.Fatalf("job %d: user %q has its own copy of the name", i, j.User)
		}
		first[j.User] = p
	}
	if len(first) < 2 || len(first) > len(group)/10 {
		t.Fatalf("%d users among %d jobs: not a test of sharing", len(first), len(group))
	}
}

// schemaWith is the canonical schema with the named columns changed to
// the nodes given (nil: left out).
func schemaWith(change map[string]parquet.Node) *parquet.Schema {
	g := parquet.Group{}
	for _, c := range jobColumns {
		switch c.kind {
		case parquet.Int64:
			g[c.name] = parquet.Int(64)
		case parquet.Int32:
			g[c.name] = parquet.Int(32)
		default:
			g[c.name] = parquet.String()
		}
	}
	for name, n := range change {
		if n == nil {
			delete(g, name)
			continue
		}
		g[name] = n
	}
	return parquet.NewSchema("job", g)
}

// TestCanonicalColumns: the column reader takes the schemas whose columns
// it knows, and no other, and finds each field's column.
func TestCanonicalColumns(t *testing.T) {
	for _, tc := range []struct {
		name   string
		schema *parquet.Schema
		want   bool
	}{
		{"Job", parquet.SchemaOf(Job{}), true},
		{"plain names", parquet.SchemaOf(plainJob{}), true},
		{"integer dictionaries", parquet.SchemaOf(dictJob{}), true},
		{"built", schemaWith(nil), true},
		{"a column missing", schemaWith(map[string]parquet.Node{"partition": nil}), false},
		{"a column more", schemaWith(map[string]parquet.Node{"extra": parquet.Int(64)}), false},
		{"procs int64", schemaWith(map[string]parquet.Node{"procs": parquet.Int(64)}), false},
		{"submit a string", schemaWith(map[string]parquet.Node{"submit": parquet.String()}), false},
		{"user optional", schemaWith(map[string]parquet.Node{"user": parquet.Optional(parquet.String())}), false},
		{"user repeated", schemaWith(map[string]parquet.Node{"user": parquet.Repeated(parquet.String())}), false},
		{"wait in a group", schemaWith(map[string]parquet.Node{"wait": parquet.Group{"s": parquet.Int(64)}}), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cols, ok := canonicalColumns(tc.schema)
			if ok != tc.want {
				t.Fatalf("canonical %v, want %v", ok, tc.want)
			}
			if !ok {
				return
			}
			for f, c := range jobColumns { // each field at its own column
				if got := tc.schema.Columns()[cols[f]]; len(got) != 1 || got[0] != c.name {
					t.Errorf("field %s at column %v", c.name, got)
				}
			}
		})
	}
}

// FuzzParquetColumns: on any bytes, when the column reader and the row
// reader both read a canonical file, they read the same jobs.
//
// Why not also "one reads a file exactly when the other does", as at
// first: on a damaged file they may differ, each rightly, because they
// read different parts of it. The row reader seeks through the offset
// index, which the column reader never reads ("seek to row index out of
// page range" on a damaged index whose pages are whole); the column reader
// reads every page of a chunk, and checks that its values match the row
// count, where the row reader stops at the footer's count. CI's fuzzing
// found both within 5,000 inputs. A canonical file that a writer makes is
// read alike by both: TestReadColumnsSameAsRows, on four layouts.
func FuzzParquetColumns(f *testing.F) {
	tr := roundTripTrace()
	for _, layout := range parquetLayouts {
		f.Add(layout.write(f, tr))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cols, rows, canonical, colErr, rowErr := readBothWays(data)
		if canonical && colErr == nil && rowErr == nil && !reflect.DeepEqual(cols, rows) {
			t.Fatalf("%d jobs read by column, %d by row: not the same", len(cols), len(rows))
		}
	})
}

// TestDamagedDictionaryPage damages the last byte of each dictionary
// page of a written trace (the byte before the column's first data page):
// both readers refuse the file, naming the checksum, where parquet-go's
// row reader alone read wrong names ("batc^" for "batch") without an
// error (FuzzParquetColumns found it; its input is in testdata/fuzz).
func TestDamagedDictionaryPage(t *testing.T) {
	data := parquetLayouts[0].write(t, roundTripTrace())
	f, err := OpenParquet(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	damaged := 0
	for c, col := range f.Metadata().RowGroups[0].Columns {
		md := col.MetaData
		if md.DictionaryPageOffset == 0 {
			continue
		}
		damaged++
		bad := bytes.Clone(data)
		bad[md.DataPageOffset-1] ^= 0xff
		_, _, canonical, colErr, rowErr := readBothWays(bad)
		if !canonical {
			t.Fatalf("column %d: the damaged file is not canonical", c)
		}
		for _, e := range []struct {
			reader string
			err    error
		}{{"column", colErr}, {"row", rowErr}} {
			if !errors.Is(e.err, parquet.ErrCorrupted) {
				t.Errorf("column %s, %s reader: %v, want a checksum error", strings.Join(md.PathInSchema, "."), e.reader, e.err)
			}
		}
	}
	if damaged != 4 { // user, group, queue, partition
		t.Errorf("%d dictionary pages damaged, want 4", damaged)
	}
}

// jobWithNote is Job with a column more: not canonical.
type jobWithNote struct {
	Job
	Note string `parquet:"note"`
}

// TestReadParquetOtherSchema: a trace with a column the column reader
// does not know is read row by row, whole.
func TestReadParquetOtherSchema(t *testing.T) {
	tr := roundTripTrace()
	jobs := make([]jobWithNote, len(tr.Jobs))
	for i, j := range tr.Jobs {
		jobs[i] = jobWithNote{Job: j, Note: "n"}
	}
	data := writeJobsParquet(t, tr, jobs)
	f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := canonicalColumns(f.Schema()); ok {
		t.Fatal("a schema with a column more taken as canonical")
	}
	got, err := ReadParquet(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Jobs, tr.Jobs) {
		t.Errorf("read %+v\nwant %+v", got.Jobs, tr.Jobs)
	}
}
