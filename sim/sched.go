package sim

import (
	"math"
	"math/bits"
	"slices"

	"github.com/ecotune/ecotune/policy"
)

// endEntry is a time at which slots are expected to become free: a running
// job's start plus its estimate (id = job index, in Simulator.st.ends), or
// a booting node's boot completion (id = -1-node, in st.boots).
type endEntry struct {
	t     int64
	id    int32
	slots int32
}

// The running jobs' estimated ends are kept latest first, entries of one
// time in any order (the reservation depends only on the times). Most
// entries added and removed are the soonest, a few places from the
// slice's end (measured in docs/performance.md), so both look at the
// nearEnd soonest entries one by one first; on a large machine with
// thousands of running jobs (RICC) they search the rest by halves.
const nearEnd = 32

// addEnd inserts the entry for job id, expected to free slots at t,
// after the entries of the same time.
func (s *Simulator) addEnd(t int64, id, slots int32) {
	e := endEntry{t: t, id: id, slots: slots}
	ends := append(s.st.ends, e)
	k := len(ends) - 1
	near := max(0, k-nearEnd)
	for ; k > near && ends[k-1].t < t; k-- { // one step of insertion sort
		ends[k] = ends[k-1]
	}
	if k == near && k > 0 && ends[k-1].t < t { // farther: ends[k] is free
		lo, hi := 0, k // the place is the first entry sooner than t
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			if ends[m].t < t {
				hi = m
			} else {
				lo = m + 1
			}
		}
		copy(ends[lo+1:k+1], ends[lo:k])
		k = lo
	}
	ends[k] = e
	s.st.ends = ends
}

// removeEnd deletes the entry of job j, if there is one.
func (s *Simulator) removeEnd(j int32) {
	ends := s.st.ends
	near := max(0, len(ends)-nearEnd)
	for k := len(ends) - 1; k >= near; k-- {
		if ends[k].id == j {
			for ; k < len(ends)-1; k++ { // a few: no call to memmove
				ends[k] = ends[k+1]
			}
			s.st.ends = ends[:k]
			return
		}
	}
	s.removeFarEnd(j, near)
}

// removeFarEnd deletes the entry of job j from ends[:near], searching by
// halves for the entries of its time.
func (s *Simulator) removeFarEnd(j int32, near int) {
	ends := s.st.ends
	t := s.st.start[j] + int64(s.jobs[j].est)
	lo, hi := 0, near // the first entry at t or sooner
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if ends[m].t <= t {
			hi = m
		} else {
			lo = m + 1
		}
	}
	for k := lo; k < near && ends[k].t == t; k++ {
		if ends[k].id == j {
			s.st.ends = append(ends[:k], ends[k+1:]...)
			return
		}
	}
}

// schedulePass starts every queued job the scheduler allows now: FCFS
// starts jobs in queue order until the head does not fit; EASY then
// backfills behind the head's reservation.
func (s *Simulator) schedulePass() {
	st := &s.st
	st.schedule = false
	for st.queue.len() > 0 {
		j := st.queue.key(0)
		if int(s.jobs[j].slots) > st.avail {
			break
		}
		s.start(0)
	}
	if n := st.queue.len(); s.easy && n > 1 && st.avail > 0 {
		if s.cons {
			if st.avail >= st.qslots.min {
				s.conservativeBackfill()
			}
			return
		}
		switch { // index the queue while it is long (hysteresis)
		case !st.indexed && n >= s.indexFrom:
			s.index()
		case st.indexed && n < s.indexUntil:
			s.unindex()
		}
		if st.avail >= st.qslots.min { // else no queued job fits
			s.backfill()
		}
	}
}

// backfill starts, in queue order, every job behind the blocked head that
// fits in the free slots now and either ends (by its estimate) before the
// head's reservation or fits in the slots the head will not need then.
// As free and extra slots only shrink during a pass, a job passed over
// could not start later in the same pass. A short queue is scanned; a long
// one is searched through the candidate index, which finds each next job
// that can start in queue order without looking at the others.
func (s *Simulator) backfill() {
	st := &s.st
	shadow, extra := s.reservation(int(s.jobs[st.queue.key(0)].slots))
	window := int64(noEst)
	if shadow != never {
		window = shadow - st.now
	}
	if !st.indexed {
		s.scanBackfill(window, extra)
		return
	}
	from := int(st.queue.key(0)) + 1
	for st.avail >= st.qslots.min {
		j := st.cands.next(from, int32(min(st.avail, noSlots)), int32(min(extra, noSlots)), window)
		if j < 0 {
			return
		}
		info := &s.jobs[j]
		if int64(info.est) > window {
			extra -= int(info.slots)
		}
		s.start(st.queue.find(int32(j)))
		from = j + 1
	}
}

