package scoring

import (
	"math"
	"reflect"
	"testing"

	"github.com/ecotune/ecotune/fuzzy"
	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
)

func hgfsProblem(t *testing.T) *PolicyProblem {
	t.Helper()
	spec, err := policy.Lookup("hgfs")
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPolicyProblem(spec, nil, sim.Cluster{}, sim.Options{}, nil, nil, objectives.Scores{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestHGFSEncoding checks the genetic-fuzzy chromosome: the declared
// parameters, one categorical gene per template rule (output labels + 1
// for "rule off"), one shift per label, and Config∘Encode = identity.
func TestHGFSEncoding(t *testing.T) {
	p := hgfsProblem(t)
	spec, tmpl := p.Spec, p.Spec.Fuzzy
	labels := len(tmpl.Output.Labels)
	for _, in := range tmpl.Inputs {
		labels += len(in.Labels)
	}
	if want := len(spec.Params) + len(tmpl.Rules) + labels; len(p.Vars()) != want {
		t.Fatalf("%d variables, want %d params + %d rules + %d labels", len(p.Vars()), len(spec.Params), len(tmpl.Rules), labels)
	}
	rule := p.Vars()[len(spec.Params)]
	if rule.Levels != len(tmpl.Output.Labels)+1 {
		t.Errorf("rule gene has %d levels, want %d", rule.Levels, len(tmpl.Output.Labels)+1)
	}

	// A candidate with the first rule off, the second concluding label 2,
	// and a shift on the output's first label.
	x := p.Encode(spec.Fill(policy.Config{Name: "hgfs"}))
	x[len(spec.Params)] = 0
	x[len(spec.Params)+1] = 3
	x[len(x)-len(tmpl.Output.Labels)] = -0.25
	c := p.Config(x)
	if c.Fuzzy.Rules[0].Then != fuzzy.NoRule || c.Fuzzy.Rules[1].Then != 2 {
		t.Errorf("rules 0, 1 conclude %d, %d; want NoRule, 2", c.Fuzzy.Rules[0].Then, c.Fuzzy.Rules[1].Then)
	}
	if c.Fuzzy.Output.Shifts[0] != -0.25 {
		t.Errorf("output shift %g, want -0.25", c.Fuzzy.Output.Shifts[0])
	}
	if !reflect.DeepEqual(p.Encode(c), x) {
		t.Error("Encode(Config(x)) != x")
	}
	if err := spec.Check(c); err != nil {
		t.Errorf("decoded config fails the policy's check: %v", err)
	}
	if _, err := policy.New(c); err != nil {
		t.Errorf("policy.New: %v", err)
	}
	if tmpl.Rules[0].Then == fuzzy.NoRule {
		t.Error("template changed by decoding")
	}

	seeds := p.Seeds()
	if want := 2 + len(spec.Seeds); len(seeds) != want {
		t.Fatalf("%d seeds, want %d: the defaults, the crisp policy and the policy's own", len(seeds), want)
	}
	for i, c := range spec.Seeds {
		if got := p.Config(seeds[2+i]); !reflect.DeepEqual(got.Params, c.Params) {
			t.Errorf("declared seed %d decodes to %v, want %v", i, got.Params, c.Params)
		}
	}
	for _, r := range p.Config(seeds[1]).Fuzzy.Rules {
		if r.Then != fuzzy.NoRule {
			t.Fatalf("crisp seed has rule %v on", r)
		}
	}
	if !reflect.DeepEqual(p.Config(seeds[0]).Fuzzy.Rules, tmpl.Rules) {
		t.Error("default seed's rules differ from the template's")
	}
}

// TestPolicyProblemVars maps declared parameters one to one.
func TestPolicyProblemVars(t *testing.T) {
	for _, spec := range policy.All() {
		if len(spec.Params) == 0 && spec.Fuzzy == nil {
			continue
		}
		p, err := NewPolicyProblem(spec, nil, sim.Cluster{}, sim.Options{}, nil, nil, objectives.Scores{})
		if err != nil {
			t.Errorf("%s: %v", spec.Name, err)
			continue
		}
		for i, prm := range spec.Params {
			v := p.Vars()[i]
			if v.Name != prm.Name || v.Min != prm.Min || v.Max != prm.Max || v.Integer != prm.Integer {
				t.Errorf("%s: variable %+v for parameter %+v", spec.Name, v, prm)
			}
		}
		// Defaults survive the round trip through search coordinates.
		x := p.Encode(spec.Fill(policy.Config{Name: spec.Name}))
		for i, v := range p.Vars()[:len(spec.Params)] {
			if y := v.Repair(x[i]); math.Abs(y-x[i]) > 1e-9*math.Max(1, math.Abs(x[i])) {
				t.Errorf("%s: default %s = %g comes back as %g", spec.Name, v.Name, x[i], y)
			}
		}
	}
}

// Parameters counted in nodes are searched up to the cluster's nodes at
// most: idle-timeout's spare (0–256) and max_booting (0–1024) on 128
// nodes, and nothing changes on a cluster larger than their ranges.
func TestPolicyProblemNodeParams(t *testing.T) {
	spec, err := policy.Lookup("idle-timeout")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		nodes                int
		wantSpare, wantBoots float64
	}{{128, 128, 128}, {512, 256, 512}, {4096, 256, 1024}} {
		c := sim.Cluster{Groups: []sim.NodeGroup{{Name: "node", Count: tc.nodes, Slots: 1, Model: sim.ESCS}}}
		p, err := NewPolicyProblem(spec, nil, c, sim.Options{}, nil, nil, objectives.Scores{})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]float64{}
		for _, v := range p.Vars() {
			got[v.Name] = v.Max
		}
		if got["spare"] != tc.wantSpare || got["max_booting"] != tc.wantBoots || got["idle_timeout"] != 86400 {
			t.Errorf("%d nodes: maxima %v, want spare %g, max_booting %g, idle_timeout 86400", tc.nodes, got, tc.wantSpare, tc.wantBoots)
		}
	}
}
