package run

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ecotune/ecotune/datasets"
)

// Split says how a run cut its trace into a train and a test split,
// chronologically by jobs: by a train fraction, or by job index (Jobs).
// The zero Split is "no holdout": the whole trace trains, there is no test
// split. On disk (run.json's "split") it is text, "chronological jobs
// 0.7" or "chronological jobs 0:1000 train 1000:2000 test"; ParseSplit
// reads it back.
type Split struct {
	// Fraction is the train fraction of the jobs, in (0, 1]; 1 is no
	// test split. Ignored when Jobs is set.
	Fraction float64
	// Jobs, when set, splits by job index.
	Jobs *JobSplit
}

// JobSplit is a chronological split by job index: jobs [From, Cut) of the
// trace (0-based, in submit order) train and jobs [Cut, To) test. Jobs
// outside [From, To) take no part (rolling-origin windows).
type JobSplit struct {
	From, Cut, To int
}

// Holdout is the split by train fraction frac.
func Holdout(frac float64) Split { return Split{Fraction: frac} }

// ByJobs is the split by job index.
func ByJobs(from, cut, to int) Split { return Split{Jobs: &JobSplit{From: from, Cut: cut, To: to}} }

// IsZero reports whether s is the zero Split (no holdout).
func (s Split) IsZero() bool { return s.Jobs == nil && s.Fraction == 0 }

// HasTest reports whether s leaves a test split.
func (s Split) HasTest() bool { return s.Jobs != nil || (s.Fraction != 0 && s.Fraction != 1) }

// String is run.json's text: "chronological jobs F",
// "chronological jobs A:B train B:C test", or "" for the zero Split.
func (s Split) String() string {
	switch {
	case s.Jobs != nil:
		return s.Jobs.String()
	case s.Fraction == 0:
		return ""
	}
	return fmt.Sprintf("chronological jobs %g", s.Fraction)
}

// String is the split's text in Go's slice notation:
// "chronological jobs 0:1000 train 1000:2000 test".
func (s JobSplit) String() string {
	return fmt.Sprintf("chronological jobs %d:%d train %d:%d test", s.From, s.Cut, s.Cut, s.To)
}

// MarshalText implements encoding.TextMarshaler.
func (s Split) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler with ParseSplit.
func (s *Split) UnmarshalText(b []byte) error {
	v, err := ParseSplit(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// ParseSplit reads a split's text: "chronological jobs F" (a train
// fraction in (0, 1]), "chronological jobs A:B train B:C test", or "" or
// "none" (no holdout).
func ParseSplit(text string) (Split, error) {
	f := strings.Fields(text)
	if len(f) == 0 || text == "none" {
		return Split{}, nil
	}
	if len(f) == 6 && f[0] == "chronological" && f[1] == "jobs" {
		s, err := parseJobSplit(f[2:])
		if err != nil {
			return Split{}, fmt.Errorf("run: split %q: %w", text, err)
		}
		return Split{Jobs: &s}, nil
	}
	if len(f) != 3 || f[0] != "chronological" || f[1] != "jobs" {
		return Split{}, fmt.Errorf("run: split %q: want \"chronological jobs FRACTION\" or \"chronological jobs A:B train B:C test\"", text)
	}
	frac, err := strconv.ParseFloat(f[2], 64)
	if err != nil || !(frac > 0 && frac <= 1) {
		return Split{}, fmt.Errorf("run: split %q: fraction %q not in (0, 1]", text, f[2])
	}
	return Split{Fraction: frac}, nil
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

// Apply cuts tr into the train and test splits: test is nil when s has
// none (the whole trace trains).
func (s Split) Apply(tr *datasets.Trace) (train, test *datasets.Trace, err error) {
	if s.Jobs != nil {
		return s.Jobs.apply(tr)
	}
	if !s.HasTest() {
		return tr, nil, nil
	}
	frac := s.Fraction
	if !(frac > 0 && frac < 1) {
		return nil, nil, fmt.Errorf("run: train fraction %g not in (0, 1]", frac)
	}
	train, test, err = datasets.Split(tr, datasets.SplitOptions{Train: frac, By: "jobs"})
	if err != nil {
		return nil, nil, fmt.Errorf("run: %w", err)
	}
	if len(train.Jobs) == 0 || len(test.Jobs) == 0 {
		return nil, nil, fmt.Errorf("run: train fraction %g of %d jobs leaves an empty split", frac, len(tr.Jobs))
	}
	return train, test, nil
}

// apply cuts tr's jobs: copies of [From, Cut) and [Cut, To), each with tr's
// metadata and a note saying which part it is.
func (s JobSplit) apply(tr *datasets.Trace) (train, test *datasets.Trace, err error) {
	n := len(tr.Jobs)
	if !(0 <= s.From && s.From < s.Cut && s.Cut < s.To && s.To <= n) {
		return nil, nil, fmt.Errorf("run: job split %d:%d train %d:%d test: need 0 ≤ %d < %d < %d ≤ %d jobs", s.From, s.Cut, s.Cut, s.To, s.From, s.Cut, s.To, n)
	}
	return jobsPart(tr, s.From, s.Cut, "train"), jobsPart(tr, s.Cut, s.To, "test"), nil
}

// jobsPart copies jobs [i, j) of tr into a trace with tr's metadata.
func jobsPart(tr *datasets.Trace, i, j int, role string) *datasets.Trace {
	m := tr.Meta.Clone()
	m.Notes = append(m.Notes, fmt.Sprintf("%s part of a chronological split by job index: jobs %d–%d of %d", role, i+1, j, len(tr.Jobs)))
	return &datasets.Trace{Meta: m, Jobs: append([]datasets.Job(nil), tr.Jobs[i:j]...)}
}
