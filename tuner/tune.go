package tuner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/policy"
	rundir "github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/sim"
	"github.com/ecotune/ecotune/tuner/pick"
	"github.com/ecotune/ecotune/tuner/scoring"
	"github.com/ecotune/ecotune/tuner/search"
)

// Options describe the search of one tuning run: the problem (policy,
// trace and its split, cluster, scheduler, objectives, constraints,
// presets) and the search's settings. Where the run is written and what
// it records about its origin is a rundir.Target; how progress is shown is
// the caller's (Settings.Recorders, Monitor).
type Options struct {
	Policy string
	Trace  *datasets.Trace
	// Split cuts Trace into the train split the search sees and the test
	// split the front is re-evaluated on; the zero Split is
	// rundir.Holdout(0.7), rundir.Holdout(1) has no test split.
	Split       rundir.Split
	Cluster     *sim.Cluster // nil: sim.ClusterFromTrace
	Sim         sim.Options
	Objectives  []Objective          // default DefaultObjectives
	Constraints []scoring.Constraint // on the train split
	Presets     []pick.Preset        // default DefaultPresets
	// PickWindows is the number of train windows a relative preset's bound
	// is also checked on (0: DefaultPickWindows; 1 or negative: none).
	PickWindows int
	// PickLoads are the fractions of the train split's jobs kept in the
	// thinned copies on which a relative preset's bound is also checked
	// (nil: DefaultPickLoads; the one value 1: none).
	PickLoads []float64
	// PickAggregate is how a relative preset's levels on the PickWindows
	// windows make the one that must be at most 1: PickWindowMedian or
	// PickWindowMean ("": DefaultPickAggregate).
	PickAggregate string
	// MaxFront caps the front kept (the members adding the most train
	// hypervolume, greedily); default max(100, 2 × population).
	MaxFront int
	// ReactiveIsland, with two islands or more, gives island 0 the
	// policy's reactive core alone (policy.Spec.Reactive; hgfs: every rule
	// off, no drain, which is idle-timeout), so the front holds the best
	// reactive trade-offs beside the learned ones. Off by default: it
	// helped on one log and hurt on another (docs/experiments.md, "The
	// reactive island").
	ReactiveIsland bool
	// NoScheduleRule fixes the policy's own scheduling rule off
	// (policy.Spec.ScheduleRule; hgfs: drain_lead at its maximum, no
	// drain) in every island, so the front's gains are power decisions'
	// alone and the schedule is always-on's.
	NoScheduleRule bool
	// Robust scores candidates on several replays of the train split
	// (windows, jittered replicas) aggregated; the zero value is one plain
	// replay, the default (see DefaultRobust for the measurements). See
	// Robust.
	Robust scoring.Robust
	// Settings are the search's budget, seed, workers and recorders.
	Settings search.Settings
	// Method is NSGA-II's population and islands (zero fields:
	// search.DefaultNSGA2's).
	Method search.NSGA2
	// Monitor, when set, watches the run (cmd's progress bar): it sees
	// every generation with Status.Hypervolume set to the train split's.
	Monitor Monitor
}

// Monitor watches a tuning run: the progress bar of the command line, a
// web page's live view. Tune calls Record after every generation (with
// Status.Hypervolume set) and Done when its search ends; TuneWindows
// calls Note between its windows.
type Monitor interface {
	search.Recorder
	// Note is a line about the run between searches (TuneWindows: which
	// window starts, which is kept).
	Note(line string)
	// Done says the current search ended; the next Record starts another.
	Done()
}

// Outcome is what Tune wrote.
type Outcome struct {
	Meta        *RunMeta
	Front       *Front // nil when interrupted
	Interrupted bool
}

