package tuner_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/datasets"
	obj "github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/sim"
	"github.com/ecotune/ecotune/tuner"
	"github.com/ecotune/ecotune/tuner/scoring"
	"github.com/ecotune/ecotune/tuner/search"
	"github.com/ecotune/ecotune/tuner/summary"
)

// nasaJobs is the first n jobs of the NASA iPSC/860 trace (the embedded
// default).
func nasaJobs(t *testing.T, n int) *datasets.Trace {
	t.Helper()
	tr, err := datasets.Default()
	if err != nil {
		t.Fatal(err)
	}
	return &datasets.Trace{Meta: tr.Meta, Jobs: tr.Jobs[:n]}
}

// windowsOptions tune hgfs with a tiny budget (population 8, one
// generation) on the first 3,200 NASA jobs.
func windowsOptions(t *testing.T, dir string) (tuner.Options, run.Target) {
	t.Helper()
	return tuner.Options{
		Policy:   "hgfs",
		Trace:    nasaJobs(t, 3200),
		Sim:      sim.Options{Scheduler: sim.EASY},
		Settings: search.Settings{Generations: 1, Seed: 5}, Method: search.NSGA2{Population: 8},
	}, run.Target{Dir: dir, Provenance: run.Provenance{Trace: "nasa-3200"}}
}

// jobsSum is a digest of jobs independent of the tuner's.
func jobsSum(jobs []datasets.Job) string {
	return fmt.Sprintf("%x", sha256.Sum256(fmt.Appendf(nil, "%v", jobs)))
}

