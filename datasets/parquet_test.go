package datasets

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// roundTripTrace has Unknown values, empty and non-ASCII strings, notes,
// sources and both count maps.
func roundTripTrace() *Trace {
	return &Trace{
		Meta: Meta{
			Name: "rt", Format: "swf",
			Sources: []Source{{Path: "a.swf", SHA256: "00ff"}, {Path: "b.swf.gz", SHA256: "ee11"}},
			Nodes:   Unknown, Procs: 64, ProcsPerNode: Unknown, UnixStart: Unknown,
			TimeZone: "Europe/Paris", TZOffset: 3600, StartTime: "Tue Feb 01", EndTime: "",
			Notes:    []string{"a note", "ünïcode"},
			Skipped:  map[string]int64{ruleRunUnknown: 3, "unreadable_run_time": 1},
			Adjusted: map[string]int64{},
		},
		Jobs: []Job{
			{ID: 1, Submit: 0, Wait: Unknown, Run: 0, Procs: 1, ReqProcs: Unknown, ReqTime: Unknown, Status: Unknown},
			{ID: 2, Submit: MaxTime, Wait: 17, Run: 3600, Procs: 64, ReqProcs: 64, ReqTime: 7200, Status: 5,
				User: "alice", Group: "physics", Queue: "batch", Partition: "gpu|large\n"},
			{ID: -3, Submit: MaxTime, Wait: 0, Run: 1, Procs: 2, ReqProcs: 4, ReqTime: 1, Status: 0, User: "алиса"},
		},
	}
}

func TestParquetRoundTrip(t *testing.T) {
	want := roundTripTrace()
	var buf bytes.Buffer
	if err := WriteParquet(&buf, want); err != nil {
		t.Fatal(err)
	}
	got, err := ReadParquet(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("round trip\n got %+v\nwant %+v", got, want)
	}
}

// A real trace survives the file round trip exactly, through Open.
func TestParquetFileRoundTripReal(t *testing.T) {
	want, err := Open(tracePath(t, "SDSC-SP2-1998-4.2-cln.swf.gz"), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "sp2.parquet")
	if err := WriteParquetFile(path, want, false); err != nil {
		t.Fatal(err)
	}
	got, err := Open(path, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Error("SDSC-SP2 changed in the Parquet round trip")
	}
}

func TestWriteParquetFileRefusesOverwrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.parquet")
	if err := os.WriteFile(path, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := WriteParquetFile(path, roundTripTrace(), false)
	if !errors.Is(err, ErrOutputExist) {
		t.Fatalf("err = %v, want ErrOutputExist", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "keep me" {
		t.Fatal("existing file changed without force")
	}
	if err := WriteParquetFile(path, roundTripTrace(), true); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files in the directory, want 1 (no temporary left)", len(entries))
	}
}

// BenchmarkReadParquet reads CEA-Curie's log (312,826 jobs, users and
// groups named) as a canonical Parquet trace from memory: the reader
// every command uses on an imported trace.
func BenchmarkReadParquet(b *testing.B) {
	tr, err := Open(tracePath(b, "CEA-Curie-2011-2.1-cln.swf.gz"), ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteParquet(&buf, tr); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadParquet(bytes.NewReader(data), int64(len(data))); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(tr.Jobs)), "ns/job")
}
