package tuner

import (
	"fmt"

	"github.com/ecotune/ecotune/datasets"
)

// holdout splits tr chronologically by jobs with datasets.Split: the first
// round(frac·n) jobs (in submit order) train, the rest test. frac = 1
// gives no test split.
func holdout(tr *datasets.Trace, frac float64) (train, test *datasets.Trace, err error) {
	if frac == 1 {
		return tr, nil, nil
	}
	train, test, err = datasets.Split(tr, datasets.SplitOptions{Train: frac, By: "jobs"})
	if err != nil {
		return nil, nil, fmt.Errorf("tuner: %w", err)
	}
	if len(train.Jobs) == 0 || len(test.Jobs) == 0 {
		return nil, nil, fmt.Errorf("tuner: train fraction %g of %d jobs leaves an empty split", frac, len(tr.Jobs))
	}
	return train, test, nil
}
