package scoring

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/policy"
	ecoreplay "github.com/ecotune/ecotune/replay"
	rundir "github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/sim"
	"github.com/ecotune/ecotune/tuner/search"
)

// Robust asks for robust evaluation (Options.Robust): a candidate's train
// scores aggregate several replays instead of one replay of the whole
// train split, so a choice rests on more than one run of a chaotic
// schedule. The zero Robust is the plain single replay.
//
// The replays: the train split is cut into Windows consecutive blocks of
// equal job counts (block k holds jobs [k·n/W, (k+1)·n/W) of the n train
// jobs, in submit order; no job of the test split is ever used), and each
// block is replayed as logged and as Replicas perturbed copies whose
// submit times are each moved by a uniform whole number of seconds in
// [−Jitter, +Jitter] (drawn from the run's seed, the block and the
// replica's number; the jobs are then re-sorted by submit time, ties by
// ID) and, when Thin is in (0, 1), as one thinned copy keeping each job
// with probability Thin (seeded likewise): a lighter period of the same
// workload. Replays are ordered block by block, the logged block before
// its replicas, the thinned copy last. Windows 1 with no replicas and no
// thinning is the plain replay.
//
// Scaling: scores that grow with the length of the period (node-off
// seconds, reconfigurations, energy, boots, shutdowns, makespan) are
// scaled by span(train) / span(replay), where span is the logged time from
// the first submission to the last end (submit + wait + run), so every
// replay speaks in train-split units and a mean over whole-split blocks is
// close to the plain score; ratios and waits are not scaled.
//
// Aggregate, per objective on the scaled values v_1..v_m of the m =
// Windows × (1 + Replicas) replays, each objective on its own (the
// aggregate need not be any one replay's scores):
//   - "mean": the arithmetic mean.
//   - "worst": the worst value (the largest of a minimised score, the
//     smallest of a maximised one).
//   - "cvar": the conditional value at risk at level Alpha, the mean of
//     the ⌈Alpha·m⌉ worst values (Alpha default 0.5: the worse half);
//     between the mean (Alpha 1) and the worst (Alpha → 0).
//
// Relative: the p90 wait ratio of replay i, q_i, enters the aggregate as
// (q_i + 0.1) / (a_i + 0.1) × (A + 0.1) − 0.1, where a_i is always-on's on
// the same replay and A always-on's on the whole train split (0.1 is
// rel10's additive slack): always-on's value on every replay is A, and a
// candidate doubling always-on's waits counts the same on a saturated
// window (where q_i is in the hundreds) as on a light one (where it is
// near 0). Without it the saturated replays dominate every aggregate and
// the search learns nothing from the light ones.
//
// Why thinning: on a loaded log the p90 wait ratio is far from linear in
// the load (see DefaultPickLoads), and some parameters are invisible on a
// saturated train period, such as booting one node at a time, which
// costs nothing while every node is busy and delays jobs on a lighter
// test period (docs/experiments.md, "Robust evaluation: thinning").
//
// Constraints and presets compare like with like: always-on and the
// oracle are replayed on the same replays and aggregated the same way,
// and run.json's train references are those aggregates; relative bounds
// resolve against them. The front's train scores (front.csv, run.json)
// are the aggregates too; test scores stay one plain replay of the test
// split.
//
// Multi-fidelity: a candidate is first replayed on the screening replay
// alone, the last block as logged (the most recent period). It is
// promoted to the other replays unless one of the screening front
// constrained-dominates it there. The screening front is fixed before the
// search: the policy's seeds (PolicyProblem.Seeds, as the initial
// population holds them; for hgfs a swept idle-timeout) that no other seed
// dominates on the screening replay. Being fixed, it makes every
// candidate's scores a function of the candidate alone, so results do
// not depend on workers, islands or processes, and resuming needs no
// extra state. A candidate that is not promoted is given the scores of
// the seed s that dominates it on the screening replay, worsened by the
// gap between them there (aggregate(s) + (screen(c) − screen(s)) per
// objective, violation likewise): s dominates that estimate, which
// therefore never enters the archive, and the front holds only fully
// replayed candidates. The screening replay is one of the replays, so a
// promoted candidate costs no more than without screening: a robust
// evaluation costs at most about (1 + Replicas) plain ones, less the
// replays of the candidates screened out.
type Robust = rundir.Robust

