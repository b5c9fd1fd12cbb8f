package fuzzy

import "testing"

func BenchmarkEval(b *testing.B) {
	for _, inf := range []string{Mamdani, TSK} {
		b.Run(inf, func(b *testing.B) {
			s := grid3(inf)
			in := []float64{0.3, 0.7, 0.1}
			b.ReportAllocs()
			for b.Loop() {
				in[0] = float64(b.N%100) / 100
				s.Eval(in)
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
			in := []float64{0.3, 0.7, 0.1}
			b.ReportAllocs()
			for b.Loop() {
				in[0] = float64(b.N%100) / 100
				c.Eval(in)
			}
		})
	}
}