// Tune tunes a policy on the train split, re-evaluates the front on the
// test split, chooses the presets and writes the run directory t.Dir.
// Cancelling ctx stops the search within the current generation: the
// evaluations finished so far are kept in the checkpoint, Tune returns at
// once (Outcome.Interrupted, no front written) and resuming (t.Resume)
// continues to the front an uninterrupted run writes. A resume whose problem or settings differ from
// the checkpoint's is refused with a *rundir.MismatchError naming the fields.
func Tune(ctx context.Context, o Options, t rundir.Target) (*Outcome, error) {
	start := time.Now()
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	su, err := newSetup(ctx, o, func() error { return t.Start(KindSingle) })
	if err != nil {
		return nil, err
	}
	defer su.scorer.Close()
	prob, norm, refs, train, test, scorer, s := su.prob, su.norm, su.refs, su.train, su.test, su.scorer, su.s
	root, err := t.OpenRoot() // every file of the run is reached through it
	if err != nil {
		return nil, err
	}
	defer root.Close()
	ckw := &search.CheckpointWriter{Dir: t.Dir, Root: root.OS()}
	defer ckw.Close()
	s.Recorders = append(slices.Clip(s.Recorders), ckw)
	if o.Monitor != nil {
		prog := scoring.NewProgress(norm)
		s.Recorders = append(s.Recorders, search.RecorderFunc(func(st *search.Status) error {
			st.Hypervolume = prog.Add(st.Front) // best so far: never falls
			return o.Monitor.Record(st)
		}))
	}
	if t.Resume {
		if s.Resume, err = search.ReadCheckpointIn(root.OS()); err != nil {
			return nil, err
		}
	}
	res, err := search.Minimize(ctx, prob, s, su.m)
	if o.Monitor != nil {
		o.Monitor.Done()
	}
	if err != nil {
		return nil, err
	}
	interrupted := &Outcome{Meta: &RunMeta{Seed: s.Seed, Policy: o.Policy, Evaluations: res.Evaluations,
		Generations: res.Generations, Interrupted: true}, Interrupted: true}
	if res.Interrupted {
		// Stop now: re-scoring the front so far on both splits could take
		// long; the checkpoint holds every finished evaluation.
		return interrupted, nil
	}
	front, err := scoring.BuildFront(ctx, scorer, prob, res.Archive, o.Objectives, o.MaxFront, norm, train, test)
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return interrupted, nil // the checkpoint is the last generation's: resuming writes the front
	}
	if err != nil {
		return nil, err
	}
	win, err := pick.ScoreWindows(ctx, scorer, o.pickChecks(), train, front)
	if errors.Is(err, context.Canceled) && ctx.Err() != nil {
		return interrupted, nil
	}
	if err != nil {
		return nil, err
	}
	meta, err := runMeta(o, t.Provenance, prob, res, front, refs, win, train, test)
	if err != nil {
		return nil, err
	}
	meta.WallSeconds = time.Since(start).Seconds()
	if err := root.Save(meta, front); err != nil {
		return nil, err
	}
	return &Outcome{Meta: meta, Front: front, Interrupted: res.Interrupted}, nil
}

// fixEverywhere adds the fixed variables of fix to every island's.
func fixEverywhere(fixed []map[int]float64, fix map[int]float64, islands int) []map[int]float64 {
	out := make([]map[int]float64, islands)
	for i := range out {
		out[i] = map[int]float64{}
		if i < len(fixed) {
			maps.Copy(out[i], fixed[i])
		}
		maps.Copy(out[i], fix)
	}
	return out
}

// setup is what a search derives from its Options: the splits, the
// scorer, the references, the problem, the train split's hypervolume box
// and the settings (with the policy's seeds, the reactive island and the
// fingerprint). Tune, an island that runs apart and a merge share it.
type setup struct {
	train, test *datasets.Trace
	scorer      *scoring.Scorer
	refs        map[string]Reference
	prob        *scoring.PolicyProblem
	norm        scoring.Normalizer
	s           search.Settings
	m           search.NSGA2
}