// The aggregates of Robust.Aggregate.
const (
	AggregateMean  = "mean"
	AggregateWorst = "worst"
	AggregateCVaR  = "cvar"
)

// Limits of robust evaluation: at most MaxRobustReplays replays a
// candidate, and at least MinWindowJobs train jobs a window.
const (
	MaxRobustReplays = 64
	MinWindowJobs    = 10
)

// DefaultRobust is what `ecotune tune --robust` asks for: 4 windows, one
// jittered replica of each (±1800 s), cvar at level 0.5. Robust
// evaluation stays off by default (Options.Robust zero). cvar is the
// --robust default because it gave the best test hypervolume where it
// was measured, at under twice a plain tune's CPU time per evaluation
// (docs/experiments.md, "The --robust default").
func DefaultRobust() Robust {
	return Robust{Windows: 4, Replicas: 1, Jitter: 1800, Aggregate: AggregateCVaR, Alpha: 0.5}
}

// NormalizeRobust checks r and fills its defaults: Windows 0 is 1, an
// empty Aggregate is "mean", cvar's Alpha 0 is 0.5, Jitter 0 with
// replicas is DefaultRobust's. Settings that ask for one plain replay
// (one window, no replicas) give the zero Robust. Errors name the field
// as the command line's flag does.
func NormalizeRobust(r Robust) (Robust, error) {
	if r.IsZero() {
		return r, nil
	}
	if err := checkRobustRanges(r); err != nil {
		return r, err
	}
	if r.Windows == 0 {
		r.Windows = 1
	}
	if err := checkRobustReplays(r); err != nil {
		return r, err
	}
	r, err := normalizeAggregate(r)
	if err != nil {
		return r, err
	}
	if r.Replicas > 0 && r.Jitter == 0 {
		r.Jitter = DefaultRobust().Jitter
	}
	if r.Windows == 1 && r.Replicas == 0 && r.Thin == 0 && !r.Relative {
		return Robust{}, nil // one plain replay
	}
	return r, nil
}

// checkRobustRanges reports the first of r's counts, jitter and alpha
// that is out of its range, or jitter given without replicas.
func checkRobustRanges(r Robust) error {
	switch {
	case r.Windows < 0:
		return fmt.Errorf("tuner: robust windows %d: need ≥ 1", r.Windows)
	case r.Replicas < 0:
		return fmt.Errorf("tuner: robust replicas %d: need ≥ 0", r.Replicas)
	case r.Jitter < 0:
		return fmt.Errorf("tuner: robust jitter %d s: need ≥ 0", r.Jitter)
	case r.Replicas == 0 && r.Jitter != 0:
		return fmt.Errorf("tuner: robust jitter %d s without replicas: jitter perturbs the replicas (give replicas ≥ 1)", r.Jitter)
	case !(r.Alpha >= 0 && r.Alpha <= 1):
		return fmt.Errorf("tuner: robust alpha %g: need a level in (0, 1]", r.Alpha)
	}
	return nil
}

// checkRobustReplays checks r's thinning fraction and that r asks for at
// most MaxRobustReplays replays a candidate; r.Windows is already ≥ 1.
func checkRobustReplays(r Robust) error {
	if !(r.Thin >= 0 && r.Thin < 1) {
		return fmt.Errorf("tuner: robust thin %g: want the fraction of jobs a thinned copy keeps, in (0, 1), or 0 for none", r.Thin)
	}
	if r.Windows > MaxRobustReplays || r.Replicas >= MaxRobustReplays || r.Windows*perWindow(r) > MaxRobustReplays {
		return fmt.Errorf("tuner: robust windows %d × (1 + replicas %d + thinned %d): more than %d replays a candidate", r.Windows, r.Replicas, perWindow(r)-1-r.Replicas, MaxRobustReplays)
	}
	return nil
}

