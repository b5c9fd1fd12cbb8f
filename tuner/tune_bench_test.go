package tuner

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/internal/testtrace"
	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
)

// BenchmarkEvaluations measures hgfs candidate evaluations per second on
// the SDSC-SP2 train split (70 % of the jobs, EASY backfilling) on 1 and 2
// cores: workers=N runs N workers with GOMAXPROCS N, so that on one core
// the garbage collector and the scheduling goroutines do not run beside
// the worker for free. Each op evaluates a batch of 64 fresh random
// candidates, as many as one generation of the default tune (2 islands of
// 32, evolved side by side) hands the workers at once.
func BenchmarkEvaluations(b *testing.B) {
	tr, err := datasets.Open(testtrace.Trace(b, "SDSC-SP2-1998-4.2-cln.swf.gz"), datasets.ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	train, _, err := holdout(tr, 0.7)
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
	prob, err := NewPolicyProblem(spec, train, c, sim.Options{Scheduler: sim.EASY}, DefaultObjectives(), nil, alwaysOnScores(b, train, c))
	if err != nil {
		b.Fatal(err)
	}
	const batch = 64
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(workers))
			pl, err := newPool(prob, workers, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer pl.close()
			rng := newRNG(1, workers, 0)
			xs := make([][]float64, batch)
			start := time.Now()
			b.ResetTimer()
			for range b.N {
				for i := range xs {
					xs[i] = make([]float64, len(prob.Vars()))
					for k, v := range prob.Vars() {
						xs[i][k] = randomValue(v, rng)
					}
				}
				if _, err := pl.evaluate(context.Background(), xs); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*batch)/time.Since(start).Seconds(), "evals/s")
		})
	}
}

func alwaysOnScores(b *testing.B, tr *datasets.Trace, c sim.Cluster) objectives.Scores {
	sc, err := scoreConfigs(tr, c, sim.Options{Scheduler: sim.EASY}, []policy.Config{{Name: AlwaysOn}}, 1)
	if err != nil {
		b.Fatal(err)
	}
	return sc[0]
}