// newSetup makes the setup of o (with its defaults); prepare, when set,
// runs once the splits are cut. The caller closes su.scorer.
func newSetup(ctx context.Context, o Options, prepare func() error) (*setup, error) {
	spec, err := policy.Lookup(o.Policy)
	if err != nil {
		return nil, err
	}
	train, test, err := o.Split.Apply(o.Trace)
	if err != nil {
		return nil, fmt.Errorf("tuner: %w", err)
	}
	if prepare != nil {
		if err := prepare(); err != nil {
			return nil, err
		}
	}
	scorer := scoring.NewScorer(*o.Cluster, o.Sim, o.Settings.Workers)
	su := &setup{train: train, test: test, scorer: scorer}
	fail := func(err error) (*setup, error) {
		scorer.Close()
		return nil, err
	}
	if su.refs, err = scoring.References(ctx, scorer, train, test); err != nil {
		return fail(err)
	}
	if o.Robust.IsZero() {
		su.prob, err = scoring.NewPolicyProblem(spec, train, *o.Cluster, o.Sim, o.Objectives, o.Constraints, su.refs[scoring.AlwaysOn].Train)
	} else {
		var re *scoring.RobustEval
		if re, err = scoring.NewRobustEval(ctx, o.Robust, o.Settings.Seed, scorer, train, su.refs); err != nil {
			return fail(err)
		}
		su.prob, err = scoring.NewRobustPolicyProblem(ctx, re, scorer, o.Method.Population, o.NoScheduleRule,
			spec, train, *o.Cluster, o.Sim, o.Objectives, o.Constraints, su.refs[scoring.AlwaysOn].Train)
	}
	if err != nil {
		return fail(err)
	}
	if su.norm, err = scoring.TrainNormalizer(su.refs, o.Objectives); err != nil {
		return fail(err)
	}
	s, m := o.Settings, o.Method
	s.Initial = su.prob.Seeds()
	if fixed := su.prob.ReactiveFixed(); o.ReactiveIsland && fixed != nil && m.Islands > 1 {
		m.Fixed = []map[int]float64{fixed} // island 0 searches the reactive core
	}
	if off := su.prob.ScheduleRuleFixed(); o.NoScheduleRule && off != nil {
		m.Fixed = fixEverywhere(m.Fixed, off, m.Islands)
	}
	s.Fingerprint = o.fingerprint()
	s.Pool = scorer.Pool()
	su.s, su.m = s, m
	return su, nil
}

func (o Options) withDefaults() (Options, error) {
	if o.Trace == nil {
		return o, errors.New("tuner: no trace")
	}
	if o.Split.IsZero() {
		o.Split = rundir.Holdout(0.7)
	}
	if o.Objectives == nil {
		o.Objectives = scoring.DefaultObjectives()
	}
	if o.Presets == nil {
		o.Presets = pick.DefaultPresets()
	}
	o.Settings = o.Settings.WithDefaults()
	o.Method = o.Method.WithDefaults()
	var err error
	if err := pick.ValidPickLoads(o.PickLoads); err != nil {
		return o, err
	}
	if err := pick.ValidPickAggregate(o.PickAggregate); err != nil {
		return o, err
	}
	if o.Robust, err = scoring.NormalizeRobust(o.Robust); err != nil {
		return o, err
	}
	if o.MaxFront == 0 {
		o.MaxFront = max(100, 2*o.Method.Population)
	}
	if o.Cluster == nil {
		c, err := sim.ClusterFromTrace(o.Trace.Meta)
		if err != nil {
			return o, err
		}
		o.Cluster = &c
	}
	return o, nil
}

// fingerprint names what of o changes a run's results beyond what
// Minimize fingerprints itself (variables and their bounds, objectives,
// seed, search settings): a resume with any of these changed is refused.
func (o Options) fingerprint() rundir.Fingerprint {
	cons := make([]string, len(o.Constraints))
	for i, c := range o.Constraints {
		cons[i] = c.String()
	}
	scheduler := o.Sim.Scheduler
	if scheduler == "" {
		scheduler = sim.FCFS
	}
	simOpt := o.Sim // the rest of the simulator's options
	simOpt.Scheduler = ""
	f := rundir.Fingerprint{
		"trace":            TraceDigest(o.Trace),
		"split":            o.Split.String(),
		"policy":           o.Policy,
		"cluster":          rundir.FingerprintValue(o.Cluster),
		"scheduler":        scheduler,
		"sim":              rundir.FingerprintValue(simOpt),
		"constraints":      rundir.FingerprintValue(cons),
		"presets":          rundir.FingerprintValue(o.Presets),
		"max_front":        rundir.FingerprintValue(o.MaxFront),
		"reactive_island":  rundir.FingerprintValue(o.ReactiveIsland),
		"no_schedule_rule": rundir.FingerprintValue(o.NoScheduleRule),
	}
	if !o.Robust.IsZero() {
		f["robust"] = rundir.FingerprintValue(o.Robust) // absent for plain runs: their checkpoints resume as before
	}
	return f
}

