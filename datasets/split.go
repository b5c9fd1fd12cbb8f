package datasets

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"
)

// SplitOptions control Split.
type SplitOptions struct {
	// Train is the share of the trace for training, in (0, 1): of the jobs
	// (By "jobs", the default) or of the submit-time span (By "time").
	Train float64
	By    string
	// From and To, when not zero, first cut the window From ≤ submit < To
	// (Unix seconds).
	From, To int64
}

// Split divides t chronologically into a training trace (the earlier
// jobs) and a test trace (the later ones). By "jobs" the first
// round(Train·n) jobs train; by "time" the jobs submitted before
// first + Train·(last − first) train. Both keep t's metadata, with a note
// saying which part of which split they are; their jobs are copies.
func Split(t *Trace, opt SplitOptions) (train, test *Trace, err error) {
	if !(opt.Train > 0 && opt.Train < 1) {
		return nil, nil, fmt.Errorf("split: train share %g is not in (0, 1)", opt.Train)
	}
	if opt.From != 0 || opt.To != 0 {
		t = Window(t, opt.From, orMax(opt.To))
	}
	n := len(t.Jobs)
	if n < 2 {
		return nil, nil, fmt.Errorf("split: %d jobs, need at least 2", n)
	}
	var k int
	var how string
	switch opt.By {
	case "", "jobs":
		k = int(math.Round(opt.Train * float64(n)))
		how = fmt.Sprintf("by jobs, %.4g train", opt.Train)
	case "time":
		first, last := t.Jobs[0].Submit, t.Jobs[n-1].Submit
		cut := first + int64(math.Round(opt.Train*float64(last-first)))
		k = firstSubmitAtOrAfter(t.Jobs, cut)
		how = fmt.Sprintf("by time, %.4g train, cut at submit %d", opt.Train, cut)
	default:
		return nil, nil, fmt.Errorf("split: --by %q: want jobs or time", opt.By)
	}
	if k == 0 || k == n {
		return nil, nil, fmt.Errorf("split: %s leaves an empty part (%d of %d jobs train)", how, k, n)
	}
	train = part(t, 0, k, fmt.Sprintf("train part of a chronological split (%s): jobs 1–%d of %d", how, k, n))
	test = part(t, k, n, fmt.Sprintf("test part of a chronological split (%s): jobs %d–%d of %d", how, k+1, n, n))
	return train, test, nil
}

func orMax(to int64) int64 {
	if to == 0 {
		return math.MaxInt64
	}
	return to
}

// firstSubmitAtOrAfter returns the index of the first job submitted at or
// after cut (jobs are sorted by submit time).
func firstSubmitAtOrAfter(jobs []Job, cut int64) int {
	lo, hi := 0, len(jobs)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if jobs[mid].Submit < cut {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// part copies jobs [i, j) of t into a trace with t's metadata and note.
func part(t *Trace, i, j int, note string) *Trace {
	m := t.Meta.Clone()
	m.Notes = append(m.Notes, note)
	return &Trace{Meta: m, Jobs: append([]Job(nil), t.Jobs[i:j]...)}
}

// Window returns the jobs of t submitted at from ≤ submit < to (use
// math.MinInt64 and math.MaxInt64 for open ends), with t's metadata and a
// note naming the window; the jobs are copies.
func Window(t *Trace, from, to int64) *Trace {
	i := firstSubmitAtOrAfter(t.Jobs, from)
	j := max(i, firstSubmitAtOrAfter(t.Jobs, to))
	return part(t, i, j, fmt.Sprintf("window: jobs submitted in [%s, %s)", windowEnd(from), windowEnd(to)))
}

func windowEnd(s int64) string {
	switch s {
	case math.MinInt64:
		return "−∞"
	case math.MaxInt64:
		return "∞"
	}
	return time.Unix(s, 0).UTC().Format(time.RFC3339)
}

// ParseTime reads a time given as Unix seconds, RFC 3339
// ("2001-09-09T01:46:40Z"), or a date or date and time without a zone
// ("YYYY-MM-DD", "YYYY-MM-DDTHH:MM", "YYYY-MM-DDTHH:MM:SS", in loc;
// nil loc is UTC): the one time parser of the module's --from and --to
// flags.
func ParseTime(s string, loc *time.Location) (int64, error) {
	if loc == nil {
		loc = time.UTC
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t.Unix(), nil
	}
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02T15:04", time.DateOnly} {
		if t, err := time.ParseInLocation(layout, s, loc); err == nil {
			return t.Unix(), nil
		}
	}
	return 0, fmt.Errorf("time %q: %w", s, errBadTime)
}

var errBadTime = errors.New("want Unix seconds, RFC 3339 or YYYY-MM-DD[THH:MM[:SS]]")

// Location is the trace's time zone: the IANA zone named by TimeZone when
// Go knows it, else the fixed offset TZOffset.
func (m Meta) Location() *time.Location {
	if m.TimeZone != "" {
		if loc, err := time.LoadLocation(m.TimeZone); err == nil {
			return loc
		}
	}
	return time.FixedZone(fixedZoneName(m.TZOffset), m.TZOffset)
}