// scanBackfill is backfill by scanning the queue. Most jobs looked at
// cannot start, so the search for the next one that can runs in a loop
// that calls nothing, over local copies of the queue's slices; and a
// scan under bounds no looser than the last one's looks only at the jobs
// queued since (see scanMemo).
func (s *Simulator) scanBackfill(window int64, extra int) {
	st := &s.st
	jobs := s.jobs
	i := 1
	if m := &st.scanned; m.valid && st.avail <= m.avail && extra <= m.extra && window <= m.window {
		keys := st.queue.keyItems()
		for i = len(keys); i > 1 && keys[i-1] > m.upTo; i-- {
		}
	}
	for st.avail >= st.qslots.min {
		avail := st.avail
		queued, keys := st.queue.items(), st.queue.keyItems()
		keys = keys[:len(queued)]
		for ; i < len(queued); i++ {
			if slots := queued[i].Slots; slots <= avail && (slots <= extra || int64(jobs[keys[i]].est) <= window) {
				break
			}
		}
		if i >= len(queued) {
			break
		}
		if int64(jobs[keys[i]].est) > window {
			extra -= queued[i].Slots
		}
		s.start(i)
	}
	st.scanned = scanMemo{valid: true, upTo: st.queue.key(st.queue.len() - 1), avail: st.avail, extra: extra, window: window}
}

// scanMemo records the end of the last backfill scan: every job queued
// then (trace index up to upTo) but the head, and not started since, can
// not start while the free slots, the extra slots and the window are at
// most what they were then — each test a job failed is monotone in them
// (slots ≤ free, slots ≤ extra or estimate ≤ window), and a job passed
// over early in a scan failed under bounds looser than the final ones. A
// job left unscanned because the free slots fell under the fewest queued
// slots fails the first test.
type scanMemo struct {
	valid        bool
	upTo         int32
	avail, extra int
	window       int64
}

// Queue lengths at which EASY starts and stops keeping the candidate
// index (hysteresis: a queue hovering around one length does not rebuild
// it again and again).
const (
	indexFrom  = 256
	indexUntil = 64
)

// index starts indexing the queued jobs in the candidate index.
func (s *Simulator) index() {
	st := &s.st
	st.indexed = true
	for i := range st.queue.len() {
		j := st.queue.key(i)
		st.cands.set(int(j), s.jobs[j].slots, int64(s.jobs[j].est))
	}
}

// unindex empties the candidate index of the queued jobs.
func (s *Simulator) unindex() {
	st := &s.st
	for i := range st.queue.len() {
		st.cands.set(int(st.queue.key(i)), noSlots, noEst)
	}
	st.indexed = false
}

// reservation returns the head job's shadow time — the earliest time at
// which, by the estimates, need slots are free on Idle, Busy or booting
// nodes — and the extra slots free then beyond need. Estimates already
// overrun count as ending now. When running and booting slots can never
// add up to need (the policy must power nodes on first) there is no
// reservation: shadow and extra are unbounded. The running jobs' ends
// (walked from the soonest, the slice's end) and the boots' (soonest
// first) are merged in time order; the result does not depend on the
// order of entries of the same time (all of them are counted once one
// reaches need).
func (s *Simulator) reservation(need int) (shadow int64, extra int) {
	st := &s.st
	acc := st.avail
	ends, boots := st.ends, st.boots.items()
	if len(boots) == 0 { // the common case: no node booting
		for k := len(ends) - 1; k >= 0; k-- {
			if acc += int(ends[k].slots); acc >= need {
				shadow = max(ends[k].t, st.now)
				for k--; k >= 0 && ends[k].t <= shadow; k-- {
					acc += int(ends[k].slots)
				}
				return shadow, acc - need
			}
		}
		return s.offReservation(need)
	}
	return s.bootReservation(need)
}

// bootReservation is reservation when nodes are booting: the running
// jobs' ends and the boots' merged in time order.
func (s *Simulator) bootReservation(need int) (shadow int64, extra int) {
	st := &s.st
	acc := st.avail
	ends, boots := st.ends, st.boots.items()
	k, b := len(ends)-1, 0
	for k >= 0 || b < len(boots) {
		var e endEntry
		if b < len(boots) && (k < 0 || boots[b].t < ends[k].t) {
			e = boots[b]
			b++
		} else {
			e = ends[k]
			k--
		}
		acc += int(e.slots)
		if acc < need {
			continue
		}
		shadow = max(e.t, st.now)
		for ; k >= 0 && ends[k].t <= shadow; k-- {
			acc += int(ends[k].slots)
		}
		for ; b < len(boots) && boots[b].t <= shadow; b++ {
			acc += int(boots[b].slots)
		}
		return shadow, acc - need
	}
	return s.offReservation(need)
}

