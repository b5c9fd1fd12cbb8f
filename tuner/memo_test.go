package tuner

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/fuzzy"
	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
	"github.com/ecotune/ecotune/tuner/scoring"
)

// hgfs candidates and their canonical forms (drain off, rules off)
// evaluate alike on the first 3000 jobs of the embedded trace, and most
// random candidates so varied have a canonical form of their own.
func TestPolicyProblemCanonical(t *testing.T) {
	tr, err := datasets.Default()
	if err != nil {
		t.Fatal(err)
	}
	part := *tr
	part.Jobs = tr.Jobs[:3000]
	c, err := sim.ClusterFromTrace(tr.Meta)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := policy.Lookup("hgfs")
	if err != nil {
		t.Fatal(err)
	}
	p, err := scoring.NewPolicyProblem(spec, &part, c, sim.Options{Scheduler: sim.EASY}, scoring.DefaultObjectives(), nil, objectives.Scores{})
	if err != nil {
		t.Fatal(err)
	}
	ev, err := p.NewEvaluator()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(9, 10))
	lead, _ := spec.Param("drain_lead")
	changed := 0
	for i := range 8 {
		x := make([]float64, len(p.Vars()))
		for k, v := range p.Vars() {
			x[k] = v.Random(rng)
		}
		cfg := p.Config(x)
		if i%2 == 0 {
			cfg.Params["drain_lead"] = lead.Max
		}
		for r := range cfg.Fuzzy.Rules {
			if i < 4 || rng.IntN(4) > 0 {
				cfg.Fuzzy.Rules[r].Then = fuzzy.NoRule
			}
		}
		x = p.Encode(cfg)
		canon := p.Canonical(x)
		if slices.Equal(canon, x) {
			continue
		}
		changed++
		if again := p.Canonical(canon); !slices.Equal(again, canon) {
			t.Errorf("candidate %d: the canonical form is not its own", i)
		}
		f, g := make([]float64, 3), make([]float64, 3)
		if _, err := ev.Evaluate(x, f); err != nil {
			t.Fatal(err)
		}
		if _, err := ev.Evaluate(canon, g); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(f, g) {
			t.Errorf("candidate %d: %v, its canonical form %v", i, f, g)
		}
	}
	if changed < 6 {
		t.Errorf("%d of 8 candidates had another canonical form: the test compares little", changed)
	}
}
