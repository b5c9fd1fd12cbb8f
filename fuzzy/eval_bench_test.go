package fuzzy

import (
	"math/rand/v2"
	"testing"
)

// benchInputs are 256 points of [0, 1]³, drawn once, for the benchmarks
// to cycle through (one fixed point would let the branch predictor learn
// it).
func benchInputs() [][]float64 {
	rng := rand.New(rand.NewPCG(1, 2))
	in := make([][]float64, 256)
	for i := range in {
		in[i] = []float64{rng.Float64(), rng.Float64(), rng.Float64()}
	}
	return in
}

// BenchmarkEval evaluates the 27-rule grid of 3 inputs.
func BenchmarkEval(b *testing.B) {
	for _, inf := range []string{Mamdani, TSK} {
		b.Run(inf, func(b *testing.B) {
			s := grid3(inf)
			in := benchInputs()
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				s.Eval(in[i%len(in)])
				i++
			}
		})
	}
}

// BenchmarkCompiledEval is BenchmarkEval on the compiled System.
func BenchmarkCompiledEval(b *testing.B) {
	for _, inf := range []string{Mamdani, TSK} {
		b.Run(inf, func(b *testing.B) {
			c, err := grid3(inf).Compile()
			if err != nil {
				b.Fatal(err)
			}
			in := benchInputs()
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				c.Eval(in[i%len(in)])
				i++
			}
		})
	}
}
