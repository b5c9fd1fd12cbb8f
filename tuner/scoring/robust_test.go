package scoring

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/policy"
	rundir "github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/sim"
	"github.com/ecotune/ecotune/tuner/search"
)

// Hand-worked aggregates: mean, worst and cvar on known vectors, both
// directions.
func TestAggregateValues(t *testing.T) {
	cases := []struct {
		vals     []float64
		maximize bool
		how      string
		alpha    float64
		want     float64
	}{
		{[]float64{1, 2, 3, 4}, false, AggregateMean, 0, 2.5},
		{[]float64{1, 2, 3, 4}, false, AggregateWorst, 0, 4},
		{[]float64{1, 2, 3, 4}, true, AggregateWorst, 0, 1},
		{[]float64{4, 1, 3, 2}, false, AggregateCVaR, 0.5, 3.5}, // mean of 4, 3
		{[]float64{4, 1, 3, 2}, true, AggregateCVaR, 0.5, 1.5},  // mean of 1, 2
		{[]float64{4, 1, 3, 2}, false, AggregateCVaR, 0.25, 4},  // one worst
		{[]float64{4, 1, 3, 2}, false, AggregateCVaR, 1, 2.5},   // all: the mean
		{[]float64{5, 1, 3}, false, AggregateCVaR, 0.5, 4},      // ⌈1.5⌉ = 2 worst: 5, 3
		{[]float64{5, 1, 3}, true, AggregateCVaR, 0.5, 2},       // 1, 3
		{[]float64{5, 1, 3}, false, AggregateCVaR, 0.01, 5},     // at least one
		{[]float64{7}, false, AggregateCVaR, 0.5, 7},
		{[]float64{7}, true, AggregateMean, 0, 7},
	}
	for _, c := range cases {
		in := slices.Clone(c.vals)
		if got := aggregateValues(c.vals, c.maximize, c.how, c.alpha); got != c.want {
			t.Errorf("%s(%v, max %v, alpha %g) = %g, want %g", c.how, c.vals, c.maximize, c.alpha, got, c.want)
		}
		if !slices.Equal(in, c.vals) {
			t.Errorf("%s changed its input: %v → %v", c.how, in, c.vals)
		}
	}
}

// Every score of the table can be set (aggregates and scaling write
// them all), and reads back as set.
func TestSetScoreCoversTable(t *testing.T) {
	for i, o := range objectives.All() {
		var sc objectives.Scores
		v := float64(10 + i)
		if err := setScore(&sc, o.Name, v); err != nil {
			t.Fatal(err)
		}
		if got := o.Of(sc); got != v {
			t.Errorf("%s: set %g, read %g", o.Name, v, got)
		}
	}
	if err := setScore(&objectives.Scores{}, "nonsense", 1); err == nil {
		t.Error("setScore accepted an unknown name")
	}
}

// Aggregated scores: each score by its own direction, extensive ones
// scaled before.
func TestAggregateScoresDirections(t *testing.T) {
	a := objectives.Scores{QoSP90: 1, OffNodeSeconds: 100, Reconfigurations: 10, MaxWait: 50, PeakPowered: 4}
	b := objectives.Scores{QoSP90: 3, OffNodeSeconds: 50, Reconfigurations: 30, MaxWait: 10, PeakPowered: 6}
	worst := aggregateScores([]objectives.Scores{a, b}, Robust{Aggregate: AggregateWorst}, 7)
	want := objectives.Scores{Jobs: 7, QoSP90: 3, OffNodeSeconds: 50, Reconfigurations: 30, MaxWait: 50, PeakPowered: 6}
	if worst != want {
		t.Errorf("worst = %+v, want %+v", worst, want)
	}
	mean := aggregateScores([]objectives.Scores{a, b}, Robust{Aggregate: AggregateMean}, 7)
	if mean.QoSP90 != 2 || mean.OffNodeSeconds != 75 || mean.Reconfigurations != 20 || mean.MaxWait != 30 {
		t.Errorf("mean = %+v", mean)
	}
	s := scaleScores(a, 2)
	if s.OffNodeSeconds != 200 || s.Reconfigurations != 20 || s.QoSP90 != 1 || s.MaxWait != 50 || s.PeakPowered != 4 {
		t.Errorf("scaled by 2: %+v: extensive scores doubled, the others kept", s)
	}
}