// TestTuneWindows runs 3 windows on 3,200 jobs: blocks of 800 (3200/4)
// jobs, consecutive, disjoint and covering the trace; each window's
// run.json split reads back (HoldoutOf) to its two blocks, window k's test
// block is window k+1's train block; the summary repeats each window's
// run.json and front.json, and its mean and sd are those of the windows.
func TestTuneWindows(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "rolling")
	o, tg := windowsOptions(t, dir)
	out, err := tuner.TuneWindows(context.Background(), o, tg, 3)
	if err != nil {
		t.Fatal(err)
	}
	if out.Interrupted {
		t.Fatal("uncancelled run marked interrupted")
	}
	s := out.Summary
	if len(s.PerWindow) != 3 || s.Windows != 3 || s.Jobs != 3200 {
		t.Fatalf("summary: %d windows done of %d, %d jobs; want 3 of 3, 3200", len(s.PerWindow), s.Windows, s.Jobs)
	}
	next := 0 // the next block must start here
	var prevTest string
	for i, w := range s.PerWindow {
		k := i + 1
		// Blocks: window k trains on [800(k−1), 800k) and tests on [800k, 800(k+1)).
		if w.K != k || w.Train.FromJob != 800*(k-1) || w.Train.ToJob != 800*k || w.Test.FromJob != 800*k || w.Test.ToJob != 800*(k+1) {
			t.Errorf("window %d: k %d, train %d:%d, test %d:%d; want train %d:%d, test %d:%d", k, w.K,
				w.Train.FromJob, w.Train.ToJob, w.Test.FromJob, w.Test.ToJob, 800*(k-1), 800*k, 800*k, 800*(k+1))
		}
		if k == 1 {
			next = w.Train.FromJob
		}
		if w.Train.FromJob != next {
			t.Errorf("window %d starts at job %d, want %d (consecutive blocks)", k, w.Train.FromJob, next)
		}
		next = w.Train.ToJob
		jobs := o.Trace.Jobs
		if w.Train.FromS != jobs[w.Train.FromJob].Submit || w.Test.ToS != jobs[w.Test.ToJob-1].Submit || w.Train.FromS > w.Train.ToS || w.Train.ToS > w.Test.FromS {
			t.Errorf("window %d: times train %d–%d, test %d–%d do not match its jobs", k, w.Train.FromS, w.Train.ToS, w.Test.FromS, w.Test.ToS)
		}

		meta, front, err := tuner.LoadRun(filepath.Join(dir, w.Dir))
		if err != nil {
			t.Fatal(err)
		}
		train, test, err := tuner.HoldoutOf(o.Trace, meta.Split.String())
		if err != nil {
			t.Fatal(err)
		}
		if jobsSum(train.Jobs) != jobsSum(jobs[w.Train.FromJob:w.Train.ToJob]) || jobsSum(test.Jobs) != jobsSum(jobs[w.Test.FromJob:w.Test.ToJob]) {
			t.Errorf("window %d: run.json split %q does not read back to its blocks", k, meta.Split)
		}
		if meta.TrainJobs != 800 || meta.TestJobs != 800 {
			t.Errorf("window %d: run.json has %d/%d jobs, want 800/800", k, meta.TrainJobs, meta.TestJobs)
		}
		if k > 1 && jobsSum(train.Jobs) != prevTest {
			t.Errorf("window %d trains on other jobs than window %d tested on", k, k-1)
		}
		if k > 1 && w.Train.SHA256 != s.PerWindow[i-1].Test.SHA256 {
			t.Errorf("windows.json: window %d's train digest differs from window %d's test digest", k, k-1)
		}
		prevTest = jobsSum(test.Jobs)

		if w.Evaluations != meta.Evaluations || w.Generations != meta.Generations ||
			w.TrainHypervolume != meta.Hypervolume["train"] || w.TestHypervolume != meta.Hypervolume["test"] {
			t.Errorf("window %d: summary %d evaluations, %d generations, HV %g/%g; run.json %d, %d, %v", k,
				w.Evaluations, w.Generations, w.TrainHypervolume, w.TestHypervolume, meta.Evaluations, meta.Generations, meta.Hypervolume)
		}
		if len(w.Presets) != len(meta.Presets) {
			t.Fatalf("window %d: %d picks, run.json %d", k, len(w.Presets), len(meta.Presets))
		}
		for j, p := range w.Presets {
			ch := meta.Presets[j]
			sol := front.Solutions[ch.Row].Test
			want := map[string]float64{obj.QoSP90: sol.QoSP90, obj.OffNodeSeconds: float64(sol.OffNodeSeconds),
				obj.Reconfigurations: float64(sol.Reconfigurations)}
			if p.Name != ch.Name || p.Row != ch.Row || p.Feasible != ch.Feasible || !reflect.DeepEqual(p.Test, want) {
				t.Errorf("window %d preset %s: summary %+v, run.json %+v with test %v", k, ch.Name, p, ch, want)
			}
		}
		for _, ref := range []string{scoring.AlwaysOn, scoring.Oracle} {
			sc := meta.References[ref].Test
			if sc == nil || w.References[ref][obj.OffNodeSeconds] != float64(sc.OffNodeSeconds) || w.References[ref][obj.QoSP90] != sc.QoSP90 {
				t.Errorf("window %d reference %s: summary %v, run.json %+v", k, ref, w.References[ref], sc)
			}
		}
	}
	if next != 2400 || s.PerWindow[2].Test.ToJob != 3200 {
		t.Errorf("blocks end at %d, %d; want 2400, 3200 (covering the trace)", next, s.PerWindow[2].Test.ToJob)
	}
	checkStats(t, s)
	checkFiles(t, dir, s)
}

// checkStats recomputes the mean and sample standard deviation.
func checkStats(t *testing.T, s *summary.WindowsSummary) {
	t.Helper()
	stat := func(f func(w summary.Window) float64) (mean, sd float64) {
		for _, w := range s.PerWindow {
			mean += f(w)
		}
		mean /= float64(len(s.PerWindow))
		for _, w := range s.PerWindow {
			sd += (f(w) - mean) * (f(w) - mean)
		}
		return mean, math.Sqrt(sd / float64(len(s.PerWindow)-1))
	}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
	m, sd := stat(func(w summary.Window) float64 { return w.TestHypervolume })
	if !near(s.Mean.TestHypervolume, m) || !near(s.SD.TestHypervolume, sd) {
		t.Errorf("test HV mean ± sd %g ± %g, want %g ± %g", s.Mean.TestHypervolume, s.SD.TestHypervolume, m, sd)
	}
	for j, name := range s.Presets {
		for _, score := range summary.WindowScores {
			m, sd := stat(func(w summary.Window) float64 { return w.Presets[j].Test[score] })
			if got := s.Mean.Presets[j]; got.Name != name || !near(got.Test[score], m) || !near(s.SD.Presets[j].Test[score], sd) {
				t.Errorf("%s %s: mean ± sd %g ± %g, want %g ± %g", name, score, got.Test[score], s.SD.Presets[j].Test[score], m, sd)
			}
		}
	}
}