// offReservation is reservation when running and booting slots can never
// add up to need: Off nodes count too, each with all its slots once it
// could have booted if powered on now (its boot time, or its sleep
// level's exit time), and shutting-down nodes once their shutdown ends
// and they could have booted again. A scheduler with power saving treats
// powered-down nodes as available after their resume time (Slurm's
// ResumeTimeout); without them a head waiting for the policy to boot
// nodes would have no reservation, and every job that fits, however long,
// would start ahead of it. The nodes' ready times, few distinct ones
// (one per group and level, and the shutdowns under way), are summed per
// time in a short sorted list, then merged in time order with the running
// jobs' ends and the boots'.
func (s *Simulator) offReservation(need int) (shadow int64, extra int) {
	st := &s.st
	offs := s.readyOffs()
	ends, boots := st.ends, st.boots.items()
	k, b, o := len(ends)-1, 0, 0 // ends latest first: walked from the end
	acc := st.avail
	next := func() endEntry {
		e, from := endEntry{t: never}, 0
		if k >= 0 && ends[k].t < e.t {
			e, from = ends[k], 1
		}
		if b < len(boots) && boots[b].t < e.t {
			e, from = boots[b], 2
		}
		if o < len(offs) && offs[o].t < e.t {
			e, from = offs[o], 3
		}
		switch from {
		case 1:
			k--
		case 2:
			b++
		case 3:
			o++
		}
		return e
	}
	for k >= 0 || b < len(boots) || o < len(offs) {
		e := next()
		if acc += int(e.slots); acc < need {
			continue
		}
		shadow = max(e.t, st.now)
		for k >= 0 || b < len(boots) || o < len(offs) {
			if e = next(); e.t > shadow {
				break
			}
			acc += int(e.slots)
		}
		return shadow, acc - need
	}
	return never, int(^uint(0) >> 1)
}

// readyOffs is the slots of the Off and shutting-down nodes summed per
// time they could be ready if booted now, sorted by time (kept in
// st.resv, reused).
func (s *Simulator) readyOffs() []endEntry {
	st := &s.st
	offs := st.resv[:0]
	for i := range st.view.Nodes {
		if t, ok := s.readyIfBooted(i); ok {
			offs = addReady(offs, t, s.nodeSlots[i])
		}
	}
	st.resv = offs
	return offs
}

// addReady adds slots ready at t to offs, kept sorted by time with one
// entry per time.
func addReady(offs []endEntry, t int64, slots int32) []endEntry {
	k := len(offs)
	for k > 0 && offs[k-1].t > t {
		k--
	}
	if k > 0 && offs[k-1].t == t {
		offs[k-1].slots += slots
		return offs
	}
	return slices.Insert(offs, k, endEntry{t: t, slots: slots})
}

// readyIfBooted returns when node i, Off or shutting down, would be up if
// the policy booted it as soon as it could; false for other states.
func (s *Simulator) readyIfBooted(i int) (int64, bool) {
	st := &s.st
	n := &st.view.Nodes[i]
	m := &st.acct[s.nodeGroup[i]].model
	switch n.State {
	case policy.Off:
		return st.now + exitTime(m, n.SleepLevel), true
	case policy.ShuttingDown:
		level := int(st.level[i])
		enter := m.ShutdownS
		if level > 0 {
			enter = m.SleepLevels[level-1].EnterS
		}
		return max(st.now, n.Since+enter) + exitTime(m, level), true
	}
	return 0, false
}

// exitTime is how long a node of model m takes to boot from sleep level
// level (0: powered off).
func exitTime(m *policy.NodeModel, level int) int64 {
	if level > 0 {
		return m.SleepLevels[level-1].ExitS
	}
	return m.BootS
}