// runMeta fills run.json.
func runMeta(o Options, pv rundir.Provenance, prob *scoring.PolicyProblem, res *search.Result, front *Front, refs map[string]Reference, win *pick.Windows, train, test *datasets.Trace) (*RunMeta, error) {
	cluster, err := json.Marshal(o.Cluster)
	if err != nil {
		return nil, fmt.Errorf("tuner: cluster: %w", err)
	}
	m := &RunMeta{
		Seed:        o.Settings.Seed,
		Policy:      o.Policy,
		TraceSHA256: traceDigest(o.Trace),
		Split:       o.Split,
		Cluster:     cluster,
		Scheduler:   o.Sim.Scheduler,
		Evaluations: res.Evaluations,
		Generations: res.Generations,
		Hypervolume: map[string]float64{},
		References:  refs,
		Objectives:  o.Objectives,
		Population:  o.Method.Population,
		Islands:     o.Method.Islands,
		TrainJobs:   len(train.Jobs),
		Interrupted: res.Interrupted,
		Normalizers: map[string]rundir.Normalizer{},
	}
	m.SetProvenance(pv)
	if !o.Robust.IsZero() {
		r := o.Robust
		m.Robust = &r
	}
	if r := prob.Spec.ScheduleRule; r != nil {
		m.ScheduleRule = r.Name + " searched"
		if o.NoScheduleRule {
			m.ScheduleRule = r.Name + " off"
		}
	}
	if m.Scheduler == "" {
		m.Scheduler = sim.FCFS
	}
	for _, c := range o.Constraints {
		m.Constraints = append(m.Constraints, c.String())
	}
	if test != nil {
		m.TestJobs = len(test.Jobs)
	}
	bound := scoring.BoundName()
	for _, split := range []string{"train", "test"} {
		a, b, ok := refs[scoring.AlwaysOn].On(split), refs[bound].On(split), true
		if a == nil || b == nil {
			continue
		}
		fa, err := scoring.ObjectiveVector(*a, o.Objectives)
		if err != nil {
			return nil, err
		}
		fb, _ := scoring.ObjectiveVector(*b, o.Objectives)
		norm := scoring.NewNormalizer(o.Objectives, fa, fb)
		var pts [][]float64
		for _, s := range front.Solutions {
			sc := s.On(split)
			if sc == nil {
				ok = false
				break
			}
			f, _ := scoring.ObjectiveVector(*sc, o.Objectives)
			pts = append(pts, f)
		}
		if ok {
			m.Hypervolume[split] = norm.Hypervolume(pts)
			m.Normalizers[split] = rundir.Normalizer(norm)
		}
	}
	for _, p := range o.Presets {
		ch, err := p.ChooseWindows(front.Solutions, o.Objectives, refs[scoring.AlwaysOn].Train, win)
		if err != nil {
			return nil, err
		}
		if err := p.Assess(&ch, front.Solutions, refs[scoring.AlwaysOn].Test); err != nil {
			return nil, err
		}
		if err := p.Hindsight(&ch, front.Solutions, o.Objectives, refs[scoring.AlwaysOn].Test); err != nil {
			return nil, err
		}
		m.Presets = append(m.Presets, ch)
		if ch.Row >= 0 {
			front.Solutions[ch.Row].Presets = append(front.Solutions[ch.Row].Presets, p.Name)
		}
	}
	return m, nil
}

// TraceDigest is the trace's SHA-256 as run.json records it
// (scoring.TraceDigest).
func TraceDigest(tr *datasets.Trace) string { return scoring.TraceDigest(tr) }

func traceDigest(tr *datasets.Trace) string { return scoring.TraceDigest(tr) }

// pickChecks are o's checks of the presets' bounds beyond the train split.
func (o Options) pickChecks() pick.Checks {
	return pick.Checks{Windows: o.PickWindows, Loads: o.PickLoads, Aggregate: o.PickAggregate, Presets: o.Presets, Seed: o.Settings.Seed}
}