// checkFiles reads windows.json and windows.csv back.
func checkFiles(t *testing.T, dir string, s *summary.WindowsSummary) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, summary.WindowsJSON))
	if err != nil {
		t.Fatal(err)
	}
	var back summary.WindowsSummary
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(&back, s) {
		t.Error("windows.json does not read back to the summary")
	}
	f, err := os.Open(filepath.Join(dir, summary.WindowsCSV))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1+len(s.PerWindow)+2 || recs[len(recs)-2][0] != "mean" || recs[len(recs)-1][0] != "sd" {
		t.Fatalf("windows.csv: %d rows, want header, %d windows, mean and sd", len(recs), len(s.PerWindow))
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	p := s.Presets[0]
	for i, w := range s.PerWindow {
		row := recs[1+i]
		hv, _ := strconv.ParseFloat(row[col["test_hypervolume"]], 64)
		q, _ := strconv.ParseFloat(row[col[p+".qos_p90"]], 64)
		if row[col["k"]] != strconv.Itoa(w.K) || hv != w.TestHypervolume || q != w.Presets[0].Test[obj.QoSP90] ||
			row[col["always-on.off_node_seconds"]] == "" {
			t.Errorf("windows.csv row %d = %v, want window %+v", i+1, row, w)
		}
	}
	if m, _ := strconv.ParseFloat(recs[len(recs)-2][col[p+".off_node_seconds"]], 64); m != s.Mean.Presets[0].Test[obj.OffNodeSeconds] {
		t.Errorf("windows.csv mean %s.off_node_seconds %g, want %g", p, m, s.Mean.Presets[0].Test[obj.OffNodeSeconds])
	}
}

// cancelInSearch is a Recorder that calls cancel once the k-th search of
// a series (windows, policies, seeds) has finished its generation 1:
// generation 0 opens each search.
func cancelInSearch(k int, cancel func()) search.Recorder {
	starts := 0
	return search.RecorderFunc(func(s *search.Status) error {
		if s.Generation == 0 {
			starts++
		}
		if starts == k && s.Generation == 1 {
			cancel()
		}
		return nil
	})
}

// TestTuneWindowsResume cancels a rolling-origin run in window 2 after its
// first generation and resumes it: window 1 is kept as it was, and
// windows.json and windows.csv equal an uninterrupted run's byte for byte.
func TestTuneWindowsResume(t *testing.T) {
	base := t.TempDir()
	whole, wt := windowsOptions(t, filepath.Join(base, "whole"))
	whole.Settings.Generations = 2
	if _, err := tuner.TuneWindows(context.Background(), whole, wt, 2); err != nil {
		t.Fatal(err)
	}

	cut, ct := windowsOptions(t, filepath.Join(base, "cut"))
	cut.Settings.Generations = 2
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cut.Settings.Recorders = []search.Recorder{cancelInSearch(2, cancel)} // in window 2
	out, err := tuner.TuneWindows(ctx, cut, ct, 2)
	if err != nil {
		t.Fatal(err)
	}
	if !out.Interrupted || out.Window != 2 || out.Generations != 1 || len(out.Summary.PerWindow) != 1 || !out.Summary.Interrupted {
		t.Fatalf("cancelled run: interrupted %v in window %d after generation %d, %d windows summarised; want window 2, generation 1, 1 window",
			out.Interrupted, out.Window, out.Generations, len(out.Summary.PerWindow))
	}
	run1 := filepath.Join(base, "cut", summary.WindowDir(1), tuner.RunJSON)
	before, err := os.ReadFile(run1)
	if err != nil {
		t.Fatal(err)
	}

	cut.Settings.Recorders = nil
	ct.Resume = true
	if out, err = tuner.TuneWindows(context.Background(), cut, ct, 2); err != nil {
		t.Fatal(err)
	}
	if out.Interrupted {
		t.Fatal("resumed run marked interrupted")
	}
	if after, err := os.ReadFile(run1); err != nil || !bytes.Equal(before, after) {
		t.Errorf("resuming rewrote the finished window 1 (%v)", err)
	}
	for _, name := range []string{summary.WindowsJSON, summary.WindowsCSV} {
		a, err := os.ReadFile(filepath.Join(base, "whole", name))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(base, "cut", name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("resumed %s differs from the uninterrupted run's:\n%s\n----\n%s", name, a, b)
		}
	}

	// Resuming with another seed does not pass the finished windows off
	// as its own.
	cut.Settings.Seed++
	if _, err := tuner.TuneWindows(context.Background(), cut, ct, 2); err == nil || !strings.Contains(err.Error(), "seed") {
		t.Errorf("resuming with another seed: error %v, want one naming the seed", err)
	}
}

