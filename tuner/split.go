package tuner

import (
	"fmt"

	"github.com/ecotune/ecotune/datasets"
)

// holdout splits tr chronologically by jobs: the first frac of the jobs
// (in submit order) train, the rest test. frac = 1 gives no test split.
func holdout(tr *datasets.Trace, frac float64) (train, test *datasets.Trace, err error) {
	if !(frac > 0 && frac <= 1) {
		return nil, nil, fmt.Errorf("tuner: train fraction %g: want (0, 1]", frac)
	}
	n := int(frac * float64(len(tr.Jobs)))
	if n < 1 {
		return nil, nil, fmt.Errorf("tuner: train fraction %g of %d jobs leaves no training job", frac, len(tr.Jobs))
	}
	train = &datasets.Trace{Meta: tr.Meta, Jobs: tr.Jobs[:n:n]}
	if n == len(tr.Jobs) {
		return train, nil, nil
	}
	return train, &datasets.Trace{Meta: tr.Meta, Jobs: tr.Jobs[n:]}, nil
}
