package fuzzy

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

func lmh(name string, lo, hi float64) Variable {
	return Variable{Name: name, Min: lo, Max: hi, Labels: []string{"low", "mid", "high"}}
}

func TestMembership(t *testing.T) {
	shifted := lmh("x", 0, 10)
	shifted.Shifts = []float64{0, 0.2, 0} // mid centre 5 + 0.2·5 = 6
	tests := []struct {
		name string
		v    Variable
		x    float64
		want [3]float64
	}{
		{"left shoulder", lmh("x", 0, 10), -3, [3]float64{1, 0, 0}},
		{"at low", lmh("x", 0, 10), 0, [3]float64{1, 0, 0}},
		{"2 of 5", lmh("x", 0, 10), 2, [3]float64{0.6, 0.4, 0}},
		{"at mid", lmh("x", 0, 10), 5, [3]float64{0, 1, 0}},
		{"8", lmh("x", 0, 10), 8, [3]float64{0, 0.4, 0.6}},
		{"right shoulder", lmh("x", 0, 10), 12, [3]float64{0, 0, 1}},
		{"shifted 2: (6-2)/6", shifted, 2, [3]float64{4.0 / 6, 2.0 / 6, 0}},
		{"shifted 8: (10-8)/4", shifted, 8, [3]float64{0, 0.5, 0.5}},
	}
	for _, tt := range tests {
		var c, mu [MaxLabels]float64
		tt.v.centers(&c)
		memberships(&c, 3, tt.x, &mu)
		for k := range 3 {
			if got := tt.v.Membership(k, tt.x); math.Abs(got-tt.want[k]) > 1e-12 || math.Abs(mu[k]-tt.want[k]) > 1e-12 {
				t.Errorf("%s: μ_%d(%v) = %v (table %v); want %v", tt.name, k, tt.x, got, mu[k], tt.want[k])
			}
		}
	}
}

// Strong partition: memberships sum to 1 everywhere, also with extreme
// shifts that make two centres meet.
func TestStrongPartition(t *testing.T) {
	v := Variable{Name: "x", Min: -1, Max: 3, Labels: []string{"a", "b", "c", "d", "e"}, Shifts: []float64{-0.5, 0.5, -0.5, 0.3, 0.5}}
	for x := -2.0; x <= 4; x += 0.01 {
		sum := 0.0
		for k := range v.Labels {
			sum += v.Membership(k, x)
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Fatalf("Σμ(%v) = %v", x, sum)
		}
	}
}

// oneInput: IF x IS low THEN y IS low; IF x IS mid THEN y IS high;
// IF x IS high THEN y IS mid, with y in [0, 100] (centres 0, 50, 100).
func oneInput(inference string) *System {
	return &System{
		Inputs:    []Variable{lmh("x", 0, 10)},
		Output:    lmh("y", 0, 100),
		Rules:     []Rule{{If: []int{0}, Then: 0}, {If: []int{1}, Then: 2}, {If: []int{2}, Then: 1}},
		Inference: inference,
	}
}

func TestEval(t *testing.T) {
	withAny := oneInput(TSK)
	withAny.Rules = append(withAny.Rules, Rule{If: []int{Any}, Then: 1, Weight: 0.5})
	numeric := oneInput(TSK)
	v := 20.0
	numeric.Rules[1].Value, numeric.Rules[1].Then = &v, 0
	off := oneInput(TSK)
	off.Rules[0].Then, off.Rules[1].Then = NoRule, NoRule
	tests := []struct {
		name string
		s    *System
		x    float64
		want float64
		tol  float64
	}{
		// x=2: low 0.6, mid 0.4: (0.6·0 + 0.4·100) / 1 = 40.
		{"tsk", oneInput(TSK), 2, 40, 1e-12},
		// x=2 with IF x IS mid THEN y = 20: 0.6·0 + 0.4·20 = 8.
		{"tsk numeric", numeric, 2, 8, 1e-12},
		// x=8: mid 0.4 → 100, high 0.6 → 50: (40 + 30) / 1 = 70.
		{"tsk 8", oneInput(TSK), 8, 70, 1e-12},
		// plus IF ANY THEN y IS mid WITH 0.5: (0 + 40 + 0.5·50) / 1.5 = 43.33…
		{"tsk any weight", withAny, 2, 65.0 / 1.5, 1e-12},
		// x=2: low clipped at 0.6, high clipped at 0.4. Exact centroid:
		// areas 12 + 9 + 4 + 12 = 37, moments 120 + 270 + 253.33 + 1020
		// = 1663.33, centroid 44.955; the 201-point grid is within 0.1.
		{"mamdani", oneInput(Mamdani), 2, 1663.3333333 / 37, 0.01},
		// x=0: only low fires, alone: the set 1−y/50 on [0,50]: centroid 50/3.
		{"mamdani single", oneInput(Mamdani), 0, 50.0 / 3, 0.01},
		// x=1: only the switched-off rules fire: no output.
		{"no rule fires", off, 1, math.NaN(), 0},
	}
	for _, tt := range tests {
		if err := tt.s.Validate(); err != nil {
			t.Fatal(err)
		}
		got := tt.s.Eval([]float64{tt.x})
		if math.IsNaN(tt.want) != math.IsNaN(got) || math.Abs(got-tt.want) > tt.tol {
			t.Errorf("%s: Eval(%v) = %v; want %v", tt.name, tt.x, got, tt.want)
		}
	}
}

