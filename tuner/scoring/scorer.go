package scoring

import (
	"context"
	"fmt"
	"math"
	"runtime"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
	"github.com/ecotune/ecotune/tuner/search"
)

// Scorer replays policy configurations on traces and scores them: the one
// scoring service of the module (the search's evaluations, the reference
// policies, the front's re-evaluation on train and test, `ecotune
// compare` and `simulate`). It runs one pool of workers, each with its own
// simulator per trace, so one config can be scored on several traces or
// windows (robust evaluation) in one call. Results come back in task
// order and do not depend on the number of workers or on GOMAXPROCS.
// A Scorer is safe for concurrent use; Close stops its workers. Each
// worker keeps the simulator of every trace it has replayed (keyed by the
// *datasets.Trace, which must not change afterwards) until Close.
type Scorer struct {
	cluster sim.Cluster
	opt     sim.Options
	pool    *search.Workers
	reps    []*Replayer
}

// ScoreTask is one replay: a config on a trace.
type ScoreTask struct {
	Trace  *datasets.Trace
	Config policy.Config
}

// NewScorer makes a scorer for cluster c and simulator options opt with
// workers goroutines (0: GOMAXPROCS).
func NewScorer(c sim.Cluster, opt sim.Options, workers int) *Scorer {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	s := &Scorer{cluster: c, opt: opt, pool: search.NewWorkers(workers), reps: make([]*Replayer, workers)}
	for i := range s.reps {
		s.reps[i] = NewReplayer(c, opt)
	}
	return s
}

// Workers is the number of workers.
func (s *Scorer) Workers() int { return s.pool.N() }

// Close stops the workers.
func (s *Scorer) Close() { s.pool.Close() }

// Pool is the Scorer's worker pool, which a search shares
// (search.Settings.Pool).
func (s *Scorer) Pool() *search.Workers { return s.pool }

// Replay runs every task and hands each result to keep(i, result) on the
// worker that ran it; result is reused afterwards, so keep copies what it
// needs. Cancelling ctx stops handing out tasks (the begun ones finish)
// and returns ctx's error. The errors of failed tasks are joined, each
// naming its config.
func (s *Scorer) Replay(ctx context.Context, tasks []ScoreTask, keep func(i int, r *sim.Result) error) error {
	return s.replay(ctx, tasks, func(_, i int, r *sim.Result) error { return keep(i, r) })
}

