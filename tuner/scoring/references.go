package scoring

import (
	"context"
	"fmt"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/policy"
	rundir "github.com/ecotune/ecotune/run"
)

// Names of the reference policies that bound the hypervolume box.
const (
	AlwaysOn = "always-on"
	Oracle   = "oracle"
	// AlwaysOff stands in for the oracle while no policy of that name is
	// registered.
	AlwaysOff = "always-off"
)

// BoundName is the second reference policy: the oracle if registered.
func BoundName() string {
	if _, err := policy.Lookup(Oracle); err == nil {
		return Oracle
	}
	return AlwaysOff
}

// ObjectiveVector extracts the objectives from scores.
func ObjectiveVector(sc objectives.Scores, objs []Objective) ([]float64, error) {
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

// References scores always-on and the oracle (the hypervolume box) on
// both splits.
func References(ctx context.Context, sc *Scorer, train, test *datasets.Trace) (map[string]rundir.Reference, error) {
	names := []string{AlwaysOn, BoundName()}
	configs := make([]policy.Config, len(names))
	for i, n := range names {
		spec, err := policy.Lookup(n)
		if err != nil {
			return nil, err
		}
		configs[i] = spec.Fill(policy.Config{Name: n})
	}
	tr, err := sc.ScoreConfigs(ctx, train, configs)
	if err != nil {
		return nil, fmt.Errorf("tuner: references on the train split: %w", err)
	}
	var te []objectives.Scores
	if test != nil {
		if te, err = sc.ScoreConfigs(ctx, test, configs); err != nil {
			return nil, fmt.Errorf("tuner: references on the test split: %w", err)
		}
	}
	refs := make(map[string]rundir.Reference, len(names))
	for i, n := range names {
		r := rundir.Reference{Config: configs[i], Train: tr[i]}
		if te != nil {
			r.Test = &te[i]
		}
		refs[n] = r
	}
	return refs, nil
}
