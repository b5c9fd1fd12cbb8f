package reports

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ecotune/ecotune/datasets"
)

// testSplit returns the test part of tr as split (run.json's "split")
// describes it, rebuilt as the tuner built it: "chronological jobs F"
// is datasets.Split by jobs with train share F, and F = 1 (or an empty
// split, or "none") means the run had no holdout: the whole trace.
func testSplit(tr *datasets.Trace, split string) (*datasets.Trace, error) {
	f := strings.Fields(split)
	if len(f) == 0 || split == "none" {
		return tr, nil
	}
	if len(f) != 3 || f[0] != "chronological" || f[1] != "jobs" {
		return nil, fmt.Errorf("reports: split %q of the run: want \"chronological jobs FRACTION\"", split)
	}
	frac, err := strconv.ParseFloat(f[2], 64)
	if err != nil || !(frac > 0 && frac <= 1) {
		return nil, fmt.Errorf("reports: split %q of the run: fraction %q not in (0, 1]", split, f[2])
	}
	if frac == 1 {
		return tr, nil
	}
	_, test, err := datasets.Split(tr, datasets.SplitOptions{Train: frac, By: "jobs"})
	if err != nil {
		return nil, fmt.Errorf("reports: split %q of the run: %w", split, err)
	}
	return test, nil
}