func TestNormalizeRobust(t *testing.T) {
	ok := []struct {
		in, want Robust
	}{
		{Robust{}, Robust{}},
		{Robust{Windows: 1}, Robust{}}, // one plain replay
		{Robust{Windows: 1, Aggregate: AggregateWorst}, Robust{}},
		{Robust{Windows: 3}, Robust{Windows: 3, Aggregate: AggregateMean}},
		{Robust{Replicas: 2}, Robust{Windows: 1, Replicas: 2, Jitter: 1800, Aggregate: AggregateMean}},
		{Robust{Windows: 2, Aggregate: AggregateCVaR}, Robust{Windows: 2, Aggregate: AggregateCVaR, Alpha: 0.5}},
		{DefaultRobust(), DefaultRobust()},
		{Robust{Thin: 0.8}, Robust{Windows: 1, Aggregate: AggregateMean, Thin: 0.8}},
		{Robust{Windows: 1, Relative: true}, Robust{Windows: 1, Aggregate: AggregateMean, Relative: true}},
	}
	for _, c := range ok {
		got, err := NormalizeRobust(c.in)
		if err != nil || got != c.want {
			t.Errorf("NormalizeRobust(%+v) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
	bad := []struct {
		in   Robust
		word string
	}{
		{Robust{Windows: -1}, "windows"},
		{Robust{Windows: 2, Replicas: -1}, "replicas"},
		{Robust{Windows: 2, Replicas: 1, Jitter: -5}, "jitter"},
		{Robust{Windows: 2, Jitter: 60}, "without replicas"},
		{Robust{Windows: 2, Aggregate: "median"}, "aggregate"},
		{Robust{Windows: 2, Aggregate: AggregateMean, Alpha: 0.3}, "alpha"},
		{Robust{Windows: 2, Aggregate: AggregateCVaR, Alpha: 1.5}, "alpha"},
		{Robust{Windows: 2, Aggregate: AggregateCVaR, Alpha: math.NaN()}, "alpha"},
		{Robust{Windows: 40, Replicas: 1}, "replays"},
		{Robust{Windows: 2, Thin: 1}, "thin"},
		{Robust{Windows: 2, Thin: -0.2}, "thin"},
		{Robust{Windows: 2, Thin: math.NaN()}, "thin"},
		{Robust{Windows: 32, Replicas: 1, Thin: 0.5}, "replays"},
	}
	for _, c := range bad {
		if _, err := NormalizeRobust(c.in); err == nil || !strings.Contains(err.Error(), c.word) {
			t.Errorf("NormalizeRobust(%+v): error %v, want one naming %q", c.in, err, c.word)
		}
	}
}

// robustTrain is the embedded trace's first 3000 jobs cut 70/30.
func robustTrain(t *testing.T) (train, test *datasets.Trace) {
	t.Helper()
	tr, err := datasets.Default()
	if err != nil {
		t.Fatal(err)
	}
	tr = &datasets.Trace{Meta: tr.Meta, Jobs: tr.Jobs[:3000]}
	train, test, err = rundir.Holdout(0.7).Apply(tr)
	if err != nil {
		t.Fatal(err)
	}
	return train, test
}

type jobKey struct {
	id, run, wait int64
	procs         int32
}

func keyOf(j datasets.Job) jobKey { return jobKey{j.ID, j.Run, j.Wait, j.Procs} }

// The windows cut the train split exactly (in order, every train job in
// one window, no test job anywhere), replicas hold the window's jobs with
// submit times moved by at most the jitter, sorted.
func TestRobustReplaysInsideTrain(t *testing.T) {
	train, test := robustTrain(t)
	testJobs := map[jobKey]bool{}
	for _, j := range test.Jobs {
		testJobs[keyOf(j)] = true
	}
	for _, r := range []Robust{{Windows: 4, Aggregate: AggregateMean}, {Windows: 3, Replicas: 2, Jitter: 600, Aggregate: AggregateWorst}, {Windows: 1, Replicas: 1, Jitter: 3600, Aggregate: AggregateMean}} {
		reps, err := robustReplays(train, r, 5)
		if err != nil {
			t.Fatal(err)
		}
		if len(reps) != r.Windows*(1+r.Replicas) {
			t.Fatalf("%+v: %d replays", r, len(reps))
		}
		var joined []datasets.Job
		for w := range r.Windows {
			win := reps[w*(1+r.Replicas)].trace
			if len(win.Jobs) < len(train.Jobs)/r.Windows || len(win.Jobs) > len(train.Jobs)/r.Windows+1 {
				t.Errorf("%+v: window %d has %d jobs of %d", r, w, len(win.Jobs), len(train.Jobs))
			}
			joined = append(joined, win.Jobs...)
			byKey := map[jobKey]int64{}
			for _, j := range win.Jobs {
				byKey[keyOf(j)] = j.Submit
			}
			for rep := 1; rep <= r.Replicas; rep++ {
				rp := reps[w*(1+r.Replicas)+rep]
				if len(rp.trace.Jobs) != len(win.Jobs) {
					t.Fatalf("%+v: replica %d of window %d has %d jobs, the window %d", r, rep, w, len(rp.trace.Jobs), len(win.Jobs))
				}
				moved := 0
				for i, j := range rp.trace.Jobs {
					orig, ok := byKey[keyOf(j)]
					if !ok {
						t.Fatalf("%+v: replica %d of window %d holds job %d, not in its window", r, rep, w, j.ID)
					}
					if d := j.Submit - orig; d < -r.Jitter || d > r.Jitter {
						t.Errorf("job %d moved by %d s, more than ±%d", j.ID, d, r.Jitter)
					} else if d != 0 {
						moved++
					}
					if i > 0 && j.Submit < rp.trace.Jobs[i-1].Submit {
						t.Fatalf("replica %d of window %d is not sorted at job %d", rep, w, i)
					}
				}
				if moved < len(win.Jobs)/2 {
					t.Errorf("replica %d of window %d: only %d of %d jobs moved", rep, w, moved, len(win.Jobs))
				}
				if !(rp.scale > 0) {
					t.Errorf("replica scale %g", rp.scale)
				}
			}
		}
		if !slices.Equal(joined, train.Jobs) {
			t.Errorf("%+v: the windows joined are not the train split's jobs in order", r)
		}
		for _, rp := range reps {
			for _, j := range rp.trace.Jobs {
				if testJobs[keyOf(j)] {
					t.Fatalf("%+v: job %d of the test split in a replay", r, j.ID)
				}
			}
		}
	}
	if _, err := robustReplays(train, Robust{Windows: len(train.Jobs)/MinWindowJobs + 1, Aggregate: AggregateMean}, 1); err == nil {
		t.Error("windows of fewer than MinWindowJobs jobs accepted")
	}
}

// TestRobustThinned: each window's thinned copy is last among its
// replays, a subset of the window in order, about Thin of its jobs, and
// the same for the same seed.
func TestRobustThinned(t *testing.T) {
	train, _ := robustTrain(t)
	r := Robust{Windows: 3, Replicas: 1, Jitter: 600, Aggregate: AggregateMean, Thin: 0.7}
	a, err := robustReplays(train, r, 5)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := robustReplays(train, r, 5)
	if len(a) != r.Windows*3 {
		t.Fatalf("%d replays, want %d", len(a), r.Windows*3)
	}
	for w := range r.Windows {
		win, th := a[3*w].trace, a[3*w+2].trace
		n, m := len(win.Jobs), len(th.Jobs)
		if m < n*6/10 || m > n*8/10 {
			t.Errorf("window %d: thinned to %d of %d jobs at 0.7", w, m, n)
		}
		i := 0
		for _, j := range th.Jobs {
			for i < n && win.Jobs[i] != j {
				i++
			}
			if i == n {
				t.Fatalf("window %d: thinned job %d not in the window, or out of order", w, j.ID)
			}
		}
		if !slices.Equal(th.Jobs, b[3*w+2].trace.Jobs) {
			t.Errorf("window %d: the same seed thinned differently", w)
		}
	}
}

// TestRelativeQoS: always-on's value on any replay maps to its train
// value; a candidate twice as far above always-on's (plus the slack)
// counts the same on a light and on a saturated replay.
func TestRelativeQoS(t *testing.T) {
	const train = 200
	for _, a := range []float64{0, 0.5, 30, 1000} {
		if got := relativeQoS(a, a, train); math.Abs(got-train) > 1e-9 {
			t.Errorf("always-on at %g: %g, want %g", a, got, float64(train))
		}
	}
	light := relativeQoS(2*(0.4+0.1)-0.1, 0.4, train) // (q+0.1) twice always-on's
	heavy := relativeQoS(2*(900+0.1)-0.1, 900, train) // likewise
	if want := 2*(train+0.1) - 0.1; math.Abs(light-want) > 1e-9 || math.Abs(heavy-want) > 1e-9 {
		t.Errorf("twice always-on: light %g, heavy %g, want %g", light, heavy, want)
	}
	if got := relativeQoS(0, 5, train); got >= train {
		t.Errorf("better than always-on: %g, want below %d", got, train)
	}
}

// Jitter depends on the seed, the window and the replica alone.
func TestJitterDeterministicBySeed(t *testing.T) {
	train, _ := robustTrain(t)
	r := Robust{Windows: 2, Replicas: 2, Jitter: 900, Aggregate: AggregateMean}
	a, err := robustReplays(train, r, 11)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := robustReplays(train, r, 11)
	c, _ := robustReplays(train, r, 12)
	for i := range a {
		if !slices.Equal(a[i].trace.Jobs, b[i].trace.Jobs) {
			t.Errorf("replay %d differs between two cuts with seed 11", i)
		}
		if i%(1+r.Replicas) != 0 && slices.Equal(a[i].trace.Jobs, c[i].trace.Jobs) {
			t.Errorf("replica %d is the same with seeds 11 and 12", i)
		}
	}
	if slices.Equal(a[1].trace.Jobs[:100], a[2].trace.Jobs[:100]) {
		t.Error("replicas 1 and 2 of window 0 are the same")
	}
	// Another generator state (the search's streams) does not change it.
	_ = rand.New(rand.NewPCG(11, 0)).Uint64()
	d, _ := robustReplays(train, r, 11)
	if !slices.Equal(a[1].trace.Jobs, d[1].trace.Jobs) {
		t.Error("replica depends on something beyond the seed")
	}
}

// The search's archive holds only candidates replayed on every replay:
// re-scoring each archive member in full gives its search scores exactly
// (a screened-out estimate never survives); and screening does screen
// some candidates out.
func TestRobustArchiveFullyEvaluated(t *testing.T) {
	tr, err := datasets.Default()
	if err != nil {
		t.Fatal(err)
	}
	spec, err := policy.Lookup("hgfs")
	if err != nil {
		t.Fatal(err)
	}
	train, test, err := rundir.Holdout(0.7).Apply(&datasets.Trace{Meta: tr.Meta, Jobs: tr.Jobs[:3000]})
	if err != nil {
		t.Fatal(err)
	}
	c, err := sim.ClusterFromTrace(train.Meta)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	opt := sim.Options{Scheduler: sim.EASY}
	sc := NewScorer(c, opt, 2)
	defer sc.Close()
	refs, err := References(ctx, sc, train, test)
	if err != nil {
		t.Fatal(err)
	}
	const seed, population = 3, 12
	objs := DefaultObjectives()
	re, err := NewRobustEval(ctx, Robust{Windows: 3, Replicas: 1, Aggregate: AggregateWorst}, seed, sc, train, refs)
	if err != nil {
		t.Fatal(err)
	}
	prob, err := NewRobustPolicyProblem(ctx, re, sc, population, false, spec, train, c, opt, objs, nil, refs[AlwaysOn].Train)
	if err != nil {
		t.Fatal(err)
	}
	if len(prob.robust.front) == 0 {
		t.Fatal("empty screening front")
	}
	res, err := search.Minimize(ctx, prob, search.Settings{Generations: 4, Seed: seed, Workers: 2, Initial: prob.Seeds(), Pool: sc.Pool()},
		search.NSGA2{Population: population})
	if err != nil {
		t.Fatal(err)
	}
	full := func(x []float64) []float64 {
		scs, err := TrainScores(ctx, sc, prob, train, []policy.Config{prob.Config(x)})
		if err != nil {
			t.Fatal(err)
		}
		f, _ := ObjectiveVector(scs[0], objs)
		return f
	}
	sense := make([]bool, len(objs))
	for k, o := range objs {
		sense[k] = o.Maximize
	}
	for i, m := range res.Archive {
		if f := full(m.X); !slices.Equal(f, m.F) {
			t.Errorf("archive member %d: search scores %v, in full %v", i, m.F, f)
		}
	}
	// Random candidates: some are screened out (their estimate is
	// dominated by a screening-front member), the seeds are not.
	ev, err := prob.NewEvaluator()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	screened := 0
	for range 30 {
		x := make([]float64, len(prob.vars))
		for k, v := range prob.vars {
			x[k] = v.Random(rng)
		}
		f := make([]float64, len(objs))
		cv, err := ev.Evaluate(x, f)
		if err != nil {
			t.Fatal(err)
		}
		if fo := full(x); !slices.Equal(f, fo) {
			screened++
			est := slices.Clone(f)
			for k, max := range sense {
				if max {
					est[k] = -est[k]
				}
			}
			byFront := false
			for _, r := range prob.robust.front {
				if search.ConstrainedDominates(r.f, r.cv, est, cv) {
					byFront = true
				}
			}
			if !byFront {
				t.Errorf("candidate %v: estimate %v (cv %g) is dominated by no screening-front member", x, f, cv)
			}
		}
	}
	if screened == 0 {
		t.Error("no random candidate of 30 was screened out")
	}
}

// TestRelativeReferences: with Relative, always-on's robust train
// aggregate keeps its plain train qos_p90 (every replay maps to it), so
// relative bounds resolve as in a plain run, while the oracle's is its
// replays' relative values aggregated.
func TestRelativeReferences(t *testing.T) {
	train, test := robustTrain(t)
	c, err := sim.ClusterFromTrace(train.Meta)
	if err != nil {
		t.Fatal(err)
	}
	opt := sim.Options{Scheduler: sim.EASY}
	sc := NewScorer(c, opt, 2)
	defer sc.Close()
	refs, err := References(context.Background(), sc, train, test)
	if err != nil {
		t.Fatal(err)
	}
	plain := refs[AlwaysOn].Train
	r := Robust{Windows: 3, Aggregate: AggregateCVaR, Alpha: 0.5, Thin: 0.6, Relative: true}
	rb, _, err := newRobustEval(context.Background(), r, 4, sc, train, refs)
	if err != nil {
		t.Fatal(err)
	}
	if got := refs[AlwaysOn].Train.QoSP90; math.Abs(got-plain.QoSP90) > 1e-9*math.Max(1, plain.QoSP90) {
		t.Errorf("always-on's relative aggregate %g, want its plain train qos_p90 %g", got, plain.QoSP90)
	}
	if len(rb.aoQoS) != 6 || rb.aoTrain != plain.QoSP90 {
		t.Errorf("always-on's per-replay qos %v (want 6), train %g (want %g)", rb.aoQoS, rb.aoTrain, plain.QoSP90)
	}
	if got := refs[AlwaysOn].Train.OffNodeSeconds; got != 0 {
		t.Errorf("always-on's aggregate keeps nodes off %d s", got)
	}
}
