package tuner_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/tuner"
	"github.com/ecotune/ecotune/tuner/scoring"
)

// robustTune is smallTune with robust evaluation on.
func robustTune(t *testing.T, dir string) (tuner.Options, run.Target) {
	o, tg := smallTune(t, dir)
	o.Robust = scoring.Robust{Windows: 3, Replicas: 1, Jitter: 900, Aggregate: scoring.AggregateCVaR}
	return o, tg
}

// A robust tune writes the same front whatever the workers and
// GOMAXPROCS, and a run interrupted after its second generation resumes
// to the same bytes (the whole run: one worker, GOMAXPROCS 1; the cut
// one: two of each). It records its settings, and its train references
// are the aggregates (not the plain replay's).
func TestRobustTuneSameWhateverWorkers(t *testing.T) {
	base := t.TempDir()
	out := wholeAndResumed(t, base, robustTune)
	sameFiles(t, filepath.Join(base, "whole"), filepath.Join(base, "cut"), run.FrontJSON, run.FrontCSV)
	m := out.Meta
	if m.Robust == nil || m.Robust.Windows != 3 || m.Robust.Replicas != 1 || m.Robust.Alpha != 0.5 {
		t.Fatalf("run.json robust = %+v, want the settings with their defaults", m.Robust)
	}
	plainDir := filepath.Join(t.TempDir(), "plain")
	po, ptg := smallTune(t, plainDir)
	plain, err := tuner.Tune(context.Background(), po, ptg)
	if err != nil {
		t.Fatal(err)
	}
	if plain.Meta.Robust != nil {
		t.Errorf("a plain run records robust %+v", plain.Meta.Robust)
	}
	ra, pa := m.References[scoring.AlwaysOn], plain.Meta.References[scoring.AlwaysOn]
	if ra.Train == pa.Train {
		t.Error("robust always-on train scores equal the plain replay's: not aggregated")
	}
	if *ra.Test != *pa.Test {
		t.Errorf("always-on's test scores differ between robust %+v and plain %+v: the test split is replayed plainly in both", *ra.Test, *pa.Test)
	}
	for _, p := range m.Presets {
		if p.Relative && p.Train != nil && p.Feasible && p.Train.QoSP90 > p.Resolved {
			t.Errorf("preset %s feasible with train qos_p90 %g above its bound %g", p.Name, p.Train.QoSP90, p.Resolved)
		}
	}
}

// Resuming with other robust settings (or none) is refused, naming the
// field.
func TestRobustResumeOtherSettingsRefused(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	o, tg := robustTune(t, dir)
	o.Settings.Generations = 1
	if _, err := tuner.Tune(context.Background(), o, tg); err != nil {
		t.Fatal(err)
	}
	for name, change := range map[string]func(*tuner.Options){
		"aggregate": func(o *tuner.Options) { o.Robust.Aggregate = scoring.AggregateWorst },
		"windows":   func(o *tuner.Options) { o.Robust.Windows = 2 },
		"plain":     func(o *tuner.Options) { o.Robust = scoring.Robust{} },
	} {
		o2, tg2 := robustTune(t, dir)
		change(&o2)
		tg2.Resume = true
		_, err := tuner.Tune(context.Background(), o2, tg2)
		var mm *run.MismatchError
		if !errors.As(err, &mm) || !slices.Contains(mm.Fields, "robust") {
			t.Errorf("%s: resume gave %v, want a mismatch naming robust", name, err)
		}
	}
	// The same settings resume.
	o3, tg3 := robustTune(t, dir)
	o3.Settings.Generations = 2
	tg3.Resume = true
	if _, err := tuner.Tune(context.Background(), o3, tg3); err != nil {
		t.Errorf("resume with the same robust settings: %v", err)
	}
}

// In robust mode too the progress hypervolume lies in [0, 1] and never
// falls.
func TestRobustProgressNeverFalls(t *testing.T) {
	progressNeverFalls(t, robustTune)
}

// The distributed plan carries the robust settings to the islands, and
// islands run apart give Tune's robust front.
func TestRobustPlanIslands(t *testing.T) {
	one := filepath.Join(t.TempDir(), "one")
	o, tg := robustTune(t, one)
	if _, err := tuner.Tune(context.Background(), o, tg); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "dist")
	p := writeReadPlan(t, o, tg, dir)
	if p.Robust == nil || *p.Robust != (scoring.Robust{Windows: 3, Replicas: 1, Jitter: 900, Aggregate: scoring.AggregateCVaR, Alpha: 0.5}) {
		t.Fatalf("plan robust = %+v", p.Robust)
	}
	po, err := p.Options(o.Trace, 1)
	if err != nil {
		t.Fatal(err)
	}
	if po.Robust != *p.Robust {
		t.Fatalf("plan options robust = %+v, plan %+v", po.Robust, *p.Robust)
	}
	runIslandsAndMerge(t, p, po, dir)
	sameFiles(t, one, dir, run.FrontJSON)
	// A plan whose robust settings were removed by hand is refused.
	p.Robust = nil
	if _, err := p.Options(o.Trace, 1); err == nil {
		t.Error("a plan with its robust settings removed was accepted")
	}
}
