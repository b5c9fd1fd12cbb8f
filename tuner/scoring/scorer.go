package scoring

import (
	"context"
	"fmt"
	"runtime"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/policy"
	ecoreplay "github.com/ecotune/ecotune/replay"
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
	reps    []*ecoreplay.Replayer
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
	s := &Scorer{cluster: c, opt: opt, pool: search.NewWorkers(workers), reps: make([]*ecoreplay.Replayer, workers)}
	for i := range s.reps {
		s.reps[i] = ecoreplay.NewReplayer(c, opt)
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
		r, err := s.reps[w].ReplayConfig(t.Trace, t.Config)
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
		// A NaN qos_p90 is kept, not an error: the scores say so.
		out[i], _ = s.reps[w].Compute(r)
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
