package tuner

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
)

// Names of the reference policies that bound the hypervolume box.
const (
	AlwaysOn = "always-on"
	Oracle   = "oracle"
	// AlwaysOff stands in for the oracle while no policy of that name is
	// registered.
	AlwaysOff = "always-off"
)

// scoreConfigs replays every config on tr with up to workers simulators
// and returns the scores in config order.
func scoreConfigs(tr *datasets.Trace, c sim.Cluster, opt sim.Options, configs []policy.Config, workers int) ([]objectives.Scores, error) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, len(configs)))
	out := make([]objectives.Scores, len(configs))
	errs := make([]error, len(configs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		s, err := sim.New(tr, c, opt)
		if err != nil {
			return nil, err
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i], errs[i] = scoreOne(s, configs[i])
			}
		}()
	}
	for i := range configs {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("tuner: %s: %w", configs[i].Name, err)
		}
	}
	return out, nil
}

func scoreOne(s *sim.Simulator, c policy.Config) (objectives.Scores, error) {
	p, err := policy.New(c)
	if err != nil {
		return objectives.Scores{}, err
	}
	r, err := s.Run(p)
	if err != nil {
		return objectives.Scores{}, err
	}
	return objectives.Compute(r), nil
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
