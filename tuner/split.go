package tuner

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ecotune/ecotune/datasets"
)

// JobSplit is a chronological split by job index: jobs [From, Cut) of the
// trace (0-based, in submit order) train and jobs [Cut, To) test. Jobs
// outside [From, To) take no part. Rolling-origin validation (TuneWindows)
// tunes one split per window.
type JobSplit struct {
	From, Cut, To int
}

// splitName is how run.json's "split" describes a holdout by jobs with
// train fraction frac; HoldoutOf reads it back.
func splitName(frac float64) string { return fmt.Sprintf("chronological jobs %g", frac) }

// String is how run.json's "split" describes a job split, in Go's slice
// notation: "chronological jobs 0:1000 train 1000:2000 test". HoldoutOf
// reads it back.
func (s JobSplit) String() string {
	return fmt.Sprintf("chronological jobs %d:%d train %d:%d test", s.From, s.Cut, s.Cut, s.To)
}

// split is the run's train and test splits: by Jobs when set, else by
// the Train fraction.
func (o Options) split() (train, test *datasets.Trace, err error) {
	if o.Jobs != nil {
		return o.Jobs.apply(o.Trace)
	}
	return holdout(o.Trace, o.Train)
}

// splitText is run.json's "split" of the run; HoldoutOf reads it back.
func (o Options) splitText() string {
	if o.Jobs != nil {
		return o.Jobs.String()
	}
	return splitName(o.Train)
}

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

// apply cuts tr's jobs: copies of [From, Cut) and [Cut, To), each with tr's
// metadata and a note saying which part it is.
func (s JobSplit) apply(tr *datasets.Trace) (train, test *datasets.Trace, err error) {
	n := len(tr.Jobs)
	if !(0 <= s.From && s.From < s.Cut && s.Cut < s.To && s.To <= n) {
		return nil, nil, fmt.Errorf("tuner: job split %d:%d train %d:%d test: need 0 ≤ %d < %d < %d ≤ %d jobs", s.From, s.Cut, s.Cut, s.To, s.From, s.Cut, s.To, n)
	}
	return jobsPart(tr, s.From, s.Cut, "train"), jobsPart(tr, s.Cut, s.To, "test"), nil
}

// jobsPart copies jobs [i, j) of tr into a trace with tr's metadata.
func jobsPart(tr *datasets.Trace, i, j int, role string) *datasets.Trace {
	m := tr.Meta.Clone()
	m.Notes = append(m.Notes, fmt.Sprintf("%s part of a chronological split by job index: jobs %d–%d of %d", role, i+1, j, len(tr.Jobs)))
	return &datasets.Trace{Meta: m, Jobs: append([]datasets.Job(nil), tr.Jobs[i:j]...)}
}

// HoldoutOf rebuilds the train and test splits of a run from its trace and
// run.json's "split", exactly as Tune built them: "chronological jobs F"
// (a train fraction) or "chronological jobs A:B train B:C test" (a
// JobSplit). An empty split, "none" or F = 1 means the run had no holdout:
// the whole trace trains and test is nil.
func HoldoutOf(tr *datasets.Trace, split string) (train, test *datasets.Trace, err error) {
	f := strings.Fields(split)
	if len(f) == 0 || split == "none" {
		return tr, nil, nil
	}
	if len(f) == 6 && f[0] == "chronological" && f[1] == "jobs" {
		s, err := parseJobSplit(f[2:])
		if err != nil {
			return nil, nil, fmt.Errorf("tuner: split %q of the run: %w", split, err)
		}
		if train, test, err = s.apply(tr); err != nil {
			return nil, nil, fmt.Errorf("split %q of the run: %w", split, err)
		}
		return train, test, nil
	}
	if len(f) != 3 || f[0] != "chronological" || f[1] != "jobs" {
		return nil, nil, fmt.Errorf("tuner: split %q of the run: want \"chronological jobs FRACTION\" or \"chronological jobs A:B train B:C test\"", split)
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

// parseJobSplit reads "A:B train B:C test".
func parseJobSplit(f []string) (JobSplit, error) {
	if f[1] != "train" || f[3] != "test" {
		return JobSplit{}, fmt.Errorf("want \"A:B train B:C test\"")
	}
	a, b, err := parseRange(f[0])
	if err != nil {
		return JobSplit{}, err
	}
	c, d, err := parseRange(f[2])
	if err != nil {
		return JobSplit{}, err
	}
	if b != c {
		return JobSplit{}, fmt.Errorf("train ends at job %d but test starts at %d", b, c)
	}
	return JobSplit{From: a, Cut: b, To: d}, nil
}

// parseRange reads "A:B" (job indexes).
func parseRange(s string) (int, int, error) {
	a, b, ok := strings.Cut(s, ":")
	i, err1 := strconv.Atoi(a)
	j, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("job range %q: want FROM:TO (job indexes)", s)
	}
	return i, j, nil
}
