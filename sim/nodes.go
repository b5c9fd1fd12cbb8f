package sim

import "github.com/ecotune/ecotune/policy"

// resetNodes puts every node Idle, all slots free, at the start of a run.
func (s *Simulator) resetNodes() {
	st := &s.st
	v := &st.view
	for g := range st.acct {
		st.acct[g].reset(st.now)
	}
	st.avail = 0
	st.idleList.reset()
	v.IdleNodes, v.OffNodes, v.BootingNodes, v.EarliestIdle = 0, 0, 0, policy.NoTime
	for i := range v.Nodes {
		g := s.nodeGroup[i]
		v.Nodes[i] = policy.NodeView{
			ID: i, Name: s.names[i], Group: int(g), State: policy.Idle,
			Since: s.tIni, IdleSince: s.tIni, Slots: int(s.nodeSlots[i]), LastFailed: policy.NoTime,
		}
		st.freeSet.set(i)
		st.freedAt[i] = s.tIni
		st.avail += int(s.nodeSlots[i])
		st.acct[g].inState[policy.Idle]++
		s.enterIdle(i)
	}
	st.powered, st.poweredAt = len(v.Nodes), st.now
	v.TotalSlots = s.totalSlots
	v.PoweredSlots = s.totalSlots
	v.BusySlots, v.BootingSlots, v.QueuedSlots, v.QueuedSubmitSum = 0, 0, 0, 0
}

// setState moves node i to state to at the current time, keeping the
// group counters, the view's summary counts and the timeline in step. It
// never moves a node into or out of Busy (starting and ending jobs do).
func (s *Simulator) setState(i int, to policy.NodeState) {
	st := &s.st
	v := &st.view
	n := &v.Nodes[i]
	from := n.State
	if from == to {
		return
	}
	a := &st.acct[n.Group]
	a.integrate(st.now)
	a.inState[from]--
	a.inState[to]++
	v.PoweredSlots += n.Slots * (viewPowered[to] - viewPowered[from])
	switch from {
	case policy.Off:
		a.inLevel[n.SleepLevel]--
		v.OffNodes--
		s.setPowered(1)
	case policy.Booting:
		v.BootingSlots -= n.Slots
		v.BootingNodes--
	case policy.Idle:
		s.leaveIdle(i)
	}
	switch to {
	case policy.Off:
		a.inLevel[n.SleepLevel]++
		v.OffNodes++
		s.setPowered(-1)
	case policy.Booting:
		v.BootingSlots += n.Slots
		v.BootingNodes++
	}
	n.Enter(to, st.now) // also LastFailed when a boot fails (Booting → Off)
	if to == policy.Idle {
		s.enterIdle(i)
	}
	st.changed = true
	if tl := st.res.Timeline; tl != nil {
		level := n.SleepLevel
		if to == policy.ShuttingDown {
			level = int(st.level[i])
		}
		tl.Changes = append(tl.Changes, Change{Time: st.now, Node: int32(i), State: to, Level: uint8(level)})
	}
}

// viewPowered is 1 for the states View.PoweredSlots counts.
var viewPowered = [...]int{policy.Booting: 1, policy.Idle: 1, policy.Busy: 1, policy.ShuttingDown: 0}

// takeSlots occupies k free slots of node i for a starting job; the
// caller keeps st.avail and st.changed.
func (s *Simulator) takeSlots(i int, k int32) {
	st := &s.st
	n := &st.view.Nodes[i]
	if n.BusySlots+int(k) == n.Slots {
		st.freeSet.clear(i)
	}
	if n.BusySlots == 0 {
		s.idleToBusy(n, i)
	}
	n.BusySlots += int(k)
}

