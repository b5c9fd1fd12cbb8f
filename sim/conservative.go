package sim

import "slices"

// profile is the plan a conservative backfilling pass makes: free[k]
// slots from at[k] until at[k+1] (the last for ever), at[0] = now. It
// starts from the slots free now and the slots each running job frees at
// its start plus estimate (an overrun estimate at now) and each booting
// node at its expected boot end; each queued job's reservation, in queue
// order, takes its slots from the free ones over [start, start+estimate).
// Its buffers are kept between passes.
type profile struct {
	at   []int64
	free []int
	// fewest[qi] is the fewest slots a job at queue position qi or later
	// needs (scratch of one pass).
	fewest []int32
}

// add counts slots freed at t ≥ at[0] in every segment from t on.
func (p *profile) add(t int64, slots int) {
	k := len(p.at) // the first segment starting at t or later
	for k > 0 && p.at[k-1] >= t {
		k--
	}
	if k == len(p.at) || p.at[k] != t { // k > 0: at[0] = now ≤ t
		p.at = slices.Insert(p.at, k, t)
		p.free = slices.Insert(p.free, k, p.free[k-1])
	}
	for x := k; x < len(p.free); x++ {
		p.free[x] += slots
	}
}

// fit returns the first segment at whose start n slots are free for d
// seconds; the last segment must hold n.
func (p *profile) fit(n int, d int64) int {
	at, free := p.at, p.free
	for i := 0; ; i++ {
		if free[i] < n {
			continue
		}
		end := at[i] + d
		k := i + 1
		for k < len(at) && at[k] < end && free[k] >= n {
			k++
		}
		if k == len(at) || at[k] >= end {
			return i
		}
		i = k // free[k] < n: the next start to try is after it
	}
}

// reserve takes n slots over [at[i], at[i]+d).
func (p *profile) reserve(i, n int, d int64) {
	if d <= 0 {
		return
	}
	end := p.at[i] + d
	k := i + 1
	for k < len(p.at) && p.at[k] < end {
		k++
	}
	if k == len(p.at) || p.at[k] > end {
		p.at = slices.Insert(p.at, k, end)
		p.free = slices.Insert(p.free, k, p.free[k-1])
	}
	for x := i; x < k; x++ {
		p.free[x] -= n
	}
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
	for qi := 0; qi < st.queue.len() && int(p.fewest[qi]) <= min(st.avail, p.free[0]); {
		j := st.queue.key(qi)
		info := &s.jobs[j]
		n := int(info.slots)
		if n > p.free[len(p.free)-1] && !extended {
			s.addOffNodes()
			extended = true
		}
		i := p.fit(n, info.est)
		p.reserve(i, n, info.est)
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
	p.at = append(p.at[:0], now)
	p.free = append(p.free[:0], st.avail)
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
		t, last := max(e.t, now), len(p.at)-1
		if p.at[last] == t {
			p.free[last] += int(e.slots)
			continue
		}
		p.at = append(p.at, t)
		p.free = append(p.free, p.free[last]+int(e.slots))
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
