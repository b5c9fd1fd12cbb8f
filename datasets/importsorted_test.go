package datasets

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// The one-pass import (importSorted) and the import in runs write the
// same bytes for the same logs; logs out of order (a job late in the file
// submitted early, a second log starting before the first ends) or with
// a job larger than the machine stop the one pass with errNotSorted and
// no file left, and ImportContext then imports them through runs. Every
// trace equals the one ReadLogs builds in memory.
func TestImportSortedEqualsRuns(t *testing.T) {
	dir := t.TempDir()
	synth := filepath.Join(dir, "synth.swf")
	// 150,000 jobs: two row groups of the output (parquetRowGroup).
	if _, err := WriteSynth(synth, SynthOptions{Jobs: 150_000, Nodes: 256, Seed: 3}, false); err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(synth)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(text), "\n")
	// late: the job at 97% of the log moved to its end, after jobs that
	// submit later.
	k := len(lines) * 97 / 100
	late := writeTemp(t, "late.swf", strings.Join(append(append(append([]string{}, lines[:k]...), lines[k+1:]...), lines[k]), ""))
	header := "; MaxProcs: 64\n; UnixStartTime: 1000\n"
	var laterJobs string // jobs 301 to 400, from a.swf's last submit time on
	for i := range 100 {
		laterJobs += fmt.Sprintf("%d %d 5 100 4 -1 -1 4 200 -1 1 7 3 -1 1 -1 -1 -1\n", 301+i, 3000+10*i)
	}
	anon, err := NewAnonymizer([]byte("k"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		paths     []string
		anon      *Anonymizer
		notSorted bool
	}{
		{"sorted", []string{synth}, nil, false},
		{"sorted, anonymized", []string{synth}, anon, false},
		{"sorted, two logs", []string{
			writeTemp(t, "a.swf", swfLog(header, 300, nil)),
			writeTemp(t, "b.swf", swfLog(header, 0, nil)+laterJobs), // its first job ties a.swf's last
		}, nil, false},
		// A job dropped by the rules (run unknown) may come out of order.
		{"dropped job out of order", []string{writeTemp(t, "d.swf", swfLog(header, 300, map[int]string{
			200: "200 5 5 -1 4 -1 -1 4 200 -1 1 7 3 -1 1 -1 -1 -1",
		}))}, nil, false},
		{"late job out of order", []string{late}, nil, true},
		{"second log earlier", []string{
			writeTemp(t, "a.swf", swfLog(header, 300, nil)),
			writeTemp(t, "b.swf", swfLog(header, 100, nil)),
		}, nil, true},
		// Out of order from job 100 on; jobs dropped and adjusted before
		// and after it; runs of 10,000 jobs spilled.
		{"early job out of order, drops and adjustments", []string{writeTemp(t, "e.swf", swfLog(header, 30_000, map[int]string{
			50:    "50 500 5 100 0 -1 -1 4 200 -1 1 7 3 -1 1 -1 -1 -1",
			60:    "60 600 5 -1 4 -1 -1 4 200 -1 1 7 3 -1 1 -1 -1 -1",
			70:    "70 700 -5 100 4 -1 -1 4 200 -1 1 7 3 -1 1 -1 -1 -1",
			100:   "100 20 5 100 4 -1 -1 4 200 -1 1 7 3 -1 1 -1 -1 -1",
			20000: "20000 200000 5 100 0 -1 -1 4 200 -1 1 7 3 -1 1 -1 -1 -1",
			25000: "25000 250000 5 -1 4 -1 -1 4 200 -1 1 7 3 -1 1 -1 -1 -1",
			26000: "26000 260000 -5 100 4 -1 -1 4 200 -1 1 7 3 -1 1 -1 -1 -1",
			27000: "27000 270000 5 100 0 -1 -1 -1 200 -1 1 7 3 -1 1 -1 -1 -1",
		}))}, nil, true},
		{"job larger than the machine", []string{writeTemp(t, "m.swf", swfLog(header, 300, map[int]string{
			150: "150 1500 5 100 128 -1 -1 128 200 -1 1 7 3 -1 1 -1 -1 -1",
		}))}, nil, true},
	}
	for _, c := range tests {
		t.Run(c.name, func(t *testing.T) {
			out := t.TempDir()
			opt := ImportOptions{Anonymize: c.anon, RunJobs: 10_000}
			_, err := importSorted(context.Background(), c.paths, filepath.Join(out, "fast.parquet"), opt)
			if errors.Is(err, errNotSorted) != c.notSorted || err != nil && !c.notSorted {
				t.Fatalf("importSorted: %v, want not sorted %v", err, c.notSorted)
			}
			if entries, _ := os.ReadDir(out); c.notSorted && len(entries) != 0 {
				t.Fatalf("importSorted left %v", entries)
			}
			meta, err := ImportContext(context.Background(), c.paths, filepath.Join(out, "import.parquet"), opt)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := importContext(context.Background(), c.paths, filepath.Join(out, "runs.parquet"), opt, false); err != nil {
				t.Fatal(err)
			}
			files := []string{"import.parquet", "runs.parquet"}
			if !c.notSorted {
				files = append(files, "fast.parquet")
			}
			want := readBytes(t, filepath.Join(out, files[0]))
			for _, f := range files[1:] {
				if !bytes.Equal(readBytes(t, filepath.Join(out, f)), want) {
					t.Errorf("%s and %s differ", f, files[0])
				}
			}
			if entries, _ := os.ReadDir(out); len(entries) != len(files) {
				t.Errorf("%d entries in the output directory, want the %d outputs", len(entries), len(files))
			}
			got, err := ReadParquetFile(filepath.Join(out, "import.parquet"))
			if err != nil {
				t.Fatal(err)
			}
			checkTraceInvariants(t, got)
			if c.anon != nil {
				return
			}
			ref, err := ReadLogs(c.paths, ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if c.name == "early job out of order, drops and adjustments" && (countTotal(ref.Meta.Skipped) != 3 || countTotal(ref.Meta.Adjusted) != 4) {
				t.Errorf("skipped %v, adjusted %v: want 3 and 4", ref.Meta.Skipped, ref.Meta.Adjusted)
			}
			if !reflect.DeepEqual(got, ref) || !reflect.DeepEqual(meta, ref.Meta) {
				t.Errorf("Import and ReadLogs differ:\nImport   %+v\nReadLogs %+v", got.Meta, ref.Meta)
			}
		})
	}
}

// The one-pass import writes the same bytes whatever GOMAXPROCS.
func TestImportSortedGOMAXPROCS(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "s.swf")
	if _, err := WriteSynth(log, SynthOptions{Jobs: 50_000, Nodes: 64, Seed: 5}, false); err != nil {
		t.Fatal(err)
	}
	var want []byte
	for _, procs := range []int{1, 2, 8} {
		prev := runtime.GOMAXPROCS(procs)
		out := filepath.Join(dir, "t.parquet")
		_, err := ImportContext(context.Background(), []string{log}, out, ImportOptions{Force: true})
		runtime.GOMAXPROCS(prev)
		if err != nil {
			t.Fatal(err)
		}
		got := readBytes(t, out)
		if want == nil {
			want = got
		} else if !bytes.Equal(got, want) {
			t.Errorf("GOMAXPROCS %d: other bytes than with 1", procs)
		}
	}
}

func readBytes(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
