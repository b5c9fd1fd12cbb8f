package tuner_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/sim"
	"github.com/ecotune/ecotune/tuner"
	"github.com/ecotune/ecotune/tuner/pick"
	"github.com/ecotune/ecotune/tuner/scoring"
	"github.com/ecotune/ecotune/tuner/search"
	"github.com/parquet-go/parquet-go"
)

// smallTune is a quick hgfs run on the first 3,000 jobs of the embedded
// default trace.
func smallTune(t *testing.T, dir string) (tuner.Options, run.Target) {
	t.Helper()
	tr, err := datasets.Default()
	if err != nil {
		t.Fatal(err)
	}
	tr = &datasets.Trace{Meta: tr.Meta, Jobs: tr.Jobs[:3000]}
	return tuner.Options{
		Policy:   "hgfs",
		Trace:    tr,
		Sim:      sim.Options{Scheduler: sim.EASY},
		Settings: search.Settings{Generations: 4, Seed: 3}, Method: search.NSGA2{Population: 8, Islands: 2, MigrationEvery: 2},
	}, run.Target{Dir: dir, Provenance: run.Provenance{Trace: "nasa-3000"}}
}

// TestTuneRunDirectory checks every file of a run directory and what it
// promises: train and test scores for every solution, presets resolved
// (infeasible ones marked), hypervolumes inside the normalised box.
func TestTuneRunDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	o, tg := smallTune(t, dir)
	out, err := tuner.Tune(context.Background(), o, tg)
	if err != nil {
		t.Fatal(err)
	}
	meta, front, err := tuner.LoadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(front.Solutions) == 0 || len(front.Solutions) != len(out.Front.Solutions) {
		t.Fatalf("front.json has %d solutions, Tune returned %d", len(front.Solutions), len(out.Front.Solutions))
	}
	for i, s := range front.Solutions {
		if s.Test == nil {
			t.Fatalf("solution %d has no test scores", i)
		}
		if s.Config.Fuzzy == nil {
			t.Fatalf("solution %d has no rule base", i)
		}
	}
	if meta.Evaluations == 0 || meta.TrainJobs != 2100 || meta.TestJobs != 900 {
		t.Errorf("run.json: %d evaluations, %d/%d jobs; want > 0, 2100/900", meta.Evaluations, meta.TrainJobs, meta.TestJobs)
	}
	maxHV := 1.0 // the fixed normalised box
	for _, split := range []string{"train", "test"} {
		if hv, ok := meta.Hypervolume[split]; !ok || hv < 0 || hv > maxHV {
			t.Errorf("%s hypervolume %g (present %v), want in [0, %g]", split, hv, ok, maxHV)
		}
	}
	if _, ok := meta.References[scoring.AlwaysOn]; !ok {
		t.Error("no always-on reference")
	}
	if len(meta.Presets) != len(pick.DefaultPresets()) {
		t.Fatalf("%d presets resolved, want %d", len(meta.Presets), len(pick.DefaultPresets()))
	}
	for _, p := range meta.Presets {
		if p.Row < 0 || p.Row >= len(front.Solutions) {
			t.Errorf("preset %s: row %d out of the front", p.Name, p.Row)
			continue
		}
		q := front.Solutions[p.Row].Train.QoSP90
		// rel10 is checked on the train windows; the absolute presets are not.
		if wantWin := map[bool]int{true: pick.DefaultPickWindows}[p.Relative]; p.Windows != wantWin {
			t.Errorf("preset %s: checked on %d train windows, want %d", p.Name, p.Windows, wantWin)
		}
		if p.Windows > 0 && (p.WindowsFeasible == nil || p.WorstWindowMargin == nil || p.WindowMeanLevel == nil || p.WindowLevel == nil ||
			p.WindowAggregate != pick.DefaultPickAggregate || len(p.WindowBounds) != p.Windows) {
			t.Errorf("preset %s: window check not recorded", p.Name)
		} else if p.Windows > 0 && p.Feasible && *p.WindowLevel > 1 {
			t.Errorf("preset %s feasible but its %s window level is %g > 1", p.Name, p.WindowAggregate, *p.WindowLevel)
		} else if p.Windows > 0 && (*p.WindowsFeasible == p.Windows) != (*p.WorstWindowMargin >= 0) {
			t.Errorf("preset %s: meets %d of %d windows, worst margin %g", p.Name, *p.WindowsFeasible, p.Windows, *p.WorstWindowMargin)
		}
		if p.Feasible && p.Name != "qos0" && p.Name != "knee" && q > p.Resolved {
			t.Errorf("preset %s feasible but row %d has qos_p90 %g > %g", p.Name, p.Row, q, p.Resolved)
		}
		if p.Name == "qos0" {
			for _, s := range front.Solutions {
				if s.Train.QoSP90 < q {
					t.Errorf("qos0 picked qos_p90 %g, the front has %g", q, s.Train.QoSP90)
					break
				}
			}
		}
	}

	f, err := os.Open(filepath.Join(dir, tuner.FrontCSV))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != len(front.Solutions)+1 {
		t.Errorf("front.csv has %d rows, want %d + header", len(recs), len(front.Solutions))
	}
	rows, names := readParquet(t, filepath.Join(dir, tuner.FrontParquet))
	if len(rows) != len(front.Solutions) {
		t.Errorf("front.parquet has %d rows, want %d", len(rows), len(front.Solutions))
	} else if got, want := rows[0][names["test.off_node_seconds"]].Double(), float64(front.Solutions[0].Test.OffNodeSeconds); got != want {
		t.Errorf("front.parquet row 0 test.off_node_seconds = %v, want %v", got, want)
	}

	if _, err := tuner.Tune(context.Background(), o, tg); err == nil {
		t.Error("second run into the same directory without Force: no error")
	}
}

