package tuner

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ecotune/ecotune/datasets"
)

// splitName is how run.json's "split" describes a holdout by jobs with
// train fraction frac; HoldoutOf reads it back.
func splitName(frac float64) string { return fmt.Sprintf("chronological jobs %g", frac) }

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

// HoldoutOf rebuilds the train and test splits of a run from its trace and
// run.json's "split" ("chronological jobs F"), exactly as Tune built them.
// An empty split, "none" or F = 1 means the run had no holdout: the whole
// trace trains and test is nil.
func HoldoutOf(tr *datasets.Trace, split string) (train, test *datasets.Trace, err error) {
	f := strings.Fields(split)
	if len(f) == 0 || split == "none" {
		return tr, nil, nil
	}
	if len(f) != 3 || f[0] != "chronological" || f[1] != "jobs" {
		return nil, nil, fmt.Errorf("tuner: split %q of the run: want \"chronological jobs FRACTION\"", split)
	}
	frac, err := strconv.ParseFloat(f[2], 64)
	if err != nil || !(frac > 0 && frac <= 1) {
		return nil, nil, fmt.Errorf("tuner: split %q of the run: fraction %q not in (0, 1]", split, f[2])
	}
	if train, test, err = holdout(tr, frac); err != nil {
		return nil, nil, fmt.Errorf("split %q of the run: %w", split, err)
	}
	return train, test, nil
}
