package policy_test

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/fuzzy"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
)

// randomHGFS is a complete hgfs Config drawn from rng: every parameter
// within its bounds (whole where it must be, drain on about half the
// time), every rule's consequent at random (off included), random shifts.
func randomHGFS(rng *rand.Rand, spec policy.Spec) policy.Config {
	c := policy.Config{Name: spec.Name, Params: map[string]float64{}, Fuzzy: spec.Fuzzy.Clone()}
	for _, p := range spec.Params {
		x := p.Min + (p.Max-p.Min)*rng.Float64()
		if p.Log && p.Min > 0 {
			x = math.Exp(math.Log(p.Min) + (math.Log(p.Max)-math.Log(p.Min))*rng.Float64())
		}
		if p.Integer {
			x = math.Min(math.Max(math.Round(x), math.Ceil(p.Min)), math.Floor(p.Max))
		}
		c.Params[p.Name] = x
	}
	if rng.IntN(2) == 0 {
		c.Params["drain_lead"] = 1800
	}
	for i := range c.Fuzzy.Rules {
		c.Fuzzy.Rules[i].Then = rng.IntN(len(c.Fuzzy.Output.Labels)+1) - 1
	}
	vars := []*fuzzy.Variable{&c.Fuzzy.Output}
	for j := range c.Fuzzy.Inputs {
		vars = append(vars, &c.Fuzzy.Inputs[j])
	}
	for _, v := range vars {
		v.Shifts = make([]float64, len(v.Labels))
		for k := range v.Shifts {
			v.Shifts[k] = rng.Float64() - 0.5
		}
	}
	return c
}

// defaultSimulator replays the embedded default trace under EASY.
func defaultSimulator(t *testing.T) *sim.Simulator {
	t.Helper()
	tr, err := datasets.Default()
	if err != nil {
		t.Fatal(err)
	}
	c, err := sim.ClusterFromTrace(tr.Meta)
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(tr, c, sim.Options{Scheduler: sim.EASY})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A renewed hgfs replays the embedded trace exactly as a new one, one
// random configuration after another on the same policy value; Renew
// reuses the policy for complete configurations and makes a new one (or
// New's error) otherwise.
func TestRenewIsNew(t *testing.T) {
	s := defaultSimulator(t)
	spec, err := policy.Lookup("hgfs")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	var old policy.Policy
	for i := range 8 {
		cfg := randomHGFS(rng, spec)
		p, err := spec.Renew(old, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if old != nil && p != old {
			t.Errorf("config %d: Renew made a new policy for a complete config", i)
		}
		fresh, err := spec.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Run(p)
		if err != nil {
			t.Fatal(err)
		}
		want, err := s.Run(fresh)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("config %d %v: renewed %d off-s %d reconfigs, new %d off-s %d reconfigs",
				i, cfg.Params, got.OffNodeSeconds, got.Reconfigurations, want.OffNodeSeconds, want.Reconfigurations)
		}
		old = p
	}

	partial := randomHGFS(rng, spec)
	delete(partial.Params, "spare")
	if p, err := spec.Renew(old, partial); err != nil || p == old {
		t.Errorf("a config without spare: Renew gave the old policy (%v) or an error %v; want a new one", p == old, err)
	}
	bad := randomHGFS(rng, spec)
	bad.Fuzzy.Output.Shifts[1] = 0.9
	_, err = spec.Renew(old, bad)
	_, want := spec.New(bad)
	if err == nil || want == nil || err.Error() != want.Error() {
		t.Errorf("an invalid shift: Renew's error %v, New's %v", err, want)
	}
}