func TestEvalDoesNotAllocate(t *testing.T) {
	for _, inf := range []string{Mamdani, TSK} {
		s := grid3(inf)
		in := []float64{0.3, 0.7, 0.1}
		if a := testing.AllocsPerRun(100, func() { s.Eval(in) }); a != 0 {
			t.Errorf("%s: %v allocations per Eval", inf, a)
		}
	}
}

// grid3 is a 3-input, 27-rule system over [0, 1] inputs.
func grid3(inference string) *System {
	in := []Variable{lmh("a", 0, 1), lmh("b", 0, 1), lmh("c", 0, 1)}
	out := Variable{Name: "out", Unit: "slots", Min: 0, Max: 1, Labels: []string{"none", "few", "some", "many", "most"}}
	return &System{Inputs: in, Output: out, Inference: inference,
		Rules: Grid(in, func(l []int) int { return min(4, l[0]+l[1]+l[2]) })}
}

func TestRuleTextRoundTrip(t *testing.T) {
	s := grid3(TSK)
	s.Rules = append(s.Rules,
		Rule{If: []int{Any, 2, Any}, Then: 1, Weight: 0.25},
		Rule{If: []int{Any, Any, Any}, Then: NoRule},
		Rule{If: []int{1, Any, 0}, Then: NoRule, Weight: 1},
		Rule{If: []int{2, 0, Any}, Value: &[]float64{-2.5}[0]},
	)
	for _, r := range s.Rules {
		text := s.RuleText(r)
		got, err := s.ParseRule(text)
		if err != nil {
			t.Fatal(err)
		}
		want := r
		if want.Weight == 1 {
			want.Weight = 0
		}
		if s.RuleText(got) != text || got.Then != want.Then || got.Weight != want.Weight || len(got.If) != len(want.If) ||
			(got.Value == nil) != (want.Value == nil) || (got.Value != nil && *got.Value != *want.Value) {
			t.Fatalf("%q parsed as %+v", text, got)
		}
		for j := range got.If {
			if got.If[j] != want.If[j] {
				t.Fatalf("%q parsed as %+v", text, got)
			}
		}
	}
	if got := s.RuleText(s.Rules[len(s.Rules)-4]); got != "IF b IS high THEN out IS few WITH 0.25" {
		t.Errorf("text %q", got)
	}
	if got := s.RuleText(s.Rules[len(s.Rules)-1]); got != "IF a IS high AND b IS low THEN out = -2.5" {
		t.Errorf("text %q", got)
	}
	if got := s.RuleText(s.Rules[len(s.Rules)-3]); got != "IF ANY THEN NONE" {
		t.Errorf("text %q", got)
	}
}

func TestParseRuleErrors(t *testing.T) {
	s := grid3(Mamdani)
	tsk := grid3(TSK)
	if _, err := tsk.ParseRule("IF a IS low THEN out = x"); err == nil || !strings.Contains(err.Error(), "want a finite number after =") {
		t.Errorf("bad number: %v", err)
	}
	tests := []struct{ text, want string }{
		{"", "want IF, got end of text"},
		{"IF a IS low", "want AND or THEN, got end of text"},
		{"IF z IS low THEN out IS few", `want an input variable, got "z"`},
		{"IF a IS huge THEN out IS few", `want a label of a, got "huge"`},
		{"IF a IS low AND a IS mid THEN out IS few", "a appears twice"},
		{"IF a IS low THEN out IS plenty", `want a label of out, got "plenty"`},
		{"IF a IS low THEN out IS few WITH 2", "weight must be a number in [0, 1]"},
		{"IF a IS low THEN out = 1", `a numeric consequent needs "tsk" inference`},
		{"IF a IS low THEN out IN few", `want IS or =, got "IN"`},
		{"IF a IS low THEN out IS few extra", `want WITH or end of text, got "extra"`},
		{"if a is low then NONE with 0.5 x", `want end of text, got "x"`},
	}
	for _, tt := range tests {
		if _, err := s.ParseRule(tt.text); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %v; want %q", tt.text, err, tt.want)
		}
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(s *System)
		want   string
	}{
		{"ok", func(*System) {}, ""},
		{"shift", func(s *System) { s.Inputs[1].Shifts = []float64{0, 0, 0.7} }, "inputs[1].shifts[2]: 0.7 out of [-0.5, 0.5]"},
		{"shift count", func(s *System) { s.Output.Shifts = []float64{0} }, "output.shifts: 1 shifts for 5 labels"},
		{"range", func(s *System) { s.Inputs[0].Max = 0 }, "inputs[0].max: range [0, 0] is empty"},
		{"dup name", func(s *System) { s.Inputs[2].Name = "a" }, `inputs[2].name: "a" used twice`},
		{"keyword", func(s *System) { s.Output.Name = "then" }, `output.name: "then" is a keyword`},
		{"bad name", func(s *System) { s.Inputs[0].Name = "9x" }, `inputs[0].name: "9x" is not a name`},
		{"if range", func(s *System) { s.Rules[3].If[1] = 3 }, "rules[3].if[1]: label 3 out of range"},
		{"if count", func(s *System) { s.Rules[0].If = []int{0} }, "rules[0].if: 1 labels for 3 inputs"},
		{"then", func(s *System) { s.Rules[5].Then = 5 }, "rules[5].then: label 5 out of range"},
		{"weight", func(s *System) { s.Rules[0].Weight = math.NaN() }, "rules[0].weight: NaN out of [0, 1]"},
		{"inference", func(s *System) { s.Inference = "sugeno" }, `inference: "sugeno"`},
		{"value on mamdani", func(s *System) { s.Rules[2].Value = new(float64) }, `rules[2].value: a numeric consequent needs "tsk"`},
		{"value then", func(s *System) { s.Inference = TSK; s.Rules[2].Value, s.Rules[2].Then = new(float64), 3 }, "rules[2].then: 3 with a numeric value"},
	}
	for _, tt := range tests {
		s := grid3(Mamdani)
		tt.mutate(s)
		err := s.Validate()
		if (tt.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%s: %v; want %q", tt.name, err, tt.want)
		}
	}
}

