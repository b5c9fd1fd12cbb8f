package tuner

import (
	"fmt"

	"github.com/ecotune/ecotune/datasets"
	rundir "github.com/ecotune/ecotune/run"
)

// splitName is how run.json's "split" describes a holdout by jobs with
// train fraction frac.
func splitName(frac float64) string { return rundir.Holdout(frac).String() }

// holdout splits tr chronologically by jobs: the first round(frac·n) jobs
// (in submit order) train, the rest test. frac = 1 gives no test split.
func holdout(tr *datasets.Trace, frac float64) (train, test *datasets.Trace, err error) {
	return rundir.Holdout(frac).Apply(tr)
}

// HoldoutOf rebuilds the train and test splits of a run from its trace and
// run.json's "split" text (rundir.ParseSplit, then Split.Apply). An empty
// split, "none" or a fraction of 1 means the run had no holdout: the whole
// trace trains and test is nil.
func HoldoutOf(tr *datasets.Trace, split string) (train, test *datasets.Trace, err error) {
	s, err := rundir.ParseSplit(split)
	if err != nil {
		return nil, nil, fmt.Errorf("tuner: %w", err)
	}
	if train, test, err = s.Apply(tr); err != nil {
		return nil, nil, fmt.Errorf("split %q of the run: %w", split, err)
	}
	return train, test, nil
}
