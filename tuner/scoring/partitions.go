package scoring

import (
	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/sim"
)

// replayParts runs tr on the Replayer's partitioned cluster, each
// partition under a policy of its own that mk makes (sim.Partitioned).
func (r *Replayer) replayParts(tr *datasets.Trace, mk sim.PolicyMaker) (*sim.Result, error) {
	ps, err := r.partitioned(tr)
	if err != nil {
		return nil, err
	}
	if err := ps.RunInto(mk, &r.res); err != nil {
		return nil, err
	}
	return &r.res, nil
}

// partitioned is the Replayer's partitioned replay of tr, made at the
// first use.
func (r *Replayer) partitioned(tr *datasets.Trace) (*sim.Partitioned, error) {
	if ps, ok := r.parts[tr]; ok {
		return ps, nil
	}
	ps, err := sim.NewPartitioned(tr, r.cluster, r.opt)
	if err != nil {
		return nil, err
	}
	if r.parts == nil {
		r.parts = map[*datasets.Trace]*sim.Partitioned{}
	}
	r.parts[tr] = ps
	return ps, nil
}
