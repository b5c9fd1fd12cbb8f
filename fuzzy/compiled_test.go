package fuzzy

import (
	"math"
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"
)

// randomSystem is a valid System drawn from rng: 1 to 5 inputs (sometimes
// MaxInputs), 1 to 6 labels (sometimes MaxLabels) per variable, shifts on
// about half the variables (extreme ones included), 0 to 150 rules (so
// rule sets span up to three 64-bit words) with Any, NoRule, weights
// (0, 1 and in between) and, under TSK, numeric conclusions.
func randomSystem(rng *rand.Rand) *System {
	nIn := 1 + rng.IntN(5)
	if rng.IntN(10) == 0 {
		nIn = MaxInputs
	}
	s := &System{Inference: Mamdani}
	if rng.IntN(2) == 0 {
		s.Inference = TSK
	}
	for j := range nIn {
		s.Inputs = append(s.Inputs, randomVariable(rng, "in"+strconv.Itoa(j)))
	}
	s.Output = randomVariable(rng, "out")
	nRules := rng.IntN(151)
	if rng.IntN(4) == 0 && gridSize(s.Inputs) <= 300 { // a full grid
		s.Rules, nRules = Grid(s.Inputs, func([]int) int { return 0 }), 0
	}
	for range nRules {
		s.Rules = append(s.Rules, Rule{If: make([]int, nIn)})
	}
	for i := range s.Rules {
		randomizeRule(rng, s, &s.Rules[i], nRules == 0)
	}
	return s
}

// gridSize is the number of rules of the grid over inputs, or more than
// 300 once it exceeds 300.
func gridSize(inputs []Variable) int {
	n := 1
	for _, in := range inputs {
		if n *= len(in.Labels); n > 300 {
			break
		}
	}
	return n
}

func randomVariable(rng *rand.Rand, name string) Variable {
	n := 1 + rng.IntN(6)
	if rng.IntN(10) == 0 {
		n = MaxLabels
	}
	lo := (rng.Float64() - 0.5) * math.Pow(10, float64(rng.IntN(7)-3))
	v := Variable{Name: name, Min: lo, Max: lo + rng.Float64()*math.Pow(10, float64(rng.IntN(7)-3)) + 1e-9}
	for k := range n {
		v.Labels = append(v.Labels, "l"+strconv.Itoa(k))
	}
	if rng.IntN(2) == 0 {
		for range n {
			x := rng.Float64() - 0.5
			if rng.IntN(4) == 0 {
				x = 0.5 * float64(1-2*rng.IntN(2)) // neighbouring centres meet
			}
			v.Shifts = append(v.Shifts, x)
		}
	}
	return v
}

// randomizeRule sets rule r's labels (unless keepIf), conclusion and
// weight at random.
func randomizeRule(rng *rand.Rand, s *System, r *Rule, keepIf bool) {
	if !keepIf {
		for j := range r.If {
			r.If[j] = rng.IntN(len(s.Inputs[j].Labels)+1) - 1 // −1 is Any
		}
	}
	r.Then = rng.IntN(len(s.Output.Labels)+1) - 1 // −1 is NoRule
	switch rng.IntN(4) {
	case 0:
		r.Weight = rng.Float64()
	case 1:
		r.Weight = 1
	}
	if s.Inference == TSK && rng.IntN(4) == 0 {
		x := (rng.Float64() - 0.5) * 100
		r.Value, r.Then = &x, rng.IntN(2)-1
	}
}

// randomInputs fills in with values for s: inside and outside the ranges,
// on label centres, on range ends, and infinities.
func randomInputs(rng *rand.Rand, s *System, in []float64) {
	for j := range s.Inputs {
		v := &s.Inputs[j]
		switch rng.IntN(8) {
		case 0:
			in[j] = v.Center(rng.IntN(len(v.Labels)))
		case 1:
			in[j] = []float64{v.Min, v.Max, math.Inf(1), math.Inf(-1)}[rng.IntN(4)]
		default:
			w := v.Max - v.Min
			in[j] = v.Min - 0.25*w + 1.5*w*rng.Float64()
		}
	}
}