// normalizeAggregate checks r's Aggregate and Alpha and fills their
// defaults: an empty Aggregate is "mean", cvar's Alpha 0 is 0.5. On error
// it returns r with the defaults filled so far.
func normalizeAggregate(r Robust) (Robust, error) {
	switch r.Aggregate {
	case "":
		r.Aggregate = AggregateMean
	case AggregateMean, AggregateWorst, AggregateCVaR:
	default:
		return r, fmt.Errorf("tuner: robust aggregate %q: want mean, worst or cvar", r.Aggregate)
	}
	if r.Aggregate == AggregateCVaR && r.Alpha == 0 {
		r.Alpha = 0.5
	}
	if r.Aggregate != AggregateCVaR && r.Alpha != 0 {
		return r, fmt.Errorf("tuner: robust alpha %g with aggregate %s: alpha is cvar's level", r.Alpha, r.Aggregate)
	}
	return r, nil
}

// replay is one trace of a robust evaluation and the factor that scales
// its extensive scores to the train split's length.
type replay struct {
	trace *datasets.Trace
	scale float64
}

// robustReplays cuts train into r's replays (see Robust), the random
// choices drawn from seed.
func robustReplays(train *datasets.Trace, r Robust, seed int64) ([]replay, error) {
	n := len(train.Jobs)
	if n < r.Windows*MinWindowJobs {
		return nil, fmt.Errorf("tuner: robust windows %d: the train split has %d jobs, fewer than %d a window", r.Windows, n, MinWindowJobs)
	}
	whole := float64(loggedSpan(train.Jobs))
	out := make([]replay, 0, r.Windows*perWindow(r))
	wins := CutWindows(train, r.Windows, func(k, i, j int) string {
		return fmt.Sprintf("robust window %d of %d: train jobs %d:%d", k+1, r.Windows, i, j)
	})
	for k, win := range wins {
		out = append(out, replay{trace: win, scale: whole / float64(loggedSpan(win.Jobs))})
		for rep := 1; rep <= r.Replicas; rep++ {
			jt := jitter(win, r.Jitter, robustRNG(seed, k, rep))
			jt.Meta.Notes = append(slices.Clip(jt.Meta.Notes), fmt.Sprintf("replica %d: submit times jittered by up to ±%d s", rep, r.Jitter))
			out = append(out, replay{trace: jt, scale: whole / float64(loggedSpan(jt.Jobs))})
		}
		if r.Thin > 0 {
			th := ThinTrace(win, r.Thin, robustRNG(seed, k, thinReplica))
			out = append(out, replay{trace: th, scale: whole / float64(loggedSpan(th.Jobs))})
		}
	}
	return out, nil
}

// thinReplica is the replica number of a window's thinned copy in
// robustRNG: apart from the jittered replicas' 1..MaxRobustReplays.
const thinReplica = 1 << 12

// perWindow is the number of replays of each window of r.
func perWindow(r Robust) int {
	n := 1 + r.Replicas
	if r.Thin > 0 {
		n++
	}
	return n
}

// robustRNG is the random stream of replica rep of window k: apart from
// the search's streams (newRNG), which use small island and generation
// numbers.
func robustRNG(seed int64, k, rep int) *rand.Rand {
	const robustStream = 0x726f627573740000 // "robust"
	return rand.New(rand.NewPCG(uint64(seed), search.SplitMix64(robustStream^uint64(k)<<16^uint64(rep))))
}

