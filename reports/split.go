package reports

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ecotune/ecotune/datasets"
)

// testSplit returns the test part of tr as split (run.json's "split")
// describes it: "chronological jobs F" holds out the jobs after the first
// floor(F·n), as the tuner does. An empty split (or "none") means the run
// had no holdout, and the whole trace is used.
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
	n := int(frac * float64(len(tr.Jobs)))
	if n == len(tr.Jobs) {
		return tr, nil
	}
	return &datasets.Trace{Meta: tr.Meta, Jobs: tr.Jobs[n:]}, nil
}