func TestTuneWindowsErrors(t *testing.T) {
	dir := t.TempDir()
	o := tuner.Options{Policy: "hgfs", Trace: nasaJobs(t, 3)}
	tg := run.Target{Dir: filepath.Join(dir, "r")}
	tests := []struct {
		name    string
		windows int
		edit    func(o *tuner.Options, tg *run.Target)
		want    string
	}{
		{"one window", 1, nil, "at least 2"},
		{"no windows", 0, nil, "at least 2"},
		{"negative", -2, nil, "at least 2"},
		{"too few jobs", 3, nil, "3 jobs cannot fill the 4 blocks"},
		{"job split given", 2, func(o *tuner.Options, _ *run.Target) { o.Split = run.ByJobs(0, 1, 2) }, "Split"},
		{"no directory", 2, func(_ *tuner.Options, tg *run.Target) { tg.Dir = "" }, "directory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o, tg := o, tg
			if tc.edit != nil {
				tc.edit(&o, &tg)
			}
			if _, err := tuner.TuneWindows(context.Background(), o, tg, tc.windows); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "r")); err == nil {
		t.Error("a rejected run created its directory")
	}
}

// TestJobSplitRoundTrip: run.json's text of a job split reads back to the
// same jobs; malformed ones are refused.
func TestJobSplitRoundTrip(t *testing.T) {
	tr := &datasets.Trace{Jobs: make([]datasets.Job, 10)}
	for i := range tr.Jobs {
		tr.Jobs[i] = datasets.Job{ID: int64(i + 1), Submit: int64(100 * i)}
	}
	for _, s := range []tuner.JobSplit{{From: 0, Cut: 1, To: 2}, {From: 3, Cut: 6, To: 10}, {From: 0, Cut: 5, To: 10}} {
		train, test, err := tuner.HoldoutOf(tr, s.String())
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		if !reflect.DeepEqual(train.Jobs, tr.Jobs[s.From:s.Cut]) || !reflect.DeepEqual(test.Jobs, tr.Jobs[s.Cut:s.To]) {
			t.Errorf("%q: train %v, test %v", s, train.Jobs, test.Jobs)
		}
	}
	for _, bad := range []string{
		"chronological jobs 0:5 train 6:10 test", // gap
		"chronological jobs 5:5 train 5:10 test", // empty train
		"chronological jobs 0:5 train 5:11 test", // past the end
		"chronological jobs 0:5 test 5:10 train",
		"chronological jobs 0-5 train 5:10 test",
		"chronological jobs -1:5 train 5:10 test",
	} {
		if _, _, err := tuner.HoldoutOf(tr, bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func ExampleTuneWindows() {
	tr, err := datasets.Default()
	if err != nil {
		fmt.Println(err)
		return
	}
	tr = &datasets.Trace{Meta: tr.Meta, Jobs: tr.Jobs[:3000]}
	dir, err := os.MkdirTemp("", "windows")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	out, err := tuner.TuneWindows(context.Background(), tuner.Options{
		Policy:   "idle-timeout",
		Trace:    tr,
		Settings: search.Settings{Generations: 1, Seed: 1}, Method: search.NSGA2{Population: 8},
	}, run.Target{Dir: dir}, 2)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, w := range out.Summary.PerWindow {
		fmt.Printf("%s: trains on jobs %d:%d, tests on %d:%d\n", w.Dir, w.Train.FromJob, w.Train.ToJob, w.Test.FromJob, w.Test.ToJob)
	}
	// Output:
	// window-1: trains on jobs 0:1000, tests on 1000:2000
	// window-2: trains on jobs 1000:2000, tests on 2000:3000
}