// jitter returns a copy of tr whose jobs' submit times are each moved by
// a uniform whole number of seconds in [−j, j], re-sorted by submit time
// (ties by ID, then by their order in tr).
func jitter(tr *datasets.Trace, j int64, rng *rand.Rand) *datasets.Trace {
	out := &datasets.Trace{Meta: tr.Meta.Clone(), Jobs: slices.Clone(tr.Jobs)}
	for i := range out.Jobs {
		out.Jobs[i].Submit += rng.Int64N(2*j+1) - j
	}
	slices.SortStableFunc(out.Jobs, func(a, b datasets.Job) int {
		return cmp.Or(cmp.Compare(a.Submit, b.Submit), cmp.Compare(a.ID, b.ID))
	})
	return out
}

// loggedSpan is the time from the first submission to the last logged end
// (submit + wait + run), at least 1 s.
func loggedSpan(jobs []datasets.Job) int64 {
	if len(jobs) == 0 {
		return 1
	}
	first, last := jobs[0].Submit, int64(math.MinInt64)
	for _, j := range jobs {
		first = min(first, j.Submit)
		last = max(last, j.Submit+max(j.Wait, 0)+max(j.Run, 0))
	}
	return max(1, last-first)
}

// extensive reports whether objective o grows with the length of the
// period replayed (and is scaled between replays).
func extensive(o objectives.Objective) bool {
	switch o.Unit {
	case "node-s", "count", "kWh":
		return true
	}
	return o.Name == objectives.Makespan
}

// scaleScores multiplies the extensive scores of sc by f.
func scaleScores(sc objectives.Scores, f float64) objectives.Scores {
	scaleIn(objectives.All(), &sc, f)
	return sc
}

// scaleIn is scaleScores in place, with the objectives table given
// (objectives.All copies it).
func scaleIn(table []objectives.Objective, sc *objectives.Scores, f float64) {
	if f == 1 {
		return
	}
	for _, o := range table {
		if extensive(o) {
			// Every name of the table is settable (TestSetScoreCoversTable).
			_ = setScore(sc, o.Name, o.At(sc)*f)
		}
	}
}

// setScore sets the score called name in sc to v (rounded for the
// counts).
func setScore(sc *objectives.Scores, name string, v float64) error {
	round := func(v float64) int64 { return int64(math.Round(v)) }
	switch name {
	case objectives.QoSP90:
		sc.QoSP90 = v
	case objectives.OffNodeSeconds:
		sc.OffNodeSeconds = round(v)
	case objectives.Reconfigurations:
		sc.Reconfigurations = round(v)
	case objectives.EnergyKWh:
		sc.EnergyKWh = v
	case objectives.MeanWait:
		sc.MeanWait = v
	case objectives.MedianWait:
		sc.MedianWait = v
	case objectives.MaxWait:
		sc.MaxWait = round(v)
	case objectives.BoundedSlowdown:
		sc.BoundedSlowdown = v
	case objectives.Makespan:
		sc.Makespan = round(v)
	case objectives.PeakPowered:
		sc.PeakPowered = int(round(v))
	case objectives.Boots:
		sc.Boots = round(v)
	case objectives.Shutdowns:
		sc.Shutdowns = round(v)
	default:
		return fmt.Errorf("tuner: no score %q to set", name)
	}
	return nil
}

// aggregateValues combines one objective's values over the replays; see
// Robust for the definitions. vals is not changed.
func aggregateValues(vals []float64, maximize bool, how string, alpha float64) float64 {
	return aggregateValuesBuf(vals, make([]float64, len(vals)), maximize, how, alpha)
}

