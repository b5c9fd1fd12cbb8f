package reports

import (
	"fmt"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/run"
)

// testSplit returns the part of tr the run's solutions were tested on, as
// run.json's "split" describes it; a run without a holdout was tested on
// the whole trace.
func testSplit(tr *datasets.Trace, split string) (*datasets.Trace, error) {
	s, err := run.ParseSplit(split)
	if err != nil {
		return nil, fmt.Errorf("reports: %w", err)
	}
	_, test, err := s.Apply(tr)
	if err != nil {
		return nil, fmt.Errorf("reports: %w", err)
	}
	if test == nil {
		return tr, nil
	}
	return test, nil
}
