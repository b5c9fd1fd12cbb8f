package replay

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
)

// A Replayer is one worker's replay state for many configurations on a
// cluster: a simulator per trace (a sim.Partitioned when the cluster has
// partitions), made at the first replay of the trace and kept (keyed by
// the *datasets.Trace, which must not change afterwards), the result and
// the scores' scratch space, reused by every replay, and the last policy
// made of each kind, renewed for the next configuration
// (policy.Spec.Renew). Replays after the first of a trace allocate
// nothing a policy's renewal does not. A Replayer is not safe for
// concurrent use: keep one per worker.
type Replayer struct {
	cluster sim.Cluster
	opt     sim.Options
	sims    map[*datasets.Trace]*sim.Simulator
	parts   map[*datasets.Trace]*sim.Partitioned
	res     sim.Result
	scorer  objectives.Scorer
	specs   map[string]policy.Spec
	pols    map[string]policy.Policy
}

// NewReplayer makes a replayer on cluster c with simulator options opt.
func NewReplayer(c sim.Cluster, opt sim.Options) *Replayer {
	return &Replayer{cluster: c, opt: opt, sims: map[*datasets.Trace]*sim.Simulator{},
		parts: map[*datasets.Trace]*sim.Partitioned{}, specs: map[string]policy.Spec{}, pols: map[string]policy.Policy{}}
}

// Policy makes the policy c describes, as policy.New does, renewing the
// last policy of its kind (the previous replay is over), except with
// partitions, where a replay makes one policy per partition.
func (r *Replayer) Policy(c policy.Config) (policy.Policy, error) {
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

// Replay runs a policy mk makes on tr (one per partition when the
// cluster has partitions). The result is the replayer's, reused by the
// next replay: copy what is kept.
func (r *Replayer) Replay(tr *datasets.Trace, mk sim.PolicyMaker) (*sim.Result, error) {
	if len(r.cluster.Partitions) > 0 {
		ps, err := r.partitioned(tr)
		if err != nil {
			return nil, err
		}
		if err := ps.RunInto(mk, &r.res); err != nil {
			return nil, err
		}
		return &r.res, nil
	}
	p, err := mk()
	if err != nil {
		return nil, err
	}
	s, err := r.simulator(tr)
	if err != nil {
		return nil, err
	}
	if err := s.RunInto(p, &r.res); err != nil {
		return nil, err
	}
	return &r.res, nil
}

// ReplayConfig replays c on tr (Replay with r.Policy(c)).
func (r *Replayer) ReplayConfig(tr *datasets.Trace, c policy.Config) (*sim.Result, error) {
	return r.Replay(tr, func() (policy.Policy, error) { return r.Policy(c) })
}

// Score replays a policy mk makes on tr and scores the replay with the
// replayer's scratch space; a NaN qos_p90 is an error.
func (r *Replayer) Score(tr *datasets.Trace, mk sim.PolicyMaker) (objectives.Scores, error) {
	res, err := r.Replay(tr, mk)
	if err != nil {
		return objectives.Scores{}, err
	}
	return r.Compute(res)
}

// Compute scores res (a replay's result) with the replayer's scratch
// space; a NaN qos_p90 is an error.
func (r *Replayer) Compute(res *sim.Result) (objectives.Scores, error) {
	sc := r.scorer.Compute(res)
	if math.IsNaN(sc.QoSP90) {
		return sc, fmt.Errorf("qos_p90 is NaN")
	}
	return sc, nil
}

// Check makes the replayer's simulator of tr now, reporting whether tr
// can be replayed on the cluster, so that the first replay does not.
func (r *Replayer) Check(tr *datasets.Trace) error {
	if len(r.cluster.Partitions) > 0 {
		_, err := r.partitioned(tr)
		return err
	}
	_, err := r.simulator(tr)
	return err
}

// simulator is the replayer's simulator of tr, made at the first use.
func (r *Replayer) simulator(tr *datasets.Trace) (*sim.Simulator, error) {
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

// partitioned is the replayer's partitioned replay of tr, made at the
// first use.
func (r *Replayer) partitioned(tr *datasets.Trace) (*sim.Partitioned, error) {
	if ps, ok := r.parts[tr]; ok {
		return ps, nil
	}
	ps, err := sim.NewPartitioned(tr, r.cluster, r.opt)
	if err != nil {
		return nil, err
	}
	r.parts[tr] = ps
	return ps, nil
}

// A Task is one replay of Each: a configuration on a trace.
type Task struct {
	Trace  *datasets.Trace
	Config policy.Config
}

// Each replays every task on cluster c with options opt, on workers
// goroutines (0: GOMAXPROCS, never more than the tasks), each with a
// Replayer of its own, and hands each result to keep(i, result) on the
// worker that ran it; the result is reused afterwards, so keep copies
// what it needs. Results do not depend on the number of workers.
// Cancelling ctx stops handing out tasks (the begun ones finish) and
// returns ctx's error. Otherwise the error is that of the first failed
// task in task order, naming its config.
func Each(ctx context.Context, c sim.Cluster, opt sim.Options, workers int, tasks []Task, keep func(i int, r *sim.Result) error) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, len(tasks)))
	errs := make([]error, len(tasks))
	var next atomic.Int64
	var wg sync.WaitGroup
	work := func(rep *Replayer) {
		for i := int(next.Add(1) - 1); i < len(tasks) && ctx.Err() == nil; i = int(next.Add(1) - 1) {
			t := tasks[i]
			r, err := rep.ReplayConfig(t.Trace, t.Config)
			if err == nil {
				err = keep(i, r)
			}
			if err != nil {
				errs[i] = fmt.Errorf("tuner: %s: %w", t.Config.Name, err)
			}
		}
	}
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work(NewReplayer(c, opt))
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
