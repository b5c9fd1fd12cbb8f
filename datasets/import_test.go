package datasets

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// Import, spilling runs of 1,000 jobs and merging them, writes exactly the
// trace ReadLogs builds in memory, here from two logs (one unsorted).
func TestImportEqualsReadLogs(t *testing.T) {
	// Job 3 of b.swf submits before jobs 1 and 2 and ties with a.swf's job 3.
	header := "; MaxProcs: 64\n; UnixStartTime: 1000\n"
	a := writeTemp(t, "a.swf", swfLog(header, 2500, nil))
	b := writeTemp(t, "b.swf", swfLog(header, 2400, map[int]string{
		1: "1 40 5 100 4 -1 -1 4 200 -1 1 7 3 -1 1 -1 -1 -1",
		3: "3 30 5 100 4 -1 -1 4 200 -1 1 7 3 -1 1 -1 -1 -1",
		4: "4 40 5 -1 4 -1 -1 4 200 -1 1 7 3 -1 1 -1 -1 -1", // run unknown: dropped
	}))
	paths := []string{a, b, tracePath(t, "synthetic/lublin_256.swf")}
	want, err := ReadLogs(paths, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "t.parquet")
	meta, err := Import(paths, out, ImportOptions{RunJobs: 1000})
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadParquetFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(meta, want.Meta) {
		t.Errorf("Import and ReadLogs differ:\nImport   %+v\nReadLogs %+v", got.Meta, want.Meta)
	}
	if len(want.Jobs) != 2500+2399+10000 || want.Meta.Skipped[ruleRunUnknown] != 1 || len(want.Meta.Sources) != 3 {
		t.Errorf("%d jobs, skipped %v, %d sources", len(want.Jobs), want.Meta.Skipped, len(want.Meta.Sources))
	}
	checkTraceInvariants(t, got)
	if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) != 1 {
		t.Errorf("%d entries beside the output, want none (runs removed)", len(entries)-1)
	}
}

// A strict-mode error leaves no output file and no temporary files.
func TestImportErrorLeavesNothing(t *testing.T) {
	bad := writeTemp(t, "bad.swf", swfLog("", 10, map[int]string{5: "5 50 5 x 4 -1 -1 4 200 -1 1 7 3 -1 1 -1 -1 -1"}))
	dir := t.TempDir()
	out := filepath.Join(dir, "t.parquet")
	_, err := Import([]string{bad}, out, ImportOptions{RunJobs: 2})
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 5 || pe.Field != "run_time" {
		t.Fatalf("err = %v, want a ParseError at line 5, run_time", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("%d files left in the output directory", len(entries))
	}
}

func TestImportRefusesOverwrite(t *testing.T) {
	log := writeTemp(t, "a.swf", swfLog("", 3, nil))
	out := filepath.Join(t.TempDir(), "t.parquet")
	if _, err := Import([]string{log}, out, ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := Import([]string{log}, out, ImportOptions{}); !errors.Is(err, ErrOutputExist) {
		t.Fatalf("second import: err = %v, want ErrOutputExist", err)
	}
	if _, err := Import([]string{log}, out, ImportOptions{Force: true}); err != nil {
		t.Fatalf("forced import: %v", err)
	}
}

// The run encoding keeps every field, Unknown values and any string.
func TestRunRecordRoundTrip(t *testing.T) {
	c := &runCursor{texts: map[string]string{}}
	for _, j := range roundTripTrace().Jobs {
		if err := c.decode(appendRunJob(nil, &j)); err != nil {
			t.Fatal(err)
		}
		if c.job != j {
			t.Errorf("decoded %+v, want %+v", c.job, j)
		}
	}
	if err := c.decode([]byte{0x80}); err == nil {
		t.Error("a truncated record decoded")
	}
}