// aggregateValuesBuf is aggregateValues sorting in buf (len(vals) long):
// Aggregate on the values oriented as losses (a maximised score negated).
// Every aggregate is cvar's sum worst first, as it always was here: the
// mean is cvar at level 1, the worst cvar at level 0.
func aggregateValuesBuf(vals, buf []float64, maximize bool, how string, alpha float64) float64 {
	switch how {
	case AggregateWorst:
		alpha = 0
	case AggregateCVaR:
	default:
		alpha = 1
	}
	if !maximize {
		return aggregateInto(AggregateCVaR, vals, buf, alpha)
	}
	neg := buf[:len(vals)]
	for i, v := range vals {
		neg[i] = -v
	}
	return 0 - aggregateInto(AggregateCVaR, neg, buf, alpha) // 0 −: a zero stays +0
}

// aggregateScores combines the (scaled) scores of the replays into one,
// every score of the table by its own direction; Jobs is jobs (the train
// split's).
func aggregateScores(scs []objectives.Scores, r Robust, jobs int) objectives.Scores {
	var b aggBuf
	return b.aggregate(objectives.All(), scs, r, jobs)
}

// aggBuf holds aggregateScores' buffers, so that a robust evaluator
// aggregates without allocating.
type aggBuf struct {
	scaled     []objectives.Scores
	vals, sort []float64
}

// aggregate is aggregateScores over the objectives of table.
func (b *aggBuf) aggregate(table []objectives.Objective, scs []objectives.Scores, r Robust, jobs int) objectives.Scores {
	out := objectives.Scores{Jobs: jobs}
	b.vals = slices.Grow(b.vals[:0], len(scs))[:len(scs)]
	b.sort = slices.Grow(b.sort[:0], len(scs))[:len(scs)]
	for _, o := range table {
		for i := range scs {
			b.vals[i] = o.At(&scs[i])
		}
		_ = setScore(&out, o.Name, aggregateValuesBuf(b.vals, b.sort, o.Direction == objectives.Maximize, r.Aggregate, r.Alpha))
	}
	return out
}

// robustEval is a PolicyProblem's robust evaluation: its replays, the
// constraints' bounds on the screening replay and the screening front.
type robustEval struct {
	spec         Robust
	replays      []replay
	screen       int       // index of the screening replay
	screenBounds []float64 // the constraints' bounds on it
	front        []screenRef
	trainJobs    int
	// aoQoS are always-on's qos_p90 on each replay and aoTrain on the
	// whole train split, for Relative (nil without).
	aoQoS   []float64
	aoTrain float64
	table   []objectives.Objective // objectives.All(), read once
}

// screenRef is a member of the screening front: its objectives and
// violation on the screening replay and over every replay (aggregated),
// objectives oriented for minimisation.
type screenRef struct {
	s, f    []float64
	scv, cv float64
}

// traces are the replays' traces.
func (rb *robustEval) traces() []*datasets.Trace {
	out := make([]*datasets.Trace, len(rb.replays))
	for i, r := range rb.replays {
		out[i] = r.trace
	}
	return out
}

// aggregate scales and aggregates the scores of one config on every
// replay (in replay order).
func (rb *robustEval) aggregate(scs []objectives.Scores) objectives.Scores {
	var b aggBuf
	return rb.aggregateBuf(scs, &b)
}

// aggregateBuf is aggregate with b's buffers.
func (rb *robustEval) aggregateBuf(scs []objectives.Scores, b *aggBuf) objectives.Scores {
	b.scaled = slices.Grow(b.scaled[:0], len(scs))[:len(scs)]
	for i, sc := range scs {
		b.scaled[i] = sc
		scaleIn(rb.table, &b.scaled[i], rb.replays[i].scale)
		if rb.aoQoS != nil {
			b.scaled[i].QoSP90 = relativeQoS(sc.QoSP90, rb.aoQoS[i], rb.aoTrain)
		}
	}
	return b.aggregate(rb.table, b.scaled, rb.spec, rb.trainJobs)
}

// relativeQoS is a replay's p90 wait ratio q in train units: (q + 0.1) /
// (a + 0.1) × (train + 0.1) − 0.1, a being always-on's on the replay (see
// Robust).
func relativeQoS(q, a, train float64) float64 {
	const slack = 0.1 // rel10's additive slack
	return (q+slack)/(math.Max(a, 0)+slack)*(train+slack) - slack
}

