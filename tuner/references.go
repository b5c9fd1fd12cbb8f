package tuner

import (
	"context"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
	"github.com/ecotune/ecotune/tuner/scoring"
)

// Names of the reference policies that bound the hypervolume box.
const (
	AlwaysOn = "always-on"
	Oracle   = "oracle"
	// AlwaysOff stands in for the oracle while no policy of that name is
	// registered.
	AlwaysOff = "always-off"
)

// scoreConfigs replays every config on tr with a Scorer of workers
// goroutines and returns the scores in config order.
func scoreConfigs(tr *datasets.Trace, c sim.Cluster, opt sim.Options, configs []policy.Config, workers int) ([]objectives.Scores, error) {
	sc := scoring.NewScorer(c, opt, max(1, min(workers, len(configs))))
	defer sc.Close()
	return sc.ScoreConfigs(context.Background(), tr, configs)
}

// boundName is the second reference policy: the oracle if registered.
func boundName() string {
	if _, err := policy.Lookup(Oracle); err == nil {
		return Oracle
	}
	return AlwaysOff
}

// objectiveVector extracts the objectives from scores.
func objectiveVector(sc objectives.Scores, objs []Objective) ([]float64, error) {
	f := make([]float64, len(objs))
	for k, o := range objs {
		v, err := sc.Get(o.Name)
		if err != nil {
			return nil, err
		}
		f[k] = v
	}
	return f, nil
}
