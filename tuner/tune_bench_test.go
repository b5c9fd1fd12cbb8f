package tuner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/internal/testtrace"
	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
	"github.com/ecotune/ecotune/tuner/scoring"
	"github.com/ecotune/ecotune/tuner/search"
)

// BenchmarkEvaluations measures hgfs candidate evaluations per second on
// the SDSC-SP2 train split (70 % of the jobs, EASY backfilling) on 1 and 2
// cores: workers=N runs N workers with GOMAXPROCS N, so that on one core
// the garbage collector and the scheduling goroutines do not run beside
// the worker for free. Each op evaluates a batch of 64 fresh random
// candidates, as many as one generation of the default tune (2 islands of
// 32, evolved side by side) hands the workers at once.
func BenchmarkEvaluations(b *testing.B) {
	prob := sdscProblem(b)
	const batch = 64
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(workers))
			ws := search.NewWorkers(workers)
			defer ws.Close()
			evs := make([]search.Evaluator, workers)
			fs := make([][]float64, workers)
			for w := range evs {
				ev, err := prob.NewEvaluator()
				if err != nil {
					b.Fatal(err)
				}
				evs[w], fs[w] = ev, make([]float64, len(prob.Objectives()))
			}
			rng := rand.New(rand.NewPCG(1, search.SplitMix64(uint64(workers)<<32)))
			xs := make([][]float64, batch)
			start := time.Now()
			b.ResetTimer()
			for range b.N {
				for i := range xs {
					xs[i] = make([]float64, len(prob.Vars()))
					for k, v := range prob.Vars() {
						xs[i][k] = v.Random(rng)
					}
				}
				errs := make([]error, len(xs))
				if _, err := ws.Run(context.Background(), len(xs), func(w, i int) { _, errs[i] = evs[w].Evaluate(xs[i], fs[w]) }); err != nil {
					b.Fatal(err)
				}
				if err := errors.Join(errs...); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*batch)/time.Since(start).Seconds(), "evals/s")
		})
	}
}

