package fuzzy

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// reshape returns a clone of s with new random consequents and shifts
// (the tuner's changes), keeping the rules' antecedents, weights and
// values.
func reshape(rng *rand.Rand, s *System) *System {
	t := s.Clone()
	for _, v := range fuzzyVars(t) {
		switch rng.IntN(3) {
		case 0:
			v.Shifts = nil
		default:
			v.Shifts = make([]float64, len(v.Labels))
			for k := range v.Shifts {
				v.Shifts[k] = rng.Float64() - 0.5
			}
		}
	}
	for i := range t.Rules {
		r := &t.Rules[i]
		if r.Value != nil {
			r.Then = rng.IntN(2) - 1
		} else {
			r.Then = rng.IntN(len(t.Output.Labels)+1) - 1
		}
	}
	return t
}

func fuzzyVars(s *System) []*Variable {
	vs := []*Variable{&s.Output}
	for j := range s.Inputs {
		vs = append(vs, &s.Inputs[j])
	}
	return vs
}

// Recompile gives exactly what Compile gives, on random systems and
// random consequents and shifts, in chains of recompilations.
func TestRecompileIsCompile(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for range 500 {
		s := randomSystem(rng)
		c, err := s.Compile()
		if err != nil {
			t.Fatal(err)
		}
		for range 4 {
			next := reshape(rng, s)
			ok, err := c.Recompile(next)
			if !ok || err != nil {
				t.Fatalf("Recompile of the same shape: %v, %v", ok, err)
			}
			want, err := next.Compile()
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(c, want) {
				t.Fatalf("%s system, %d rules: Recompile differs from Compile", next.Inference, len(next.Rules))
			}
		}
	}
}

// Recompile refuses another shape and invalid consequents or shifts,
// leaving the compiled system as it was.
func TestRecompileRefuses(t *testing.T) {
	base := grid3(TSK)
	cases := []struct {
		name    string
		edit    func(s *System)
		wantErr string // "" = not the same shape: false, no error
	}{
		{"label renamed", func(s *System) { s.Inputs[0].Labels[1] += "x" }, ""},
		{"range changed", func(s *System) { s.Output.Max++ }, ""},
		{"antecedent changed", func(s *System) { s.Rules[3].If[0] = Any }, ""},
		{"weight changed", func(s *System) { s.Rules[3].Weight = 0.5 }, ""},
		{"rule added", func(s *System) { s.Rules = append(s.Rules, Rule{If: []int{0, 0, 0}}) }, ""},
		{"inference changed", func(s *System) { s.Inference = Mamdani }, ""},
		{"shift out of range", func(s *System) { s.Inputs[1].Shifts = []float64{0, 0.7, 0} }, "inputs[1].shifts[1]: 0.7 out of [-0.5, 0.5]"},
		{"shifts short", func(s *System) { s.Output.Shifts = []float64{0} }, "output.shifts: 1 shifts for 5 labels"},
		{"consequent out of range", func(s *System) { s.Rules[2].Then = 9 }, "rules[2].then: label 9 out of range"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := base.Compile()
			if err != nil {
				t.Fatal(err)
			}
			before, _ := base.Compile()
			s := base.Clone()
			tc.edit(s)
			ok, err := c.Recompile(s)
			switch {
			case ok:
				t.Fatal("Recompile accepted it")
			case tc.wantErr == "" && err != nil:
				t.Fatalf("error %v, want none (only false)", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
			}
			if tc.wantErr != "" {
				if _, cerr := s.Compile(); cerr == nil || cerr.Error() != err.Error() {
					t.Errorf("Recompile's error %q, Compile's %v", err, cerr)
				}
			}
			if !reflect.DeepEqual(c, before) {
				t.Error("the compiled system changed")
			}
		})
	}
}

// Recompiling one shape after another allocates nothing.
func TestRecompileDoesNotAllocate(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	s := grid3(Mamdani)
	var next []*System
	for range 8 {
		n := reshape(rng, s)
		for _, v := range fuzzyVars(n) {
			v.Shifts = make([]float64, len(v.Labels)) // always given: steady state
		}
		next = append(next, n)
	}
	c, err := next[0].Compile()
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	if a := testing.AllocsPerRun(50, func() {
		if ok, err := c.Recompile(next[i%len(next)]); !ok || err != nil {
			t.Fatal(ok, err)
		}
		i++
	}); a != 0 {
		t.Errorf("%v allocations per Recompile, want 0", a)
	}
}