// start runs the job at queue position qi now, on the lowest-numbered
// nodes with free slots or in the Placer's order.
func (s *Simulator) start(qi int) {
	st := &s.st
	j := st.queue.key(qi)
	info := &s.jobs[j]
	h, al := s.newAlloc(min(int(info.slots), len(st.view.Nodes)))
	need := info.slots
	if st.placer != nil {
		need = s.placeByPolicy(qi, al, need)
	}
	switch {
	case s.oneSlot && st.idleLazy:
		s.takeIdleLazy(al, need)
	case s.oneSlot:
		s.takeIdleLowest(al, need)
	default:
		s.takeLowest(al, need)
	}
	if st.res.Timeline != nil {
		s.logTaken(al)
	}
	if st.res.Placements != nil {
		s.place(j, al)
	}
	st.avail -= int(info.slots)
	run := s.scaledRun(int64(info.run), al.nodes)
	s.addSlotSeconds(al, info.slots, run)
	q := st.queue.at(qi)
	rj := st.running.pushNew(st.seq) // set in place: no copy
	rj.ID, rj.Slots, rj.Start, rj.ReqTime, rj.Nodes = q.ID, q.Slots, st.now, q.ReqTime, al.nodes
	st.queue.removeAt(qi)
	st.qslots.remove(int(info.slots))
	if st.indexed {
		st.cands.set(int(j), noSlots, noEst)
	}
	al.seq = st.seq
	st.seq++
	st.view.QueuedSlots -= int(info.slots)
	st.view.QueuedSubmitSum -= info.submit
	st.view.BusySlots += int(info.slots)
	s.recordStart(j, run)
	st.events.push(newJobEnd(st.now+run, j, h))
	if s.easy {
		s.addEnd(st.now+int64(info.est), j, info.slots)
		if int64(info.est) < run {
			st.expiries.push(st.now + int64(info.est))
		}
	}
	st.changed = true
}

// takeLowest takes need slots on the nodes with free slots, lowest-numbered
// first, as many as each node has free (Slots − BusySlots); Idle nodes
// turn Busy. al has room for every node (one slot each at least). It runs
// for every node of every job, so the loop calls nothing.
func (s *Simulator) takeLowest(al *allocation, need int32) {
	st := &s.st
	nodes, fs, now := st.view.Nodes, st.freeSet, st.now
	idle, pos := st.idleList.nodes, st.idleList.pos
	m := len(al.nodes)
	an, ac := al.nodes[:cap(al.nodes)], al.counts[:cap(al.counts)]
	left := 0 // nodes that were Idle
	lazy := st.idleLazy
	for w := 0; w < len(fs) && need > 0; w++ {
		for word := fs[w]; word != 0 && need > 0; word &= word - 1 {
			i := w<<6 + bits.TrailingZeros64(word)
			n := &nodes[i]
			f := int32(n.Slots - n.BusySlots)
			k := min(f, need)
			an[m], ac[m] = i, k
			m++
			if k == f {
				fs[w] &^= word & -word // no free slot left
			}
			if n.BusySlots == 0 { // Idle → Busy
				n.Enter(policy.Busy, now)
				if !lazy {
					idle[pos[i]] = noNode
				}
				left++
			}
			n.BusySlots += int(k)
			need -= k
		}
	}
	al.nodes, al.counts = an[:m], ac[:m]
	if !lazy {
		st.idleList.gone += left
	}
	st.view.IdleNodes -= left
}

// takeIdleLowest is takeLowest when every node has one slot: a node with
// a free slot is then Idle, and the job takes it whole. It does for the
// nodes of most traces what takeLowest does with a third fewer
// instructions (no slot arithmetic, no branch per node).
func (s *Simulator) takeIdleLowest(al *allocation, need int32) {
	st := &s.st
	nodes, fs, now := st.view.Nodes, st.freeSet, st.now
	idle, pos := st.idleList.nodes, st.idleList.pos
	m0 := len(al.nodes)
	an := al.nodes[:cap(al.nodes)]
	m := m0
	for w := 0; w < len(fs) && need > 0; w++ {
		word := fs[w]
		for ; word != 0 && need > 0; word &= word - 1 {
			i := w<<6 + bits.TrailingZeros64(word)
			nodes[i].Enter(policy.Busy, now)
			nodes[i].BusySlots = 1
			idle[pos[i]] = noNode
			an[m] = i
			m++
			need--
		}
		fs[w] = word // the nodes not taken
	}
	// One slot on each node: on a one-slot cluster every count newAlloc
	// makes is 1 already.
	al.nodes, al.counts = an[:m], al.counts[:m]
	st.idleList.gone += m - m0
	st.view.IdleNodes -= m - m0
}

