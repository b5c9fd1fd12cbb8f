package policy

import (
	"cmp"
	"slices"
)

// maxDrainLead is drain_lead's maximum, a week, at which hgfs never
// drains.
const maxDrainLead = 7 * 86400

// defaultDrainGap is drain_gap's default: about a shutdown and a boot of
// the ESCS model.
const defaultDrainGap = 1200

// paramOr returns c's parameter name, or def when c has none (a
// configuration saved before the parameter existed).
func paramOr(c Config, name string, def float64) float64 {
	if v, ok := c.Params[name]; ok {
		return v
	}
	return def
}

// slotsAt is a number of slots expected free at a time.
type slotsAt struct {
	t     int64
	slots int
}

// runningEnds keeps the running jobs' estimated ends (start + estimate)
// sorted, soonest first, across decisions: the running set changes only
// when a job starts (it is appended to View.Running, which is in start
// order, with a new ID) or ends (the list shortens), so its length and
// last ID tell whether the sort can be reused. Another trace start, or
// time going backwards, means a new replay.
type runningEnds struct {
	ends       []slotsAt
	n          int
	lastID     int64
	start, now int64
	valid      bool
}

// sorted returns v.Running's estimated ends, soonest first.
func (r *runningEnds) sorted(v *View) []slotsAt {
	n := len(v.Running)
	var last int64
	if n > 0 {
		last = v.Running[n-1].ID
	}
	if r.valid && n == r.n && last == r.lastID && v.Start == r.start && v.Now >= r.now {
		r.now = v.Now
		return r.ends
	}
	r.ends = r.ends[:0]
	for i := range v.Running {
		x := &v.Running[i]
		r.ends = append(r.ends, slotsAt{t: x.Start + x.ReqTime, slots: x.Slots})
	}
	slices.SortFunc(r.ends, func(a, b slotsAt) int { return cmp.Compare(a.t, b.t) })
	r.n, r.lastID, r.start, r.now, r.valid = n, last, v.Start, v.Now, true
	return r.ends
}

// headStart returns when the queue head could start by the estimates if
// every node were on: the slots no running job holds are free now, and a
// running job frees its slots at its start plus its estimate (now, when
// the estimate is already overrun). It needs a non-empty queue.
func (p *hgfs) headStart(v *View) int64 {
	need := v.Queue[0].Slots
	free := v.TotalSlots - v.BusySlots
	if free >= need {
		return v.Now
	}
	for _, e := range p.ends.sorted(v) {
		if free += e.slots; free >= need {
			return max(v.Now, e.t)
		}
	}
	return v.Now // the estimates do not add up (a view under test): no drain
}

// backfillSlots returns the slots of the queued jobs behind the head that
// EASY could start before the head's estimated start: those that end by
// their estimate before it, and, in queue order, those that fit in the
// slots the head will not need then. These are the slots a drained queue
// can use; the rest are held for the head. It also returns when, with time
// alone, the first job counted for ending in time no longer would (NoTime:
// none). It stops counting at enough, past which the count makes no
// difference: the free and the off slots together.
func backfillSlots(v *View, start int64, enough int) (slots int, wake int64) {
	extra := v.TotalSlots - v.Queue[0].Slots
	for i := range v.Running {
		if r := &v.Running[i]; max(v.Now, r.Start+r.ReqTime) > start {
			extra -= r.Slots
		}
	}
	wake = NoTime
	for i := 1; i < len(v.Queue) && slots < enough; i++ {
		q := &v.Queue[i]
		switch {
		case v.Now+q.ReqTime <= start:
			slots += q.Slots
			wake = earliest(wake, start-q.ReqTime+1)
		case q.Slots <= extra:
			slots += q.Slots
			extra -= q.Slots
		}
	}
	return slots, wake
}