// Compiled.Eval returns the very bits System.Eval returns, on random
// systems and inputs.
func TestCompiledEvalIsEvalBitForBit(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	fired := 0
	for range 3000 {
		s := randomSystem(rng)
		if err := s.Validate(); err != nil {
			t.Fatalf("random system invalid: %v", err)
		}
		c, err := s.Compile()
		if err != nil {
			t.Fatal(err)
		}
		in := make([]float64, len(s.Inputs))
		for range 40 {
			randomInputs(rng, s, in)
			want, got := s.Eval(in), c.Eval(in)
			if math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("%s system, %d rules, inputs %v: Compiled.Eval %v (%#x); Eval %v (%#x)",
					s.Inference, len(s.Rules), in, got, math.Float64bits(got), want, math.Float64bits(want))
			}
			if !math.IsNaN(want) {
				fired++
			}
		}
	}
	if fired < 30000 {
		t.Errorf("only %d of 120000 evaluations had a rule firing: the test barely compares numbers", fired)
	}
}

// NaN inputs are outside Eval's contract, yet Compiled.Eval still agrees
// with it: a NaN membership can make a rule with a zero antecedent fire.
func TestCompiledEvalNaNInput(t *testing.T) {
	s := grid3(TSK)
	s.Rules = append(s.Rules, Rule{If: []int{Any, Any, 2}, Then: 4}) // fires with c high alone
	c, err := s.Compile()
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range [][]float64{{math.NaN(), 0.5, 1}, {0, 0.5, math.NaN()}, {math.NaN(), math.NaN(), 0}} {
		if got, want := c.Eval(in), s.Eval(in); math.IsNaN(got) != math.IsNaN(want) || (!math.IsNaN(want) && got != want) {
			t.Errorf("%v: Compiled.Eval %v; Eval %v", in, got, want)
		}
	}
}

func TestCompileRejectsInvalid(t *testing.T) {
	s := grid3(TSK)
	s.Rules[4].If[2] = 7
	if _, err := s.Compile(); err == nil {
		t.Fatal("Compile accepted a rule on label 7 of a 3-label input")
	}
}

// A Compiled keeps its own copy: changing the System afterwards changes
// nothing.
func TestCompiledIsACopy(t *testing.T) {
	s := grid3(Mamdani)
	c, err := s.Compile()
	if err != nil {
		t.Fatal(err)
	}
	in := []float64{0.3, 0.7, 0.1}
	want := s.Eval(in)
	s.Rules[13].Then, s.Rules[13].If[0] = 0, 2
	s.Inputs[0].Shifts = []float64{0.5, 0.5, 0}
	s.Output.Max, s.Output.Labels[0] = 9, "gone"
	if got := c.Eval(in); got != want {
		t.Errorf("after changing the System, Compiled.Eval %v; want %v", got, want)
	}
}

func TestCompiledEvalDoesNotAllocate(t *testing.T) {
	for _, inf := range []string{Mamdani, TSK} {
		c, err := grid3(inf).Compile()
		if err != nil {
			t.Fatal(err)
		}
		in := []float64{0.3, 0.7, 0.1}
		if a := testing.AllocsPerRun(100, func() { c.Eval(in) }); a != 0 {
			t.Errorf("%s: %v allocations per Compiled.Eval", inf, a)
		}
	}
}

// Goroutines sharing one Compiled get the answers of a lone caller (run
// with -race to check for data races too).
func TestCompiledEvalConcurrent(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	s := randomSystem(rng)
	c, err := s.Compile()
	if err != nil {
		t.Fatal(err)
	}
	inputs := make([][]float64, 200)
	for i := range inputs {
		inputs[i] = make([]float64, len(s.Inputs))
		randomInputs(rng, s, inputs[i])
	}
	var wg sync.WaitGroup
	errs := make(chan string, 4)
	for range 4 {
		wg.Go(func() {
			for _, in := range inputs {
				if got, want := c.Eval(in), s.Eval(in); math.Float64bits(got) != math.Float64bits(want) {
					errs <- "Compiled.Eval differs from Eval under concurrency"
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}

func FuzzCompiledEval(f *testing.F) {
	f.Add(uint64(1), 0.3, 0.7, 0.1)
	f.Add(uint64(42), -5.0, 0.5, 1e9)
	f.Add(uint64(7), 0.0, 1.0, 0.5)
	f.Fuzz(func(t *testing.T, seed uint64, x0, x1, x2 float64) {
		s := randomSystem(rand.New(rand.NewPCG(seed, 1)))
		c, err := s.Compile()
		if err != nil {
			t.Fatal(err)
		}
		in := make([]float64, len(s.Inputs))
		for j := range in {
			in[j] = []float64{x0, x1, x2}[j%3]
		}
		want, got := s.Eval(in), c.Eval(in)
		if math.IsNaN(want) && math.IsNaN(got) {
			return // NaN inputs: both NaN is agreement (payloads aside)
		}
		if math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("inputs %v: Compiled.Eval %v; Eval %v", in, got, want)
		}
	})
}
