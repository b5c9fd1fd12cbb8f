package sim

import "slices"

// profile is the plan a conservative backfilling pass makes: seg[k].free
// slots from seg[k].at until seg[k+1].at (the last for ever), seg[0].at =
// now. It starts from the slots free now and the slots each running job
// frees at its start plus estimate (an overrun estimate at now) and each
// booting node at its expected boot end; each queued job's reservation,
// in queue order, takes its slots from the free ones over [start,
// start+estimate). Its buffers are kept between passes.
type profile struct {
	seg []segment
	// fewest[qi] is the fewest slots a job at queue position qi or later
	// needs (scratch of one pass).
	fewest []int32
}

type segment struct {
	at   int64
	free int
}

// add counts slots freed at t ≥ seg[0].at in every segment from t on.
func (p *profile) add(t int64, slots int) {
	k := len(p.seg) // the first segment starting at t or later
	for k > 0 && p.seg[k-1].at >= t {
		k--
	}
	if k == len(p.seg) || p.seg[k].at != t { // k > 0: seg[0].at = now ≤ t
		p.seg = slices.Insert(p.seg, k, segment{t, p.seg[k-1].free})
	}
	for x := k; x < len(p.seg); x++ {
		p.seg[x].free += slots
	}
}

// place finds the first segment at whose start n slots are free for d
// seconds, takes them there and returns its index; the last segment must
// hold n.
func (p *profile) place(n int, d int64) int {
	seg := p.seg
	i, k := 0, 0
	for ; ; i++ {
		if seg[i].free < n {
			continue
		}
		end := seg[i].at + d
		k = i + 1
		for k < len(seg) && seg[k].at < end && seg[k].free >= n {
			k++
		}
		if k == len(seg) || seg[k].at >= end {
			break
		}
		i = k // seg[k].free < n: the next start to try is after it
	}
	if d <= 0 {
		return i
	}
	// seg[i:k] start before the end; split at the end unless a segment
	// starts there.
	if end := seg[i].at + d; k == len(seg) || seg[k].at > end {
		p.seg = slices.Insert(p.seg, k, segment{end, seg[k-1].free})
		seg = p.seg
	}
	for x := i; x < k; x++ {
		seg[x].free -= n
	}
	return i
}

// conservativeBackfill plans every queued job in queue order at the
// earliest time its slots are free for its estimate, after the
// reservations of the jobs ahead of it, and starts those planned now that
// fit in the slots free now. The plan is made afresh at each pass (a
// reservation never moves later while the estimates hold, and moves
// earlier as jobs end early). When the running and booting slots can
// never hold a job, Off and shutting-down nodes join the plan at the time
// they would be up if booted now, as in EASY's reservation. The pass
// stops when every job not yet planned needs more slots than are free
// now, or than the plan leaves free now: none of them can start now, and
// their reservations would only bound jobs behind them.
func (s *Simulator) conservativeBackfill() {
	st := &s.st
	p := &st.plan
	s.buildProfile()
	s.fewestFrom()
	extended := false
	for qi := 0; qi < st.queue.len() && int(p.fewest[qi]) <= min(st.avail, p.seg[0].free); {
		j := st.queue.key(qi)
		info := &s.jobs[j]
		n := int(info.slots)
		if n > p.seg[len(p.seg)-1].free && !extended {
			s.addOffNodes()
			extended = true
		}
		i := p.place(n, int64(info.est))
		if i == 0 && n <= st.avail {
			s.start(qi)
			p.fewest = append(p.fewest[:qi], p.fewest[qi+1:]...)
			continue
		}
		qi++
	}
}

// fewestFrom sets plan.fewest for the queue as it is.
func (s *Simulator) fewestFrom() {
	st := &s.st
	n := st.queue.len()
	f := slices.Grow(st.plan.fewest[:0], n+1)[:n+1]
	f[n] = noSlots
	keys := st.queue.keyItems()
	for qi := n - 1; qi >= 0; qi-- {
		f[qi] = min(f[qi+1], s.jobs[keys[qi]].slots)
	}
	st.plan.fewest = f
}

// buildProfile plans from the slots free now, the running jobs' estimated
// ends and the boots' expected ends.
func (s *Simulator) buildProfile() {
	st := &s.st
	p := &st.plan
	now := st.now
	p.seg = append(p.seg[:0], segment{now, st.avail})
	ends, boots := st.ends, st.boots.items()
	k, b := len(ends)-1, 0 // ends latest first: walked from the end
	for k >= 0 || b < len(boots) {
		var e endEntry
		if b < len(boots) && (k < 0 || boots[b].t < ends[k].t) {
			e = boots[b]
			b++
		} else {
			e = ends[k]
			k--
		}
		t, last := max(e.t, now), &p.seg[len(p.seg)-1]
		if last.at == t {
			last.free += int(e.slots)
			continue
		}
		p.seg = append(p.seg, segment{t, last.free + int(e.slots)})
	}
}

// addOffNodes adds to the plan the Off and shutting-down nodes, each with
// all its slots from when it would be up if booted now.
func (s *Simulator) addOffNodes() {
	st := &s.st
	for i := range st.view.Nodes {
		if t, ok := s.readyIfBooted(i); ok {
			st.plan.add(t, int(s.nodeSlots[i]))
		}
	}
}