// scoreOn scores every config on every replay through the Scorer and
// aggregates: one Scores a config.
func (rb *robustEval) scoreOn(ctx context.Context, sc *Scorer, configs []policy.Config) ([]objectives.Scores, [][]objectives.Scores, error) {
	per, err := sc.ScoreOn(ctx, rb.traces(), configs)
	if err != nil {
		return nil, nil, err
	}
	out := make([]objectives.Scores, len(configs))
	for i := range configs {
		out[i] = rb.aggregate(per[i])
	}
	return out, per, nil
}

// RobustEval is the robust evaluation of a train split (Robust): its
// replays, and the references' aggregates on them. A policy problem built
// on it (NewRobustPolicyProblem) scores candidates on those replays.
type RobustEval struct {
	rb       *robustEval
	aoScreen objectives.Scores // always-on on the screening replay
}

// NewRobustEval prepares the robust evaluation r, seeded by seed, on
// train: the replays, then always-on's and the oracle's aggregates, which
// replace refs' train scores (so relative constraints and presets compare
// like with like).
func NewRobustEval(ctx context.Context, r Robust, seed int64, sc *Scorer, train *datasets.Trace, refs map[string]rundir.Reference) (*RobustEval, error) {
	rb, ao, err := newRobustEval(ctx, r, seed, sc, train, refs)
	if err != nil {
		return nil, err
	}
	return &RobustEval{rb: rb, aoScreen: ao}, nil
}

// NewRobustPolicyProblem is NewPolicyProblem evaluating candidates on
// re's replays, aggregated: its screening front is made of the first
// population candidates of the policy's seeds (as a search's initial
// population holds them), with the policy's own schedule rule fixed off
// when noScheduleRule is set (PolicyProblem.ScheduleRuleFixed).
func NewRobustPolicyProblem(ctx context.Context, re *RobustEval, sc *Scorer, population int, noScheduleRule bool,
	spec policy.Spec, tr *datasets.Trace, c sim.Cluster, opt sim.Options, objs []Objective, cons []Constraint, alwaysOn objectives.Scores) (*PolicyProblem, error) {
	p, err := NewPolicyProblem(spec, tr, c, opt, objs, cons, alwaysOn)
	if err != nil {
		return nil, err
	}
	var off map[int]float64
	if noScheduleRule {
		off = p.ScheduleRuleFixed()
	}
	if err := re.rb.attach(ctx, sc, p, re.aoScreen, population, off); err != nil {
		return nil, err
	}
	return p, nil
}

// newRobustEval prepares the robust evaluation r on train: the replays,
// then always-on's and the oracle's aggregates, which replace refs' train
// scores (so relative constraints and presets compare like with like).
// The problem's parts (bounds, screening front) are added by attach once
// the problem exists.
func newRobustEval(ctx context.Context, r Robust, seed int64, sc *Scorer, train *datasets.Trace, refs map[string]rundir.Reference) (*robustEval, objectives.Scores, error) {
	reps, err := robustReplays(train, r, seed)
	if err != nil {
		return nil, objectives.Scores{}, err
	}
	rb := &robustEval{spec: r, replays: reps, screen: (r.Windows - 1) * perWindow(r), trainJobs: len(train.Jobs), table: objectives.All()}
	names := []string{AlwaysOn, BoundName()}
	configs := make([]policy.Config, len(names))
	for i, n := range names {
		configs[i] = refs[n].Config
	}
	per, err := sc.ScoreOn(ctx, rb.traces(), configs)
	if err != nil {
		return nil, objectives.Scores{}, fmt.Errorf("tuner: references on the robust replays: %w", err)
	}
	if r.Relative {
		rb.aoTrain = refs[AlwaysOn].Train.QoSP90 // the plain replay's, not yet replaced
		for _, s := range per[0] {
			rb.aoQoS = append(rb.aoQoS, s.QoSP90)
		}
	}
	agg := make([]objectives.Scores, len(configs))
	for i := range configs {
		agg[i] = rb.aggregate(per[i])
	}
	for i, n := range names {
		ref := refs[n]
		ref.Train = agg[i]
		refs[n] = ref
	}
	return rb, scaleScores(per[0][rb.screen], rb.replays[rb.screen].scale), nil
}

