package search_test

import (
	"context"
	"math"
	"testing"

	"github.com/ecotune/ecotune/tuner/search"
	"github.com/ecotune/ecotune/tuner/search/testproblems"
)

// TestStandardProblems runs NSGA-II for 25,000 evaluations (population
// 100, 250 generations) on the standard problems and compares the
// hypervolume of the archive (every non-dominated candidate evaluated)
// with the true front's.
//
// Reference points and true values:
//   - ZDT1, ref (1, 1): the front f2 = 1 − √f1 dominates
//     ∫₀¹ √f1 df1 = 2/3 of the unit square.
//   - ZDT2, ref (1, 1): f2 = 1 − f1² dominates ∫₀¹ f1² df1 = 1/3.
//   - ZDT3, ref (1, 1): no closed form; ∫₀¹ (1 − H(f1)) df1 where H is the
//     running minimum of h(f1) = 1 − √f1 − f1·sin(10π f1), numerically
//     1.044426 (TestZDT3TrueHypervolume).
//   - DTLZ2, ref (1.1, 1.1, 1.1): the box minus the octant of the unit
//     sphere, 1.1³ − π/6 = 0.807401. At ref (1, 1, 1) (true value 1 − π/6)
//     the archive reaches 96.2–96.6 % only: points on the front's edges,
//     where one objective is 1, count for nothing there, so 97 % needs
//     the slightly larger box.
//
// The first front of the final population alone cannot reach these
// figures: 100 points sample a front with a hypervolume loss of about
// 1/(2·100) of the box per objective pair (98.5 % at best on ZDT2,
// measured 77 % on DTLZ2 at ref (1, 1, 1)); the test logs it too.
func TestStandardProblems(t *testing.T) {
	tests := []struct {
		problem *testproblems.Problem
		ref     []float64
		trueHV  float64
		minFrac float64
	}{
		{testproblems.ZDT1(), []float64{1, 1}, 2.0 / 3, 0.99},
		{testproblems.ZDT2(), []float64{1, 1}, 1.0 / 3, 0.99},
		{testproblems.ZDT3(), []float64{1, 1}, 1.044426, 0.99},
		{testproblems.DTLZ2(), []float64{1.1, 1.1, 1.1}, 1.1*1.1*1.1 - math.Pi/6, 0.97},
	}
	for _, tc := range tests {
		t.Run(tc.problem.Name, func(t *testing.T) {
			t.Parallel()
			res, err := minimize(context.Background(), tc.problem, flat{Population: 100, Islands: 1, Generations: 250, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			if res.Evaluations > 25100 {
				t.Errorf("%d evaluations, want at most 25,100 (101 populations of 100, less duplicates)", res.Evaluations)
			}
			hv := search.Hypervolume(objectives(res.Archive), tc.ref)
			popHV := search.Hypervolume(objectives(res.Front()), tc.ref)
			t.Logf("%s: %d evaluations; archive of %d: HV %.5f of %.5f (%.2f %%); final population front of %d: %.2f %%",
				tc.problem.Name, res.Evaluations, len(res.Archive), hv, tc.trueHV, 100*hv/tc.trueHV, len(res.Front()), 100*popHV/tc.trueHV)
			if hv < tc.minFrac*tc.trueHV {
				t.Errorf("HV %.5f < %.0f %% of the true front's %.5f", hv, 100*tc.minFrac, tc.trueHV)
			}
		})
	}
}

// TestZDT3TrueHypervolume pins the reference value TestStandardProblems
// uses for ZDT3: the area between the front's lower envelope and 1 by the
// midpoint rule (10⁵ and 10⁶ steps agree to 1e-8), and the hypervolume of
// dense samples of the true front, which approaches it from below.
func TestZDT3TrueHypervolume(t *testing.T) {
	const n = 100000
	h := func(x float64) float64 { return 1 - math.Sqrt(x) - x*math.Sin(10*math.Pi*x) }
	env, area := math.Inf(1), 0.0
	for i := range n {
		env = math.Min(env, h((float64(i)+0.5)/n))
		area += (1 - env) / n
	}
	if math.Abs(area-1.044426) > 1e-6 {
		t.Errorf("ZDT3 true HV at ref (1, 1) = %.7f, the test uses 1.044426", area)
	}
	sampled := search.Hypervolume(testproblems.ZDT3().TrueFront(100001), []float64{1, 1})
	if sampled > area || area-sampled > 2e-5 {
		t.Errorf("HV of 100,001 front samples %.7f, want just below %.7f", sampled, area)
	}
}

func objectives(ms []search.Member) [][]float64 {
	pts := make([][]float64, len(ms))
	for i, m := range ms {
		pts[i] = m.F
	}
	return pts
}