// takeIdleLazy is takeIdleLowest when no list of idle nodes is kept
// (Simulator.st.idleLazy).
func (s *Simulator) takeIdleLazy(al *allocation, need int32) {
	st := &s.st
	m0 := len(al.nodes)
	var m int
	if st.nodesLazy {
		m = takeBits(st.freeSet, al.nodes[:cap(al.nodes)], m0, need)
	} else {
		m = takeIdle(st.view.Nodes, st.freeSet, al.nodes[:cap(al.nodes)], m0, need, st.now)
	}
	al.nodes, al.counts = al.nodes[:m], al.counts[:m]
	st.view.IdleNodes -= m - m0
}

// takeIdle is takeIdleLazy's loop: it makes the need lowest-numbered free
// one-slot nodes Busy at now, appending them to an from m on, and
// returns the new length.
func takeIdle(nodes []policy.NodeView, fs bitset, an []int, m int, need int32, now int64) int {
	for w := 0; w < len(fs) && need > 0; w++ {
		word := fs[w]
		for ; word != 0 && need > 0; word &= word - 1 {
			i := w<<6 + bits.TrailingZeros64(word)
			n := &nodes[i]
			n.State, n.Since, n.BusySlots = policy.Busy, now, 1 // Enter(Busy, now)
			an[m] = i
			m++
			need--
		}
		fs[w] = word // the nodes not taken
	}
	return m
}

// takeBits is takeIdle when the nodes' views are not kept
// (Simulator.st.nodesLazy): it only takes the nodes from the free set.
func takeBits(fs bitset, an []int, m int, need int32) int {
	for w := 0; w < len(fs) && need > 0; w++ {
		word := fs[w]
		for ; word != 0 && need > 0; word &= word - 1 {
			an[m] = w<<6 + bits.TrailingZeros64(word)
			m++
			need--
		}
		fs[w] = word // the nodes not taken
	}
	return m
}

// addSlotSeconds accounts the busy slot-seconds of a job starting on al
// for run seconds (its nodes' frequencies are fixed until it ends).
func (s *Simulator) addSlotSeconds(al *allocation, slots int32, run int64) {
	st := &s.st
	if len(st.acct) == 1 && !s.hasFreqs {
		st.acct[0].slotSec[0] += int64(slots) * run
		return
	}
	for k, i := range al.nodes {
		st.acct[s.nodeGroup[i]].slotSec[st.view.Nodes[i].Freq] += int64(al.counts[k]) * run
	}
}

// placeByPolicy lets the Placer order the nodes with free slots and takes
// slots in that order; it returns the slots still needed (taken then in
// node order, if the Placer dropped candidates).
func (s *Simulator) placeByPolicy(qi int, al *allocation, need int32) int32 {
	st := &s.st
	st.order = st.order[:0]
	s.syncIdleLRU()
	for i := st.freeSet.next(0); i >= 0; i = st.freeSet.next(i + 1) {
		st.order = append(st.order, i)
	}
	st.placer.Place(&st.view, st.queue.at(qi), st.order)
	for _, i := range st.order {
		if need == 0 {
			break
		}
		if i < 0 || i >= len(st.view.Nodes) || !st.freeSet.has(i) {
			continue
		}
		n := &st.view.Nodes[i]
		k := min(int32(n.Slots-n.BusySlots), need)
		al.nodes = append(al.nodes, i)
		al.counts = append(al.counts, k)
		s.takeSlots(i, k)
		need -= k
	}
	return need
}

// scaledRun is the run time on nodes whose frequency levels may be slower
// than nominal: ceil(run / speed) at the slowest node's speed.
func (s *Simulator) scaledRun(run int64, nodes []int) int64 {
	if !s.hasFreqs {
		return run
	}
	speed := 1.0
	for _, i := range nodes {
		n := &s.st.view.Nodes[i]
		if fs := s.groups[n.Group].Model.Freqs; len(fs) > 0 {
			speed = min(speed, fs[n.Freq].Speed)
		}
	}
	if speed == 1 {
		return run
	}
	return scaleRun(run, speed)
}

// end finishes job j, which runs in allocation h, now and frees its
// slots.
func (s *Simulator) end(j, h int32) {
	st := &s.st
	al := &st.alloc[h]
	switch {
	case s.oneSlot && st.idleLazy:
		s.releaseLazy(al, st.start[j])
	case s.oneSlot:
		s.releaseWhole(al)
	default:
		s.release(al)
	}
	st.avail += int(s.jobs[j].slots)
	st.changed = true
	st.running.removeAt(st.running.find(al.seq))
	s.freeAlloc(h)
	st.view.BusySlots -= int(s.jobs[j].slots)
	if s.easy {
		s.removeEnd(j)
	}
	st.ended++
	st.schedule = true
}

func scaleRun(run int64, speed float64) int64 {
	return int64(math.Ceil(float64(run) / speed))
}