func TestJSONRoundTripAndClone(t *testing.T) {
	s := grid3(Mamdani)
	s.Inputs[0].Shifts = []float64{0.1, -0.2, 0.3}
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	c := s.Clone()
	c.Rules[0].If[0] = 2
	c.Inputs[0].Shifts[0] = 0
	if s.Rules[0].If[0] != 0 || s.Inputs[0].Shifts[0] != 0.1 {
		t.Error("Clone shares memory with the original")
	}
	for _, x := range []float64{0, 0.2, 0.5, 0.9} {
		in := []float64{x, 1 - x, x / 2}
		if back.Eval(in) != s.Eval(in) {
			t.Errorf("decoded system evaluates differently at %v", in)
		}
	}
	n := grid3(TSK)
	n.Rules[0].Value = &[]float64{0.5}[0]
	*n.Clone().Rules[0].Value = 9
	if *n.Rules[0].Value != 0.5 {
		t.Error("Clone shares a rule's value")
	}
	if _, err := Decode([]byte(`{"inputs":[],"bogus":1}`)); err == nil {
		t.Error("unknown field accepted")
	}
}

func FuzzParseRule(f *testing.F) {
	s := grid3(TSK)
	f.Add("IF a IS low AND b IS high THEN out IS few")
	f.Add("IF ANY THEN NONE WITH 0.5")
	f.Add("if c is mid then out is most")
	f.Add("IF b IS mid THEN out = 0.75 WITH 0.5")
	f.Fuzz(func(t *testing.T, text string) {
		r, err := s.ParseRule(text)
		if err != nil {
			return
		}
		s2 := *s
		s2.Rules = []Rule{r}
		if err := s2.Validate(); err != nil {
			t.Fatalf("%q parsed into an invalid rule: %v", text, err)
		}
		back, err := s.ParseRule(s.RuleText(r))
		if err != nil || s.RuleText(back) != s.RuleText(r) {
			t.Fatalf("%q: text %q does not round-trip: %v", text, s.RuleText(r), err)
		}
	})
}

// The one-pass centroid equals the direct definition
// Σ y·max_k min(α_k, μ_k(y)) / Σ max_k min(α_k, μ_k(y)) (trapezoid weights)
// on random partitions and clip levels.
func TestCentroidMatchesDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 500 {
		n := 1 + rng.IntN(7)
		v := Variable{Name: "y", Min: -rng.Float64(), Max: 1 + rng.Float64(), Labels: make([]string, n), Shifts: make([]float64, n)}
		var alpha [MaxLabels]float64
		for k := range n {
			v.Labels[k] = "l" + strconv.Itoa(k)
			v.Shifts[k] = rng.Float64() - 0.5
			if rng.IntN(3) > 0 {
				alpha[k] = rng.Float64()
			}
		}
		alpha[rng.IntN(n)] = 0.5 // something fires
		var c [MaxLabels]float64
		v.centers(&c)
		num, den := 0.0, 0.0
		for i := range CentroidGrid {
			y := v.Min + (v.Max-v.Min)*float64(i)/(CentroidGrid-1)
			m := 0.0
			for k := range n {
				m = max(m, min(alpha[k], v.Membership(k, y)))
			}
			if i == 0 || i == CentroidGrid-1 {
				m /= 2
			}
			num += y * m
			den += m
		}
		if got, want := centroid(&v, &c, &alpha), num/den; math.Abs(got-want) > 1e-9 {
			t.Fatalf("%+v α %v: centroid %v; definition %v", v, alpha[:n], got, want)
		}
	}
}