// release frees the slots a job held on al when it ends; the caller keeps
// st.avail and st.changed. Nodes left with no busy slot turn Idle, their
// busy interval accounted. It runs for every node of every job, so the
// loop calls nothing.
func (s *Simulator) release(al *allocation) {
	st := &s.st
	nodes, fs, l := st.view.Nodes, st.freeSet, &st.idleList
	now, lazy := st.now, st.idleLazy
	s.reserveIdle(len(al.nodes))
	idle := 0
	for x, i := range al.nodes {
		k := int(al.counts[x])
		n := &nodes[i]
		if n.BusySlots == n.Slots {
			fs.set(i)
		}
		if n.BusySlots -= k; n.BusySlots == 0 { // Busy → Idle
			st.acct[n.Group].sec[policy.Busy] += now - n.Since
			n.Enter(policy.Idle, now)
			if !lazy {
				l.add(i, now)
			}
			idle++
		}
	}
	st.view.IdleNodes += idle
	if st.res.Timeline != nil {
		for _, i := range al.nodes {
			if nodes[i].BusySlots == 0 {
				s.logChange(i, policy.Idle)
			}
		}
	}
}

// releaseWhole is release when every node has one slot: each node of the
// job turns Idle. Like takeIdleLowest, it saves the slot arithmetic and
// the branches of the general case.
func (s *Simulator) releaseWhole(al *allocation) {
	st := &s.st
	s.reserveIdle(len(al.nodes))
	nodes, fs, now := st.view.Nodes, st.freeSet, st.now
	l := &st.idleList
	k := len(l.nodes)
	ids, pos := l.nodes[:k+len(al.nodes)], l.pos
	last := l.lastID // the ID appended last at time now, if any
	if l.lastTime != now {
		last = noNode
	}
	s.accountWhole(al.nodes)
	// Two loops with few live values each, the first in a function of its
	// own, so that neither reloads spilled registers at every node.
	idleWhole(nodes, fs, al.nodes, now)
	for _, i := range al.nodes {
		if i < last {
			l.sorted = false
		}
		last = i
		pos[i] = int32(k)
		ids[k] = i
		k++
	}
	l.nodes, l.lastTime, l.lastID = ids, now, last
	st.view.IdleNodes += len(al.nodes)
	if st.res.Timeline != nil {
		for _, i := range al.nodes {
			s.logChange(i, policy.Idle)
		}
	}
}

// releaseLazy is releaseWhole when no list of idle nodes is kept
// (Simulator.st.idleLazy), for a job that started at start.
func (s *Simulator) releaseLazy(al *allocation, start int64) {
	st := &s.st
	if st.nodesLazy { // nor the nodes' views: only when each became idle
		if len(st.acct) == 1 {
			st.acct[0].sec[policy.Busy] += int64(len(al.nodes)) * (st.now - start)
		} else {
			for _, i := range al.nodes {
				st.acct[s.nodeGroup[i]].sec[policy.Busy] += st.now - start
			}
		}
		for _, i := range al.nodes {
			st.freeSet.set(i)
			st.freedAt[i] = st.now
		}
		st.view.IdleNodes += len(al.nodes)
		return
	}
	s.accountWhole(al.nodes)
	idleWhole(st.view.Nodes, st.freeSet, al.nodes, st.now)
	st.view.IdleNodes += len(al.nodes)
	if st.res.Timeline != nil {
		for _, i := range al.nodes {
			s.logChange(i, policy.Idle)
		}
	}
}

// idleWhole turns the one-slot nodes of an ended job Idle at now, free
// in fs. It is not inlined: alone, its loop keeps every value in a
// register.
//
//go:noinline
func idleWhole(nodes []policy.NodeView, fs bitset, job []int, now int64) {
	for _, i := range job {
		fs.set(i)
		n := &nodes[i]
		n.Enter(policy.Idle, now)
		n.BusySlots = 0
	}
}

