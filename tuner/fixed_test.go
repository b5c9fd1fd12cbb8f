package tuner_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	ecoobj "github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
	"github.com/ecotune/ecotune/tuner"
	"github.com/ecotune/ecotune/tuner/scoring"
	"github.com/ecotune/ecotune/tuner/search"
)

// hgfs's reactive subspace fixes everything but min_idle, spare and
// max_booting, at values that make it idle-timeout: every rule off, R2
// never, R3 always, no drain.
func TestReactiveFixedHGFS(t *testing.T) {
	spec, p := hgfsProblem(t)
	fixed := p.ReactiveFixed()
	x := p.Encode(spec.Defaults())
	for k, v := range fixed {
		x[k] = v
	}
	free := 0
	for k, name := range p.ParamNames() {
		if _, ok := fixed[k]; !ok {
			free++
			x[k] = map[string]float64{"min_idle": 777, "spare": 2, "max_booting": 3}[name]
		}
	}
	if free != 3 || len(fixed) != len(x)-3 {
		t.Fatalf("%d free parameters, %d of %d variables fixed; want 3 free, the rest fixed", free, len(fixed), len(x))
	}
	c := p.Config(x)
	lead, _ := spec.Param("drain_lead")
	want := map[string]float64{"t_max": 86400, "n_max": 1000, "t_min": 86400, "n_min": 1000, "min_idle": 777, "spare": 2, "max_booting": 3, "drain_lead": lead.Max}
	for name, v := range want {
		if c.Params[name] != v {
			t.Errorf("%s = %g, want %g", name, c.Params[name], v)
		}
	}
	for i, r := range c.Fuzzy.Rules {
		if r.Then >= 0 {
			t.Errorf("rule %d is on (%d)", i, r.Then)
		}
	}
	if idle, _ := policy.Lookup("idle-timeout"); idle.Reactive != nil {
		t.Error("idle-timeout declares a reactive subspace of its own")
	}
}

// With ReactiveIsland, every candidate of island 0 in the checkpoint is in
// hgfs's reactive core; without it, island 0 searches everything.
func TestTuneReactiveIsland(t *testing.T) {
	_, p := hgfsProblem(t)
	fixed := p.ReactiveFixed()
	inCore := func(x []float64) bool {
		for k, v := range fixed {
			if x[k] != v {
				return false
			}
		}
		return true
	}
	for _, on := range []bool{true, false} {
		dir := filepath.Join(t.TempDir(), "run")
		o, tg := smallTune(t, dir)
		o.ReactiveIsland = on
		if _, err := tuner.Tune(context.Background(), o, tg); err != nil {
			t.Fatal(err)
		}
		ck, err := search.ReadCheckpoint(dir)
		if err != nil {
			t.Fatal(err)
		}
		all := !slices.ContainsFunc(ck.Islands[0], func(m search.Member) bool { return !inCore(m.X) })
		if all != on {
			t.Errorf("reactive island %v: island 0 all in the core: %v", on, all)
		}
	}
}

// hgfsProblem is hgfs's spec and its tuning problem with no trace: enough
// to encode and decode candidates.
func hgfsProblem(t *testing.T) (policy.Spec, *scoring.PolicyProblem) {
	t.Helper()
	spec, err := policy.Lookup("hgfs")
	if err != nil {
		t.Fatal(err)
	}
	p, err := scoring.NewPolicyProblem(spec, nil, sim.Cluster{}, sim.Options{}, nil, nil, ecoobj.Scores{})
	if err != nil {
		t.Fatal(err)
	}
	return spec, p
}