// openSP2 reads the SDSC-SP2 log of ../shared.
func openSP2(tb testing.TB) *datasets.Trace {
	tb.Helper()
	tr, err := datasets.Open(testtrace.Trace(tb, "SDSC-SP2-1998-4.2-cln.swf.gz"), datasets.ReadOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	return tr
}

// sdscProblem is the hgfs problem of the SDSC-SP2 train split (70 % of
// the jobs, EASY backfilling), as `ecotune tune` on that trace makes it.
func sdscProblem(b *testing.B) *scoring.PolicyProblem {
	tr := openSP2(b)
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
	prob, err := scoring.NewPolicyProblem(spec, train, c, sim.Options{Scheduler: sim.EASY}, scoring.DefaultObjectives(), nil, alwaysOnScores(b, train, c))
	if err != nil {
		b.Fatal(err)
	}
	return prob
}

// randomCandidates are n random candidates of prob from seed.
func randomCandidates(prob *scoring.PolicyProblem, n int, seed int64) [][]float64 {
	rng := rand.New(rand.NewPCG(uint64(seed), search.SplitMix64(0)))
	xs := make([][]float64, n)
	for i := range xs {
		xs[i] = make([]float64, len(prob.Vars()))
		for k, v := range prob.Vars() {
			xs[i][k] = v.Random(rng)
		}
	}
	return xs
}

// BenchmarkEvaluate is one hgfs evaluation (decode, policy, replay of the
// SDSC-SP2 train split under EASY, scores) on one evaluator, cycling over
// 16 random candidates: allocs/op are the allocations of one evaluation
// in steady state, which should be none.
func BenchmarkEvaluate(b *testing.B) {
	prob := sdscProblem(b)
	ev, err := prob.NewEvaluator()
	if err != nil {
		b.Fatal(err)
	}
	benchEvaluator(b, prob, ev)
}

// benchEvaluator evaluates ev on 16 random candidates of prob, cycling:
// once each to warm every buffer up, then b.N times, reporting
// allocations.
func benchEvaluator(b *testing.B, prob *scoring.PolicyProblem, ev search.Evaluator) {
	xs := randomCandidates(prob, 16, 1)
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

// BenchmarkScorer is the scoring service alone: each op replays a batch
// of 64 random hgfs configs (one generation of the default tune) on the
// SDSC-SP2 train split with a Scorer of GOMAXPROCS workers; run it with
// -cpu 1,2 for the speed-up from one core to two.
func BenchmarkScorer(b *testing.B) {
	prob := sdscProblem(b)
	xs := randomCandidates(prob, 64, 2)
	tasks := make([]scoring.ScoreTask, len(xs))
	for i, x := range xs {
		tasks[i] = scoring.ScoreTask{Trace: prob.Trace, Config: prob.Config(x)}
	}
	sc := scoring.NewScorer(prob.Cluster, prob.Options, 0)
	defer sc.Close()
	benchReplay(b, sc, tasks)
	b.ReportMetric(float64(b.N*len(tasks))/b.Elapsed().Seconds(), "evals/s")
}

// benchReplay replays tasks on sc once to warm every buffer up, then b.N
// times, reporting allocations.
func benchReplay(b *testing.B, sc *scoring.Scorer, tasks []scoring.ScoreTask) {
	keep := func(int, *sim.Result) error { return nil }
	if err := sc.Replay(context.Background(), tasks, keep); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if err := sc.Replay(context.Background(), tasks, keep); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
}

func alwaysOnScores(b *testing.B, tr *datasets.Trace, c sim.Cluster) objectives.Scores {
	scorer := scoring.NewScorer(c, sim.Options{Scheduler: sim.EASY}, 1)
	defer scorer.Close()
	sc, err := scorer.ScoreConfigs(context.Background(), tr, []policy.Config{{Name: scoring.AlwaysOn}})
	if err != nil {
		b.Fatal(err)
	}
	return sc[0]
}

// BenchmarkReplayTuned replays, on one worker, 16 candidates that a tune
// evaluated on the SDSC-SP2 train split under EASY (tunedSample). A
// tune's candidates cost more than random ones (BenchmarkEvaluate): more
// of them drain, and they switch nodes more often. ms/eval is what one
// of them costs on average, the figure a tune's rate follows.
func BenchmarkReplayTuned(b *testing.B) {
	prob := sdscProblem(b)
	configs, err := tunedSample()
	if err != nil {
		b.Fatal(err)
	}
	tasks := make([]scoring.ScoreTask, len(configs))
	for i, c := range configs {
		tasks[i] = scoring.ScoreTask{Trace: prob.Trace, Config: c}
	}
	sc := scoring.NewScorer(prob.Cluster, prob.Options, 1)
	defer sc.Close()
	benchReplay(b, sc, tasks)
	b.ReportMetric(b.Elapsed().Seconds()*1000/float64(b.N*len(tasks)), "ms/eval")
}

// tunedSample reads testdata/sp2-easy-tune.json: 16 of the 9,072
// candidates that `ecotune tune --trace SDSC-SP2-1998-4.2-cln.swf.gz
// --scheduler easy --evaluations 10000 --seed 1` evaluated, evenly spread
// over the run (the (2k+1)·9072/32-th of its evaluation cache, k = 0..15),
// as policy configurations.
func tunedSample() ([]policy.Config, error) {
	const file = "testdata/sp2-easy-tune.json"
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var configs []policy.Config
	if err := json.Unmarshal(data, &configs); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return configs, nil
}

// TestTunedSample checks BenchmarkReplayTuned's sample: 16 hgfs
// configurations that build, 9 of them with the drain rule on (drain_lead
// under a week, which is never).
func TestTunedSample(t *testing.T) {
	configs, err := tunedSample()
	if err != nil {
		t.Fatal(err)
	}
	if len(configs) != 16 {
		t.Fatalf("%d configurations, want 16", len(configs))
	}
	drain := 0
	for i, c := range configs {
		if _, err := policy.New(c); err != nil {
			t.Errorf("configuration %d: %v", i, err)
		}
		if c.Name != "hgfs" {
			t.Errorf("configuration %d: policy %q, want hgfs", i, c.Name)
		}
		if c.Params["drain_lead"] < 7*86400 {
			drain++
		}
	}
	if drain != 9 {
		t.Errorf("%d configurations drain, want 9", drain)
	}
}
