package policy_test

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/ecotune/ecotune/fuzzy"
	"github.com/ecotune/ecotune/policy"
)

// An hgfs config and its canonical form replay the embedded trace alike,
// on random configs with drain off half the time and a random share of
// the rules off (so that shifts are idle); the canonical form does change
// the config (drain_gap, shifts) and leaves the original alone.
func TestHGFSCanonicalDecidesAlike(t *testing.T) {
	s := defaultSimulator(t)
	spec, err := policy.Lookup("hgfs")
	if err != nil {
		t.Fatal(err)
	}
	lead, _ := spec.Param("drain_lead")
	rng := rand.New(rand.NewPCG(7, 8))
	changed := 0
	for i := range 10 {
		c := randomHGFS(rng, spec)
		if i%2 == 0 {
			c.Params["drain_lead"] = lead.Max
		}
		off := rng.Float64()
		if i < 2 {
			off = 1 // every rule off: every shift idle
		}
		for r := range c.Fuzzy.Rules {
			if rng.Float64() < off {
				c.Fuzzy.Rules[r].Then = fuzzy.NoRule
			}
		}
		before := c.Fuzzy.Clone()
		canon := spec.Canonical(c)
		if !reflect.DeepEqual(c.Fuzzy, before) {
			t.Fatal("Canonical changed its argument's rule base")
		}
		if !reflect.DeepEqual(canon, c) {
			changed++
		}
		if again := spec.Canonical(canon); !reflect.DeepEqual(again, canon) {
			t.Errorf("config %d: the canonical form is not its own", i)
		}
		p, err := spec.New(c)
		if err != nil {
			t.Fatal(err)
		}
		q, err := spec.New(canon)
		if err != nil {
			t.Fatal(err)
		}
		want, err := s.Run(p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.Run(q)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("config %d %v: canonical %d off-s %d reconfigs, original %d off-s %d reconfigs",
				i, c.Params, got.OffNodeSeconds, got.Reconfigurations, want.OffNodeSeconds, want.Reconfigurations)
		}
	}
	if changed < 5 { // at least the five with drain off
		t.Errorf("Canonical changed %d configs of 10: the test compares little", changed)
	}
}