// TestTuneResume interrupts a tuning run after its second generation and
// resumes it: front.json must equal an uninterrupted run's byte for byte.
// The uninterrupted run has GOMAXPROCS=1 and one worker, the other two, so
// this also checks that the front does not depend on them.
func TestTuneResume(t *testing.T) {
	base := t.TempDir()
	wholeAndResumed(t, base, smallTune)
	sameFiles(t, filepath.Join(base, "whole"), filepath.Join(base, "cut"), tuner.FrontJSON)
	// The presets' picks, with their per-window checks, likewise.
	var picks [2][]byte
	for i, d := range []string{"whole", "cut"} {
		m, _, err := tuner.LoadRun(filepath.Join(base, d))
		if err != nil {
			t.Fatal(err)
		}
		if picks[i], err = json.Marshal(m.Presets); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(picks[0], picks[1]) {
		t.Errorf("resumed run's presets differ:\n%s\n%s", picks[1], picks[0])
	}
}

// wholeAndResumed tunes mk's options twice under base: in base/whole
// uninterrupted with one worker and GOMAXPROCS 1, and in base/cut with
// two of each, cancelled after its second generation and resumed. It
// returns the whole run's outcome.
func wholeAndResumed(t *testing.T, base string, mk func(*testing.T, string) (tuner.Options, run.Target)) *tuner.Outcome {
	t.Helper()
	whole, wt := mk(t, filepath.Join(base, "whole"))
	whole.Settings.Workers = 1
	prev := runtime.GOMAXPROCS(1)
	out, err := tuner.Tune(context.Background(), whole, wt)
	runtime.GOMAXPROCS(prev)
	if err != nil {
		t.Fatal(err)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	cut, ct := mk(t, filepath.Join(base, "cut"))
	cut.Settings.Workers = 2
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cut.Settings.Recorders = []search.Recorder{search.RecorderFunc(func(s *search.Status) error {
		if s.Generation == 2 {
			cancel()
		}
		return nil
	})}
	part, err := tuner.Tune(ctx, cut, ct)
	if err != nil {
		t.Fatal(err)
	}
	if !part.Interrupted || !part.Meta.Interrupted {
		t.Fatal("cancelled run not marked interrupted")
	}
	cut.Settings.Recorders = nil
	ct.Resume = true
	if _, err := tuner.Tune(context.Background(), cut, ct); err != nil {
		t.Fatal(err)
	}
	return out
}

// sameFiles reports each of names that differs between directories a and b.
func sameFiles(t *testing.T, a, b string, names ...string) {
	t.Helper()
	for _, name := range names {
		x, err := os.ReadFile(filepath.Join(a, name))
		if err != nil {
			t.Fatal(err)
		}
		y, err := os.ReadFile(filepath.Join(b, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(x, y) {
			t.Errorf("%s differs between %s and %s", name, a, b)
		}
	}
}

// progressNeverFalls tunes mk's options for 6 generations and checks
// that every progress hypervolume lies in [0, 1], never falls and ends
// above 0.
func progressNeverFalls(t *testing.T, mk func(*testing.T, string) (tuner.Options, run.Target)) *tuner.Outcome {
	t.Helper()
	o, tg := mk(t, filepath.Join(t.TempDir(), "run"))
	o.Settings.Generations = 6
	mon := &hvMonitor{}
	o.Monitor = mon
	out, err := tuner.Tune(context.Background(), o, tg)
	if err != nil {
		t.Fatal(err)
	}
	if len(mon.hv) != o.Settings.Generations+1 {
		t.Fatalf("%d progress records, want %d", len(mon.hv), o.Settings.Generations+1)
	}
	for g, hv := range mon.hv {
		if math.IsNaN(hv) || hv < 0 || hv > 1 {
			t.Fatalf("generation %d: progress hypervolume %g outside [0, 1]", g, hv)
		}
		if g > 0 && hv < mon.hv[g-1] {
			t.Fatalf("generation %d: progress hypervolume fell from %g to %g", g, mon.hv[g-1], hv)
		}
	}
	if mon.hv[len(mon.hv)-1] <= 0 {
		t.Errorf("progress hypervolume stayed 0: %v", mon.hv)
	}
	return out
}

// writeReadPlan writes o's distributed plan into dir and reads it back.
func writeReadPlan(t *testing.T, o tuner.Options, tg run.Target, dir string) *tuner.Plan {
	t.Helper()
	p, err := tuner.NewPlan(o, tg.Provenance, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if err := tuner.WritePlan(p, run.Target{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	if p, err = tuner.ReadPlan(dir); err != nil {
		t.Fatal(err)
	}
	return p
}

// readParquet returns the rows of a Parquet file and its column indexes.
func readParquet(t *testing.T, path string) ([]parquet.Row, map[string]int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]int{}
	for i, fld := range pf.Schema().Fields() {
		names[fld.Name()] = i
	}
	r := parquet.NewReader(pf)
	defer r.Close()
	rows := make([]parquet.Row, pf.NumRows())
	n, err := r.ReadRows(rows)
	if err != nil && n != len(rows) {
		t.Fatal(err)
	}
	return rows[:n], names
}

// hvMonitor records the hypervolume Tune shows its Monitor.
type hvMonitor struct{ hv []float64 }

func (m *hvMonitor) Record(s *search.Status) error { m.hv = append(m.hv, s.Hypervolume); return nil }
func (m *hvMonitor) Note(string)                   {}
func (m *hvMonitor) Done()                         {}

// TestTuneProgressNeverFalls runs a real small tune and checks the
// progress hypervolume of every generation: in [0, 1], never below the
// previous generation's, and at most the front's final train
// hypervolume's box (the front is capped from the archive, which holds
// every point progress saw).
func TestTuneProgressNeverFalls(t *testing.T) {
	out := progressNeverFalls(t, smallTune)
	if hv := out.Meta.Hypervolume["train"]; hv < 0 || hv > 1 {
		t.Errorf("train hypervolume %g outside [0, 1]", hv)
	}
}
