package scoring

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/internal/testtrace"
	"github.com/ecotune/ecotune/policy"
	rundir "github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/sim"
	"github.com/ecotune/ecotune/tuner/search"
)

func thinRelative() Robust {
	return Robust{Windows: 4, Thin: 0.8, Relative: true, Aggregate: AggregateCVaR}
}

// robustProblem is the hgfs problem of tr's train split (70 %, EASY) with
// robust evaluation r, seed 1, its screening front from a population of
// 32, as Tune makes it.
func robustProblem(b *testing.B, tr *datasets.Trace, r Robust) *PolicyProblem {
	ctx := context.Background()
	train, test, err := rundir.Holdout(0.7).Apply(tr)
	if err != nil {
		b.Fatal(err)
	}
	c, err := sim.ClusterFromTrace(tr.Meta)
	if err != nil {
		b.Fatal(err)
	}
	spec, err := policy.Lookup("hgfs")
	if err != nil {
		b.Fatal(err)
	}
	opt := sim.Options{Scheduler: sim.EASY}
	sc := NewScorer(c, opt, 1)
	b.Cleanup(sc.Close)
	refs, err := References(ctx, sc, train, test)
	if err != nil {
		b.Fatal(err)
	}
	r, err = NormalizeRobust(r)
	if err != nil {
		b.Fatal(err)
	}
	re, err := NewRobustEval(ctx, r, 1, sc, train, refs)
	if err != nil {
		b.Fatal(err)
	}
	prob, err := NewRobustPolicyProblem(ctx, re, sc, 32, false, spec, train, c, opt, DefaultObjectives(), nil, refs[AlwaysOn].Train)
	if err != nil {
		b.Fatal(err)
	}
	return prob
}

// benchEvaluator evaluates ev on 16 random candidates of prob (the
// tuner's BenchmarkEvaluate's), cycling: once each to warm every buffer
// up, then b.N times, reporting allocations.
func benchEvaluator(b *testing.B, prob *PolicyProblem, ev search.Evaluator) {
	rng := rand.New(rand.NewPCG(1, search.SplitMix64(0)))
	xs := make([][]float64, 16)
	for i := range xs {
		xs[i] = make([]float64, len(prob.Vars()))
		for k, v := range prob.Vars() {
			xs[i][k] = v.Random(rng)
		}
	}
	f := make([]float64, len(prob.Objectives()))
	for _, x := range xs { // warm up: every buffer at its size
		if _, err := ev.Evaluate(x, f); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if _, err := ev.Evaluate(xs[i%len(xs)], f); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
}

// BenchmarkEvaluateRobust is tuner's BenchmarkEvaluate's hgfs evaluation with
// robust replays (SDSC-SP2 train split, EASY, seed 1) — DefaultRobust,
// and the thinned-relative settings (4 windows, each as logged and
// thinned to 0.8, relative qos_p90) — on one evaluator cycling over the
// same 16 random candidates: ns/op over BenchmarkEvaluate's is what
// robustness costs a candidate, "promoted" the fraction of candidates
// replayed past the screening window.
func BenchmarkEvaluateRobust(b *testing.B) {
	tr, err := datasets.Open(testtrace.Trace(b, "SDSC-SP2-1998-4.2-cln.swf.gz"), datasets.ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name   string
		robust Robust
	}{{"default", DefaultRobust()}, {"thin-relative", thinRelative()}} {
		b.Run(bc.name, func(b *testing.B) {
			prob := robustProblem(b, tr, bc.robust)
			ev, err := prob.NewEvaluator()
			if err != nil {
				b.Fatal(err)
			}
			benchEvaluator(b, prob, ev)
			re := ev.(*robustEvaluator)
			b.ReportMetric(float64(re.promoted)/float64(re.evaluated), "promoted")
		})
	}
}
