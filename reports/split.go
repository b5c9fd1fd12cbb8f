package reports

import (
	"fmt"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/tuner"
)

// testSplit returns the part of tr the run's solutions were tested on, as
// run.json's "split" describes it (tuner.HoldoutOf); a run without a
// holdout was tested on the whole trace.
func testSplit(tr *datasets.Trace, split string) (*datasets.Trace, error) {
	_, test, err := tuner.HoldoutOf(tr, split)
	if err != nil {
		return nil, fmt.Errorf("reports: %w", err)
	}
	if test == nil {
		return tr, nil
	}
	return test, nil
}
