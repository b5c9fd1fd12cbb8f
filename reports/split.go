package reports

import (
	"fmt"

	"github.com/ecotune/ecotune/datasets"
)

// testSplit returns the test part of tr as split (run.json's "split")
// describes it; an empty split means the run had no holdout, and the
// whole trace is used.
func testSplit(tr *datasets.Trace, split string) (*datasets.Trace, error) {
	if split == "" || split == "none" {
		return tr, nil
	}
	return nil, fmt.Errorf("reports: cannot rebuild the test split %q of the run: pass the test trace", split)
}
