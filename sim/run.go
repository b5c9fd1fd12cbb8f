package sim

import (
	"errors"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/policy"
)

// A Simulator replays one trace on one cluster. It keeps its buffers
// between runs, so repeated runs do not allocate; one Simulator must not
// run two policies at once (make one per goroutine).
type Simulator struct{}

// New prepares a replay of tr on c. It fails if a job needs more slots than
// the cluster has or the cluster is invalid.
func New(tr *datasets.Trace, c Cluster, opt Options) (*Simulator, error) {
	return nil, errors.New("sim.New: not implemented yet")
}

// Run replays the trace under p and returns what happened. The Result is
// the caller's (it is not reused by the next Run).
func (s *Simulator) Run(p policy.Policy) (*Result, error) {
	return nil, errors.New("sim.Run: not implemented yet")
}

// Run is New followed by one Run.
func Run(tr *datasets.Trace, c Cluster, p policy.Policy, opt Options) (*Result, error) {
	s, err := New(tr, c, opt)
	if err != nil {
		return nil, err
	}
	return s.Run(p)
}

// ClusterFromTrace builds the cluster a trace's header describes (MaxNodes
// nodes of MaxProcs/MaxNodes slots) with the ESCS power model.
func ClusterFromTrace(m datasets.Meta) (Cluster, error) {
	return Cluster{}, errors.New("sim.ClusterFromTrace: not implemented yet")
}
