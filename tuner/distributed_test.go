package tuner_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/tuner"
)

// Tune's islands as goroutines through files (TuneIsland with a
// FileExchange, from a plan written and read back) and Merge write
// Tune's front files byte for byte.
func TestTuneIslandsThroughFiles(t *testing.T) {
	one := filepath.Join(t.TempDir(), "one")
	o, tg := smallTune(t, one)
	if _, err := tuner.Tune(context.Background(), o, tg); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "dist")
	p := writeReadPlan(t, o, tg, dir)
	po, err := p.Options(o.Trace, 1)
	if err != nil {
		t.Fatal(err)
	}
	runIslandsAndMerge(t, p, po, dir)
	for i := range p.Islands {
		st, ok, err := tuner.ReadIslandStatus(dir, i)
		if err != nil || !ok || !st.Done || st.Generation != p.Generations {
			t.Errorf("island %d: status %+v (%v, %v): want done at generation %d", i, st, ok, err, p.Generations)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "islands", "epoch-1", "island-0.json")); err != nil {
		t.Errorf("no migrants file of epoch 1: %v", err)
	}
	for _, name := range []string{run.FrontJSON, run.FrontCSV, run.FrontParquet} {
		a, err := os.ReadFile(filepath.Join(one, name))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs from Tune's", name)
		}
	}
}

// A plan edited by hand, or read with another trace, is refused.
func TestPlanRefusesEdits(t *testing.T) {
	o, tg := smallTune(t, "")
	p, err := tuner.NewPlan(o, tg.Provenance, 0)
	if err != nil {
		t.Fatal(err)
	}
	if p.Timeout() != tuner.DefaultIslandTimeout {
		t.Errorf("timeout %s, want the default %s", p.Timeout(), tuner.DefaultIslandTimeout)
	}
	dir := t.TempDir()
	if err := tuner.WritePlan(p, run.Target{Dir: dir, Force: true}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, tuner.PlanFile)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, bytes.Replace(b, []byte(`"population": 8`), []byte(`"population": 9`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := tuner.ReadPlan(dir); err == nil || !strings.Contains(err.Error(), "edited or corrupt") {
		t.Errorf("an edited plan: error %v", err)
	}
	short := *o.Trace
	short.Jobs, short.Meta.Sources = short.Jobs[:2000], nil
	if _, err := p.Options(&short, 1); err == nil || !strings.Contains(err.Error(), "trace_sha256") {
		t.Errorf("another trace: error %v", err)
	}
}

// runIslandsAndMerge runs every island of plan p in dir side by side, as
// goroutines, then merges them.
func runIslandsAndMerge(t *testing.T, p *tuner.Plan, po tuner.Options, dir string) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make([]error, p.Islands)
	for i := range p.Islands {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = tuner.TuneIsland(context.Background(), p, po, dir, i, nil)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("island %d: %v", i, err)
		}
	}
	if _, err := tuner.Merge(context.Background(), p, po, dir); err != nil {
		t.Fatal(err)
	}
}