// accountWhole adds the busy intervals of a job's one-slot nodes, ending
// now, to their groups' busy node-seconds. The nodes all turned Busy when
// the job started, so on a cluster of one group that is one product.
func (s *Simulator) accountWhole(job []int) {
	st := &s.st
	nodes, now := st.view.Nodes, st.now
	if len(st.acct) == 1 {
		st.acct[0].sec[policy.Busy] += int64(len(job)) * (now - nodes[job[0]].Since)
		return
	}
	for _, i := range job {
		n := &nodes[i]
		st.acct[n.Group].sec[policy.Busy] += now - n.Since
	}
}

// logTaken logs the nodes of al that a starting job made Busy: those whose
// busy slots are all the job's.
func (s *Simulator) logTaken(al *allocation) {
	for x, i := range al.nodes {
		if s.st.view.Nodes[i].BusySlots == int(al.counts[x]) {
			s.logChange(i, policy.Busy)
		}
	}
}

// idleToBusy makes Idle node i (view entry n) Busy.
func (s *Simulator) idleToBusy(n *policy.NodeView, i int) {
	s.leaveIdle(i)
	n.Enter(policy.Busy, s.st.now)
}

func (s *Simulator) logChange(i int, to policy.NodeState) {
	tl := s.st.res.Timeline
	tl.Changes = append(tl.Changes, Change{Time: s.st.now, Node: int32(i), State: to})
}

// boot starts powering on Off node i.
func (s *Simulator) boot(i int) {
	st := &s.st
	n := &st.view.Nodes[i]
	a := &st.acct[s.nodeGroup[i]]
	dur := exitTime(&a.model, n.SleepLevel)
	a.boots[n.SleepLevel]++
	st.res.Boots++
	if st.now > s.tIni {
		st.res.Reconfigurations++
	}
	s.setState(i, policy.Booting)
	if s.opt.BootFailProb > 0 && st.rng.Float64() < s.opt.BootFailProb {
		timeout := s.opt.BootTimeout
		if timeout == 0 {
			timeout = 2 * dur
		}
		s.pushTransition(timeout, int32(i), evBootFail)
	} else {
		s.pushTransition(dur, int32(i), evBootDone)
	}
	st.bootEnd[i] = st.now + dur
	if s.easy {
		st.boots.add(endEntry{t: st.bootEnd[i], id: -1 - int32(i), slots: s.nodeSlots[i]})
	}
}

// bootDone brings booting node i up, Idle with every slot free.
func (s *Simulator) bootDone(i int) {
	st := &s.st
	st.view.Nodes[i].SleepLevel = 0
	s.setState(i, policy.Idle)
	st.freeSet.set(i)
	st.avail += int(s.nodeSlots[i])
	st.schedule = true
	if s.easy {
		st.boots.remove(-1 - int32(i))
	}
}

// bootFail returns booting node i to Off: the boot timed out.
func (s *Simulator) bootFail(i int) {
	st := &s.st
	s.setState(i, policy.Off) // sets LastFailed
	st.res.BootFailures++
	if st.now > s.tIni {
		st.res.Reconfigurations++
	}
	if s.easy {
		st.boots.remove(-1 - int32(i))
	}
}

// shutdown starts switching Idle node i off (level 0) or into sleep level
// level-1.
func (s *Simulator) shutdown(i, level int) {
	st := &s.st
	a := &st.acct[s.nodeGroup[i]]
	dur := a.model.ShutdownS
	if level > 0 {
		dur = a.model.SleepLevels[level-1].EnterS
	}
	a.offs[level]++
	st.res.Shutdowns++
	st.freeSet.clear(i)
	st.avail -= int(s.nodeSlots[i]) // an Idle node has every slot free
	st.level[i] = int32(level)
	s.setState(i, policy.ShuttingDown)
	s.pushTransition(dur, int32(i), evShutdownDone)
}

// shutdownDone switches shutting-down node i Off at its target level.
func (s *Simulator) shutdownDone(i int) {
	st := &s.st
	st.view.Nodes[i].SleepLevel = int(st.level[i])
	s.setState(i, policy.Off)
	if st.now > s.tIni {
		st.res.Reconfigurations++
	}
}