// attach gives p the robust evaluation: the constraints' bounds on the
// screening replay (against always-on's scores there, aoScreen) and the
// screening front, made of the first population candidates of p's seeds
// (as the search's initial population holds them: repaired, with fix
// applied).
func (rb *robustEval) attach(ctx context.Context, sc *Scorer, p *PolicyProblem, aoScreen objectives.Scores, population int, fix map[int]float64) error {
	var err error
	if rb.screenBounds, err = appendBounds(rb.screenBounds[:0], p.Constraints, aoScreen); err != nil {
		return err
	}
	configs := p.seedConfigs(population, fix)
	agg, per, err := rb.scoreOn(ctx, sc, configs)
	if err != nil {
		return fmt.Errorf("tuner: the policy's seeds on the robust replays: %w", err)
	}
	refs := make([]screenRef, len(configs))
	for i := range configs {
		s, scv, err := p.orientedScores(scaleScores(per[i][rb.screen], rb.replays[rb.screen].scale), rb.screenBounds)
		if err != nil {
			return err
		}
		f, cv, err := p.orientedScores(agg[i], p.bounds)
		if err != nil {
			return err
		}
		refs[i] = screenRef{s: s, f: f, scv: scv, cv: cv}
	}
	rb.front = appendScreenFront(rb.front[:0], refs)
	p.robust = rb
	return nil
}

// seedConfigs are the policies of the first population of p's seeds, as
// the search's initial population holds them: repaired, with fix applied.
func (p *PolicyProblem) seedConfigs(population int, fix map[int]float64) []policy.Config {
	seeds := p.Seeds()
	if len(seeds) > population {
		seeds = seeds[:population]
	}
	configs := make([]policy.Config, len(seeds))
	for i, x := range seeds {
		y := make([]float64, len(x))
		for k, v := range p.vars {
			y[k] = v.Repair(x[k])
		}
		for k, v := range fix {
			y[k] = v
		}
		configs[i] = p.Config(y)
	}
	return configs
}

// appendScreenFront appends to dst the members of refs that no other
// member dominates on the screening replay, in their order.
func appendScreenFront(dst, refs []screenRef) []screenRef {
	for i, r := range refs {
		dominated := false
		for j, q := range refs {
			if j != i && screenDominates(q, r.s, r.scv) {
				dominated = true
				break
			}
		}
		if !dominated {
			dst = append(dst, r)
		}
	}
	return dst
}

// orientedScores are sc's objectives, oriented for minimisation, and its
// violation of bounds.
func (p *PolicyProblem) orientedScores(sc objectives.Scores, bounds []float64) ([]float64, float64, error) {
	f := make([]float64, len(p.Objs))
	cv, err := p.orientInto(&sc, bounds, f)
	if err != nil {
		return nil, 0, err
	}
	return f, cv, nil
}

// orientInto is orientedScores writing the objectives into f.
func (p *PolicyProblem) orientInto(sc *objectives.Scores, bounds, f []float64) (float64, error) {
	for k, o := range p.Objs {
		v, err := scoreAt(sc, o.Name)
		if err != nil {
			return 0, err
		}
		if o.Maximize {
			v = -v
		}
		f[k] = v
	}
	return p.violationAt(sc, bounds)
}

// screenDominates reports whether r constrained-dominates (s, cv) on the
// screening replay.
func screenDominates(r screenRef, s []float64, cv float64) bool {
	return search.ConstrainedDominates(r.s, r.scv, s, cv)
}