// replay is Replay with the worker's index.
func (s *Scorer) replay(ctx context.Context, tasks []ScoreTask, keep func(w, i int, r *sim.Result) error) error {
	errs := make([]error, len(tasks))
	_, err := s.pool.Run(ctx, len(tasks), func(w, i int) {
		t := tasks[i]
		r, err := s.reps[w].replay(t.Trace, func() (policy.Policy, error) { return s.reps[w].policy(t.Config) })
		if err == nil {
			err = keep(w, i, r)
		}
		if err != nil {
			errs[i] = fmt.Errorf("tuner: %s: %w", t.Config.Name, err)
		}
	})
	if err != nil {
		return err
	}
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// Score replays every task and returns the scores in task order.
func (s *Scorer) Score(ctx context.Context, tasks []ScoreTask) ([]objectives.Scores, error) {
	out := make([]objectives.Scores, len(tasks))
	err := s.replay(ctx, tasks, func(w, i int, r *sim.Result) error {
		out[i] = s.reps[w].scorer.Compute(r)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ScoreConfigs scores every config on tr, in config order.
func (s *Scorer) ScoreConfigs(ctx context.Context, tr *datasets.Trace, configs []policy.Config) ([]objectives.Scores, error) {
	tasks := make([]ScoreTask, len(configs))
	for i, c := range configs {
		tasks[i] = ScoreTask{Trace: tr, Config: c}
	}
	return s.Score(ctx, tasks)
}

// ScoreOn scores every config on every trace (windows of one trace, or
// traces of several clusters' days): out[i][k] is config i on traces[k].
func (s *Scorer) ScoreOn(ctx context.Context, traces []*datasets.Trace, configs []policy.Config) ([][]objectives.Scores, error) {
	tasks := make([]ScoreTask, 0, len(traces)*len(configs))
	for _, c := range configs {
		for _, tr := range traces {
			tasks = append(tasks, ScoreTask{Trace: tr, Config: c})
		}
	}
	flat, err := s.Score(ctx, tasks)
	if err != nil {
		return nil, err
	}
	out := make([][]objectives.Scores, len(configs))
	for i := range out {
		out[i] = flat[i*len(traces) : (i+1)*len(traces)]
	}
	return out, nil
}

// Replayer is one worker's scoring state: a simulator per trace, a
// result and a score buffer reused across replays. The search's
// evaluators (PolicyProblem) and the Scorer's workers both replay through
// it.
type Replayer struct {
	cluster sim.Cluster
	opt     sim.Options
	sims    map[*datasets.Trace]*sim.Simulator
	parts   map[*datasets.Trace]*sim.Partitioned // a partitioned cluster's (partitions.go)
	res     sim.Result
	scorer  objectives.Scorer
	// specs and pols are the specs looked up so far and the last policy
	// made of each, renewed for the next config (policy.Spec.Renew).
	specs map[string]policy.Spec
	pols  map[string]policy.Policy
}

func NewReplayer(c sim.Cluster, opt sim.Options) *Replayer {
	return &Replayer{cluster: c, opt: opt, sims: map[*datasets.Trace]*sim.Simulator{},
		specs: map[string]policy.Spec{}, pols: map[string]policy.Policy{}}
}

// policy makes the policy c describes, as policy.New does, renewing the
// last policy of its kind (the previous replay is over), except with
// partitions, where a replay makes one policy per partition.
func (r *Replayer) policy(c policy.Config) (policy.Policy, error) {
	spec, ok := r.specs[c.Name]
	if !ok {
		var err error
		if spec, err = policy.Lookup(c.Name); err != nil {
			return nil, err
		}
		r.specs[c.Name] = spec
	}
	if len(r.cluster.Partitions) > 0 {
		return spec.New(c)
	}
	p, err := spec.Renew(r.pols[c.Name], c)
	if err != nil {
		delete(r.pols, c.Name)
		return nil, err
	}
	r.pols[c.Name] = p
	return p, nil
}

// replay runs a policy mk makes on tr (one per partition when the
// cluster has partitions); the result is the Replayer's, reused by the
// next replay.
func (r *Replayer) replay(tr *datasets.Trace, mk sim.PolicyMaker) (*sim.Result, error) {
	if len(r.cluster.Partitions) > 0 {
		return r.replayParts(tr, mk)
	}
	p, err := mk()
	if err != nil {
		return nil, err
	}
	s, err := r.Simulator(tr)
	if err != nil {
		return nil, err
	}
	if err := s.RunInto(p, &r.res); err != nil {
		return nil, err
	}
	return &r.res, nil
}

// Simulator is the Replayer's simulator of tr, made at the first use
// (with a partitioned cluster, only checked: see partitioned).
func (r *Replayer) Simulator(tr *datasets.Trace) (*sim.Simulator, error) {
	if len(r.cluster.Partitions) > 0 {
		_, err := r.partitioned(tr)
		return nil, err
	}
	if s, ok := r.sims[tr]; ok {
		return s, nil
	}
	s, err := sim.New(tr, r.cluster, r.opt)
	if err != nil {
		return nil, err
	}
	r.sims[tr] = s
	return s, nil
}

// Score replays a policy mk makes on tr and scores the run.
func (r *Replayer) Score(tr *datasets.Trace, mk sim.PolicyMaker) (objectives.Scores, error) {
	res, err := r.replay(tr, mk)
	if err != nil {
		return objectives.Scores{}, err
	}
	sc := r.scorer.Compute(res)
	if math.IsNaN(sc.QoSP90) {
		return sc, fmt.Errorf("qos_p90 is NaN")
	}
	return sc, nil
}
