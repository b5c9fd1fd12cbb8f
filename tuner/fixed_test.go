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
	"github.com/ecotune/ecotune/tuner/testproblems"
)

// An island with fixed variables keeps them in every generation, migrants
// included, while the other island searches everything; the result holds
// candidates of both.
func TestFixedIslandKeepsItsSubspace(t *testing.T) {
	fixed := map[int]float64{0: 0.3, 1: 0}
	s := tuner.Settings{Population: 16, Generations: 12, Islands: 2, MigrationEvery: 2, Migrants: 4, Seed: 5,
		Fixed: []map[int]float64{fixed}}
	conforms := func(x []float64) bool { return x[0] == 0.3 && x[1] == 0 }
	generations := 0
	s.Recorders = []tuner.Recorder{tuner.RecorderFunc(func(st *tuner.Status) error {
		generations++
		isl := st.Checkpoint.Islands
		for _, m := range isl[0] {
			if !conforms(m.X) {
				t.Errorf("generation %d: island 0 holds %v", st.Generation, m.X[:2])
			}
		}
		if st.Generation > 0 && !slices.ContainsFunc(isl[1], func(m tuner.Member) bool { return !conforms(m.X) }) {
			t.Errorf("generation %d: island 1 holds only the subspace", st.Generation)
		}
		return nil
	})}
	res, err := tuner.Minimize(context.Background(), testproblems.ZDT1(), s)
	if err != nil {
		t.Fatal(err)
	}
	if generations != 13 {
		t.Errorf("%d generations recorded, want 13", generations)
	}
	in := 0
	for _, m := range res.Members {
		if conforms(m.X) {
			in++
		}
	}
	if in == 0 || in == len(res.Members) {
		t.Errorf("%d of %d final members in the subspace, want some and not all", in, len(res.Members))
	}
}

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
		ck, err := tuner.ReadCheckpoint(dir)
		if err != nil {
			t.Fatal(err)
		}
		all := !slices.ContainsFunc(ck.Islands[0], func(m tuner.Member) bool { return !inCore(m.X) })
		if all != on {
			t.Errorf("reactive island %v: island 0 all in the core: %v", on, all)
		}
	}
}

// hgfsProblem is hgfs's spec and its tuning problem with no trace: enough
// to encode and decode candidates.
func hgfsProblem(t *testing.T) (policy.Spec, *tuner.PolicyProblem) {
	t.Helper()
	spec, err := policy.Lookup("hgfs")
	if err != nil {
		t.Fatal(err)
	}
	p, err := tuner.NewPolicyProblem(spec, nil, sim.Cluster{}, sim.Options{}, nil, nil, ecoobj.Scores{})
	if err != nil {
		t.Fatal(err)
	}
	return spec, p
}
