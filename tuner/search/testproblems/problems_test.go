package testproblems

import (
	"math"
	"testing"
)

// TestOptimaLieOnTrueFronts evaluates the known Pareto-optimal decision
// vectors (ZDT: x2..n = 0; DTLZ2: x3..n = 0.5) and checks they land on the
// analytic fronts, and that a non-optimal vector lands behind them.
func TestOptimaLieOnTrueFronts(t *testing.T) {
	fronts := map[string]func(f1 float64) float64{
		"ZDT1": func(f1 float64) float64 { return 1 - math.Sqrt(f1) },
		"ZDT2": func(f1 float64) float64 { return 1 - f1*f1 },
		"ZDT3": func(f1 float64) float64 { return 1 - math.Sqrt(f1) - f1*math.Sin(10*math.Pi*f1) },
	}
	for _, p := range []*Problem{ZDT1(), ZDT2(), ZDT3()} {
		x := make([]float64, len(p.Vars()))
		f := make([]float64, 2)
		for _, a := range []float64{0, 0.25, 0.5, 1} {
			x[0] = a
			p.Evaluate(x, f)
			if want := fronts[p.Name](a); f[0] != a || math.Abs(f[1]-want) > 1e-12 {
				t.Errorf("%s at x1=%g: f = %v, want (%g, %g)", p.Name, a, f, a, want)
			}
		}
		x[1] = 1 // g = 1 + 9/29 > 1: behind the front
		p.Evaluate(x, f)
		if f[1] <= fronts[p.Name](x[0]) {
			t.Errorf("%s with x2 = 1: f2 %g not behind the front", p.Name, f[1])
		}
	}
	p := DTLZ2()
	x := make([]float64, len(p.Vars()))
	f := make([]float64, 3)
	for i := range x {
		x[i] = 0.5
	}
	for _, a := range []float64{0, 0.3, 1} {
		x[0], x[1] = a, 1-a
		p.Evaluate(x, f)
		if r := math.Sqrt(f[0]*f[0] + f[1]*f[1] + f[2]*f[2]); math.Abs(r-1) > 1e-12 {
			t.Errorf("DTLZ2 at x1=%g: |f| = %g, want 1", a, r)
		}
	}
	for _, pt := range p.TrueFront(100) {
		if r := math.Sqrt(pt[0]*pt[0] + pt[1]*pt[1] + pt[2]*pt[2]); math.Abs(r-1) > 1e-12 {
			t.Fatalf("DTLZ2 true front point %v off the unit sphere", pt)
		}
	}
}
