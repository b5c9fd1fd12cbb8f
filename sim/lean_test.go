package sim

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/policy"
)

// TestJobIDs checks the ID encoding through its three forms (nothing
// while the IDs are 1..n, 4 bytes, 8 bytes) against the IDs added.
func TestJobIDs(t *testing.T) {
	for _, ids := range [][]int64{
		{1, 2, 3, 4},
		{1, 2, 7, 3},
		{5, 6},
		{1, 2, math.MaxInt32 + 1, 4, -1},
		{math.MinInt64, 1, 2},
		{1, 2, 3, -5, 1 << 40, 6},
	} {
		var d jobIDs
		d.room = 2
		for _, id := range ids {
			d.add(id)
		}
		for i, id := range ids {
			if got := d.at(i); got != id {
				t.Errorf("%v: at(%d) = %d", ids, i, got)
			}
		}
		sequential := true
		for i, id := range ids {
			sequential = sequential && id == int64(i)+1
		}
		if sequential != (d.small == nil && d.large == nil) {
			t.Errorf("%v: stored %d + %d IDs, sequential %v", ids, len(d.small), len(d.large), sequential)
		}
	}
}

// TestNameIndex checks the 2-byte form and the change to 4 bytes.
func TestNameIndex(t *testing.T) {
	var x nameIndex
	want := []int32{0, 1, math.MaxUint16, 3, math.MaxUint16 + 1, 7, math.MaxInt32}
	for _, k := range want {
		x.add(k)
	}
	for i, k := range want {
		if got := x.at(i); got != k {
			t.Errorf("at(%d) = %d, want %d", i, got, k)
		}
	}
	if x.small != nil || len(x.large) != len(want) {
		t.Errorf("%d small, %d large indices after an index beyond 2 bytes", len(x.small), len(x.large))
	}
}

// TestLeanJobsSameRecords replays traces with and without
// Options.LeanJobs (and through a Builder fed job by job) and checks that
// Result.Job gives the records of Result.Jobs, that everything else in
// the Result is equal, and that the jobs files written from the lean
// replay are the bytes of WriteJobsFile(JobRows): on a trace with
// non-sequential IDs and, on a cluster with frequency levels, under a
// policy that lowers them (so that end ≠ start + run).
func TestLeanJobsSameRecords(t *testing.T) {
	osc, err := LoadCluster(filepath.Join("testdata", "osc.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	tr := &datasets.Trace{Meta: datasets.Meta{Name: "lean", Nodes: datasets.Unknown, Procs: datasets.Unknown}}
	for i := range 3000 {
		id := int64(i + 1)
		if i%7 == 3 {
			id = int64(i)*1000 + 5 // not 1..n
		}
		tr.Jobs = append(tr.Jobs, datasets.Job{
			ID: id, Submit: int64(i * 37), Wait: datasets.Unknown, Run: int64(60 + i*13%5000),
			Procs: int32(1 + i*7%16), ReqProcs: datasets.Unknown, ReqTime: int64(100 + i*17%9000), Status: 1,
			User: []string{"ann", "bob", "cy"}[i%3], Group: []string{"g1", "g2"}[i%2], Queue: []string{"", "q"}[i%2],
			Partition: []string{"", "", "p"}[i%3],
		})
	}
	for _, tc := range []struct {
		name    string
		c       Cluster
		policy  string
		opt     Options
		freqsOn bool
	}{
		{"easy", Uniform(16, 2, policy.NodeModel{OffW: 1, IdleW: 10, BusySlotW: 5, BootS: 100, BootWh: 1, ShutdownS: 50, ShutdownWh: 0.5}), "idle-timeout", Options{Scheduler: EASY, JobNodes: true}, false},
		{"conservative-runtime", Uniform(150, 4, policy.NodeModel{IdleW: 10, BootS: 100, ShutdownS: 50}), "always-on", Options{Scheduler: Conservative, UseRunTime: true}, false},
		{"freqs", osc, "slf", Options{Scheduler: EASY}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := func(lean bool) (*Simulator, *Result) {
				opt := tc.opt
				opt.LeanJobs = lean
				b, err := NewBuilder(tr.Meta, tc.c, opt, 10)
				if err != nil {
					t.Fatal(err)
				}
				for i := range tr.Jobs {
					if err := b.Add(&tr.Jobs[i]); err != nil {
						t.Fatal(err)
					}
				}
				s, err := b.Simulator()
				if err != nil {
					t.Fatal(err)
				}
				p, err := policy.New(policy.Config{Name: tc.policy})
				if err != nil {
					t.Fatal(err)
				}
				var r Result
				if err := s.RunInto(p, &r); err != nil {
					t.Fatal(err)
				}
				return s, &r
			}
			_, full := run(false)
			s, lean := run(true)
			if lean.Jobs != nil || lean.NumJobs() != len(full.Jobs) || full.NumJobs() != len(full.Jobs) {
				t.Fatalf("lean: %d Jobs, NumJobs %d; full: %d", len(lean.Jobs), lean.NumJobs(), len(full.Jobs))
			}
			longer := 0
			for i, want := range full.Jobs {
				if got := lean.Job(i); got != want {
					t.Fatalf("job %d: lean %+v, full %+v", i, got, want)
				}
				if full.Job(i) != want {
					t.Fatalf("job %d: Job(i) of a full result is not Jobs[i]", i)
				}
				if want.End-want.Start > tr.Jobs[i].Run {
					longer++
				}
			}
			if tc.freqsOn != (longer > 0) {
				t.Errorf("%d jobs ran longer than their run time (frequencies lowered: %v)", longer, tc.freqsOn)
			}
			a, b := *full, *lean
			a.Jobs, b.Jobs, b.lean = nil, nil, nil
			if !reflect.DeepEqual(a, b) {
				t.Errorf("the results differ beyond the job records")
			}
			rows, err := JobRows(tr, full)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			for _, ext := range []string{".csv", ".parquet"} {
				want, got := filepath.Join(dir, "want"+ext), filepath.Join(dir, "got"+ext)
				if err := WriteJobsFile(want, rows, false); err != nil {
					t.Fatal(err)
				}
				if err := WriteResultJobsFile(got, s, lean, false); err != nil {
					t.Fatal(err)
				}
				wb, _ := os.ReadFile(want)
				gb, _ := os.ReadFile(got)
				if len(wb) == 0 || !bytes.Equal(wb, gb) {
					t.Errorf("%s: WriteResultJobsFile wrote %d bytes, WriteJobsFile %d, not the same", ext, len(gb), len(wb))
				}
			}
		})
	}
}

// TestLeanJobsNotInJSON: LeanJobs changes how results are held, not what
// they are, so the options' JSON — which run fingerprints and
// distributed plans hash — is the same with and without it, and a
// checkpoint written before the field existed still resumes.
func TestLeanJobsNotInJSON(t *testing.T) {
	o := Options{Scheduler: EASY, Period: 60, Seed: 3}
	plain, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	o.LeanJobs = true
	lean, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	if string(plain) != string(lean) || strings.Contains(string(lean), "Lean") {
		t.Errorf("options JSON %s with LeanJobs, %s without: want the same, without the field", lean, plain)
	}
}