// robustEvaluator is a PolicyProblem's evaluator in robust mode: a
// plain evaluator's candidate decoding, policy renewal and replayer (a
// simulator per replay), the scores of the current candidate's replays
// and the buffers of their aggregate, so that an evaluation allocates
// nothing in steady state.
type robustEvaluator struct {
	pe     *policyEvaluator
	scs    []objectives.Scores
	agg    aggBuf
	screen objectives.Scores // the screening replay's, scaled
	s      []float64         // screen's objectives, oriented
	// evaluated and promoted count the candidates evaluated and those
	// replayed past the screening replay.
	evaluated, promoted int
}

// newRobustEvaluator makes the evaluator of one worker; a bad cluster or
// trace fails here.
func (p *PolicyProblem) newRobustEvaluator() (search.Evaluator, error) {
	rep := ecoreplay.NewReplayer(p.Cluster, p.Options)
	for _, r := range p.robust.replays {
		if err := rep.Check(r.trace); err != nil {
			return nil, err
		}
	}
	pe := &policyEvaluator{p: p, rep: rep}
	pe.mk = pe.policy
	return &robustEvaluator{pe: pe, scs: make([]objectives.Scores, len(p.robust.replays)),
		s: make([]float64, len(p.Objs))}, nil
}

// Evaluate implements Evaluator: the screening replay, then, when the
// candidate is promoted, the others (see Robust).
func (e *robustEvaluator) Evaluate(x, f []float64) (float64, error) {
	p, rb := e.pe.p, e.pe.p.robust
	p.configInto(x, &e.pe.cfg)
	e.evaluated++
	if err := e.replay(rb.screen); err != nil {
		return 0, err
	}
	e.screen = e.scs[rb.screen]
	scaleIn(rb.table, &e.screen, rb.replays[rb.screen].scale)
	scv, err := p.orientInto(&e.screen, rb.screenBounds, e.s)
	if err != nil {
		return 0, err
	}
	for _, r := range rb.front {
		if !screenDominates(r, e.s, scv) {
			continue
		}
		// Not promoted: r's aggregate worsened by the gap on the
		// screening replay, which r dominates.
		for k := range f {
			f[k] = r.f[k] + max(0, e.s[k]-r.s[k])
			if p.Objs[k].Maximize {
				f[k] = -f[k]
			}
		}
		cv := r.cv + max(0, scv-r.scv)
		if r.cv > 0 && cv == r.cv {
			cv = math.Nextafter(cv, math.Inf(1))
		}
		return cv, nil
	}
	e.promoted++
	for i := range rb.replays {
		if i != rb.screen {
			if err := e.replay(i); err != nil {
				return 0, err
			}
		}
	}
	agg := rb.aggregateBuf(e.scs, &e.agg)
	for k, o := range p.Objs {
		if f[k], err = scoreAt(&agg, o.Name); err != nil {
			return 0, err
		}
	}
	return p.violationAt(&agg, p.bounds)
}

// replay scores the current candidate on replay i into e.scs[i], with
// its policy renewed (policies keep state between decisions).
func (e *robustEvaluator) replay(i int) error {
	sc, err := e.pe.rep.Score(e.pe.p.robust.replays[i].trace, e.pe.mk)
	if err != nil {
		return err
	}
	e.scs[i] = sc
	return nil
}

// TrainScores scores configs on the train split: one plain replay each,
// or in robust mode the aggregate of the replays.
func TrainScores(ctx context.Context, sc *Scorer, p *PolicyProblem, train *datasets.Trace, configs []policy.Config) ([]objectives.Scores, error) {
	if p.robust == nil {
		return sc.ScoreConfigs(ctx, train, configs)
	}
	agg, _, err := p.robust.scoreOn(ctx, sc, configs)
	return agg, err
}
