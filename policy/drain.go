package policy

import (
	"slices"
)

// maxDrainLead is drain_lead's maximum, a week, at which hgfs never
// drains.
const maxDrainLead = 7 * 86400

// defaultDrainGap is drain_gap's default: about a shutdown and a boot of
// the ESCS model.
const defaultDrainGap = 1200

// slotsAt is a number of slots expected free at a time: a running job's
// estimated end.
type slotsAt struct {
	t     int64
	slots int
	id    int64
}

// runningEnds keeps the running jobs' estimated ends (start + estimate)
// sorted, soonest first, across decisions. View.Running is in start
// order: between two decisions jobs leave it anywhere and new ones are
// appended, so walking the IDs last seen against it finds the ended jobs,
// whose entries go, and the new ones, which are inserted in place. Another
// trace start, or time going backwards, means a new replay: the list is
// built afresh.
type runningEnds struct {
	ends       []slotsAt
	ids        []int64 // the running jobs last seen, in start order
	start, now int64
	valid      bool
	version    int // counts changes of ends
}

// sorted returns v.Running's estimated ends, soonest first.
func (r *runningEnds) sorted(v *View) []slotsAt {
	if !r.valid || v.Start != r.start || v.Now < r.now {
		r.ends, r.ids = r.ends[:0], r.ids[:0]
		r.version++
	}
	r.start, r.now, r.valid = v.Start, v.Now, true
	n := len(v.Running)
	if n == len(r.ids) && (n == 0 || v.Running[n-1].ID == r.ids[n-1]) {
		return r.ends // no job started (it would be last) and none ended
	}
	r.version++
	kept, j := 0, 0
	for _, id := range r.ids {
		if j < n && v.Running[j].ID == id {
			r.ids[kept] = id
			kept, j = kept+1, j+1
			continue
		}
		r.remove(id)
	}
	r.ids = r.ids[:kept]
	for ; j < n; j++ {
		x := &v.Running[j]
		r.insert(slotsAt{t: x.Start + x.ReqTime, slots: x.Slots, id: x.ID})
		r.ids = append(r.ids, x.ID)
	}
	return r.ends
}

// remove deletes the entry of job id.
func (r *runningEnds) remove(id int64) {
	for k := range r.ends {
		if r.ends[k].id == id {
			r.ends = slices.Delete(r.ends, k, k+1)
			return
		}
	}
}

// insert adds e after the entries of the same or an earlier time.
func (r *runningEnds) insert(e slotsAt) {
	lo, hi := 0, len(r.ends)
	for lo < hi {
		if m := int(uint(lo+hi) >> 1); r.ends[m].t <= e.t {
			lo = m + 1
		} else {
			hi = m
		}
	}
	r.ends = slices.Insert(r.ends, lo, e)
}

// headStart returns when the queue head could start by the estimates if
// every node were on: the slots no running job holds are free now, and a
// running job frees its slots at its start plus its estimate (now, when
// the estimate is already overrun). It needs a non-empty queue. While the
// running jobs and the head stay the same, the answer before the clamp to
// now does too, and is reused.
func (p *hgfs) headStart(v *View) int64 {
	need := v.Queue[0].Slots
	free := v.TotalSlots - v.BusySlots
	if free >= need {
		return v.Now
	}
	ends := p.ends.sorted(v)
	c := &p.startMemo
	if c.valid && c.version == p.ends.version && c.head == v.Queue[0].ID && c.need == need {
		return max(v.Now, c.t)
	}
	t := v.Now // the estimates do not add up (a view under test): no drain
	for _, e := range ends {
		if free += e.slots; free >= need {
			t = e.t
			break
		}
	}
	*c = startMemo{t: t, version: p.ends.version, head: v.Queue[0].ID, need: need, valid: true}
	return max(v.Now, t)
}

// startMemo is the last headStart before the clamp to now, and what it
// depends on.
type startMemo struct {
	t       int64
	version int
	head    int64
	need    int
	valid   bool
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
