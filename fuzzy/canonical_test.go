package fuzzy

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Clearing idle shifts changes no inference, bit for bit, on random
// systems (with rules switched off at random, so that many shifts are
// idle) and inputs; and it does clear shifts.
func TestClearIdleShiftsKeepsEval(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	cleared, compared := 0, 0
	for range 3000 {
		s := randomSystem(rng)
		off := rng.Float64() // the share of rules switched off
		for i := range s.Rules {
			if rng.Float64() < off {
				s.Rules[i].Then = NoRule
			}
		}
		c := s.Clone()
		c.ClearIdleShifts()
		for _, v := range append(fuzzyVars(c), fuzzyVars(s)...) {
			if len(v.Shifts) != 0 && len(v.Shifts) != len(v.Labels) {
				t.Fatal("shifts resized")
			}
		}
		for j, v := range fuzzyVars(c) {
			for k, x := range v.Shifts {
				if x != fuzzyVars(s)[j].Shifts[k] {
					if x != 0 {
						t.Fatalf("shift changed to %v, not cleared", x)
					}
					cleared++
				}
			}
		}
		cs, err := c.Compile()
		if err != nil {
			t.Fatal(err)
		}
		in := make([]float64, len(s.Inputs))
		for range 40 {
			randomInputs(rng, s, in)
			if rng.IntN(20) == 0 {
				in[rng.IntN(len(in))] = math.NaN()
			}
			want, got, gotC := s.Eval(in), c.Eval(in), cs.Eval(in)
			if math.Float64bits(got) != math.Float64bits(want) || math.Float64bits(gotC) != math.Float64bits(want) {
				t.Fatalf("%s system, %d rules, inputs %v: %v (compiled %v) with idle shifts cleared, %v before",
					s.Inference, len(s.Rules), in, got, gotC, want)
			}
			if !math.IsNaN(want) {
				compared++
			}
		}
	}
	if cleared < 1000 || compared < 20000 {
		t.Errorf("%d shifts cleared, %d evaluations with a rule firing: the test shows little", cleared, compared)
	}
}

// Hand-worked cases on the 3 × 3 grid (TSK, 5 output labels).
func TestClearIdleShiftsCases(t *testing.T) {
	shifted := func(rules map[int]int) *System {
		s := grid3(TSK)
		for i := range s.Rules {
			s.Rules[i].Then = NoRule
		}
		for i, then := range rules {
			s.Rules[i].Then = then
		}
		for _, v := range fuzzyVars(s) {
			v.Shifts = make([]float64, len(v.Labels))
			for k := range v.Shifts {
				v.Shifts[k] = 0.25
			}
		}
		return s
	}
	q := 0.25
	cases := []struct {
		name  string
		rules map[int]int // rule index → consequent; rule i is IF a IS i/9 AND b IS i/3%3 AND c IS i%3
		want  [4][]float64
	}{
		{"every rule off", nil, [4][]float64{{0, 0, 0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}}},
		{"rule high-high-high → most", map[int]int{26: 4}, [4][]float64{{0, 0, 0, 0, q}, {0, q, q}, {0, q, q}, {0, q, q}}},
		{"rule low-medium-high → few, low-low-low → few", map[int]int{5: 1, 0: 1}, [4][]float64{{0, q, 0, 0, 0}, {q, q, 0}, {q, q, q}, {q, q, q}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := shifted(tc.rules)
			s.ClearIdleShifts()
			for i, v := range fuzzyVars(s) {
				for k, x := range v.Shifts {
					if x != tc.want[i][k] {
						t.Fatalf("%s shifts %v, want %v", v.Name, v.Shifts, tc.want[i])
					}
				}
			}
		})
	}
}
