package sim

import (
	"fmt"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/policy"
)

// reservation is an advance reservation (datasets.Reservation) whose job
// is in the replayed trace: from the longest boot before its start, until
// its job starts (or its window ends), its slots are held powered.
type reservation struct {
	job        int64
	from       int64 // start − the longest boot or wake-up of any group
	start, end int64
	slots      int
}

// setReservations keeps the trace's reservations whose job it holds; a
// reservation ending before it starts, or outside the time limits, is an
// error.
func (s *Simulator) setReservations(meta *datasets.Meta) error {
	rs := meta.Reservations
	if len(rs) == 0 {
		return nil
	}
	ids := make(map[int64]bool, len(s.jobs))
	for i := range s.jobs {
		ids[s.ids.at(i)] = true
	}
	lead := int64(0)
	for _, g := range s.groups {
		lead = max(lead, g.Model.BootS)
		for _, l := range g.Model.SleepLevels {
			lead = max(lead, l.ExitS)
		}
	}
	s.holds = s.holds[:0]
	for i, r := range rs {
		if r.Start < 0 || r.Start > datasets.MaxTime || r.End < r.Start || r.End-r.Start > datasets.MaxDuration {
			return fmt.Errorf("sim: trace %q: reservation %d (job %d): window [%d, %d) is not within 0..%d and at most %d s long",
				meta.Name, i, r.JobID, r.Start, r.End, datasets.MaxTime, datasets.MaxDuration)
		}
		if !ids[r.JobID] || r.Procs < 1 {
			continue
		}
		s.holds = append(s.holds, reservation{job: r.JobID, from: r.Start - lead, start: r.Start, end: r.End, slots: int(r.Procs)})
	}
	return nil
}

// holdReservations wraps p so that reservations hold their nodes, when
// the trace has any (else it is p).
func (s *Simulator) holdReservations(p policy.Policy) policy.Policy {
	if len(s.holds) == 0 {
		return p
	}
	h := &holder{p: p, resv: s.holds}
	if pl, ok := p.(policy.Placer); ok {
		return holderPlacer{h, pl}
	}
	return h
}

// A holder is a policy whose decisions keep, at every decision from
// the longest boot before a reservation's start until its job starts (at
// the latest until its window ends), the reservation's slots powered and
// free: the policy's power-offs that would leave fewer free powered
// slots (Idle, Booting and the free slots of Busy nodes) than the pending
// reservations hold are dropped, and Off nodes are booted, in node order,
// until there are enough. Its Wake adds the times holds begin and end.
type holder struct {
	p    policy.Policy
	resv []reservation
}

func (h *holder) Name() string { return h.p.Name() }

func (h *holder) Decide(v *policy.View, d *policy.Decision) {
	h.p.Decide(v, d)
	if need := h.need(v, d); need > 0 {
		hold(v, d, need)
	}
}

// need is the slots the reservations in force at v.Now hold; it brings
// d.Wake forward to the next time a hold begins or ends.
func (h *holder) need(v *policy.View, d *policy.Decision) int {
	need := 0
	wake := func(t int64) {
		if t > v.Now && (d.Wake == policy.NoTime || t < d.Wake) {
			d.Wake = t
		}
	}
	for i := range h.resv {
		r := &h.resv[i]
		switch {
		case v.Now < r.from:
			wake(r.from)
		case v.Now < r.end && (v.Now < r.start || queued(v, r.job)):
			need += r.slots
			wake(r.end)
		}
	}
	return need
}

// hold changes d so that need slots stay free: it drops the power-offs
// of Idle nodes whose slots are needed and boots Off nodes, in node
// order, until there are enough.
func hold(v *policy.View, d *policy.Decision, need int) {
	free := v.PoweredSlots - v.BusySlots
	kept := d.PowerOff[:0]
	for _, c := range d.PowerOff {
		if c.Node >= 0 && c.Node < len(v.Nodes) && v.Nodes[c.Node].State == policy.Idle {
			if free-v.Nodes[c.Node].Slots < need {
				continue // held for a reservation
			}
			free -= v.Nodes[c.Node].Slots
		}
		kept = append(kept, c)
	}
	d.PowerOff = kept
	for _, i := range d.PowerOn {
		if i >= 0 && i < len(v.Nodes) && v.Nodes[i].State == policy.Off {
			free += v.Nodes[i].Slots
		}
	}
	for i := 0; i < len(v.Nodes) && free < need; i++ {
		if v.Nodes[i].State == policy.Off && !contains(d.PowerOn, i) {
			d.PowerOn = append(d.PowerOn, i)
			free += v.Nodes[i].Slots
		}
	}
}

// holderPlacer is a holder of a policy that places jobs.
type holderPlacer struct {
	*holder
	pl policy.Placer
}

func (h holderPlacer) Place(v *policy.View, job *policy.QueuedJob, candidates []int) {
	h.pl.Place(v, job, candidates)
}

// queued reports whether job id waits in v's queue.
func queued(v *policy.View, id int64) bool {
	for i := range v.Queue {
		if v.Queue[i].ID == id {
			return true
		}
	}
	return false
}

func contains(s []int, x int) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}
