package sim

import (
	"cmp"
	"slices"

	"github.com/ecotune/ecotune/policy"
)

// idleList keeps the Idle nodes in the order of View.IdleLRU (IdleSince,
// then ID), lazily. Time only moves forward, so a node becoming idle is
// appended; a node leaving the Idle state is marked gone where it stands.
// When the policy is consulted the gone entries are squeezed out in one
// pass, and the slice itself becomes View.IdleLRU. Nodes becoming idle in
// the same second may be appended out of ID order (two jobs ending at once
// release their nodes job by job); the squeeze then also restores the
// order, by insertion sort, which costs in proportion to the few entries
// out of place. A state change thus costs O(1) and no pointer is chased.
type idleList struct {
	nodes    []int   // node IDs; gone entries hold noNode
	pos      []int32 // per Idle node: its index in nodes (stale otherwise)
	gone     int     // gone entries in nodes
	sorted   bool    // the live entries are in (IdleSince, ID) order
	lastTime int64   // IdleSince and ID of the last entry (the one appended
	lastID   int     // last, or after a squeeze the last live one), if any
}

const noNode = -1

func newIdleList(n int) idleList {
	l := idleList{nodes: make([]int, 0, max(64, 2*n)), pos: make([]int32, n)}
	l.reset()
	return l
}

func (l *idleList) reset() {
	l.nodes = l.nodes[:0]
	for i := range l.pos {
		l.pos[i] = noNode
	}
	l.gone, l.sorted, l.lastTime, l.lastID = 0, true, policy.NoTime, noNode
}

// add appends node i, idle since now; reserveIdle must have made room.
func (l *idleList) add(i int, now int64) {
	if now == l.lastTime && i < l.lastID {
		l.sorted = false
	}
	l.lastTime, l.lastID = now, i
	k := len(l.nodes)
	l.pos[i] = int32(k)
	l.nodes = l.nodes[:k+1]
	l.nodes[k] = i
}

// reserveIdle makes room in the list for k more nodes (k ≤ nodes).
func (s *Simulator) reserveIdle(k int) {
	if l := &s.st.idleList; cap(l.nodes)-len(l.nodes) < k && !s.st.idleLazy {
		s.squeezeIdle() // at most half the entries are live: room again
	}
}

// enterIdle records that node i became Idle at the current time (its
// IdleSince is set: policy.NodeView.Enter).
func (s *Simulator) enterIdle(i int) {
	st := &s.st
	v := &st.view
	v.IdleNodes++
	if st.idleLazy {
		return
	}
	s.reserveIdle(1)
	st.idleList.add(i, st.now)
}

// leaveIdle records that node i left the Idle state.
func (s *Simulator) leaveIdle(i int) {
	st := &s.st
	st.view.IdleNodes--
	if st.idleLazy {
		return
	}
	st.idleList.nodes[st.idleList.pos[i]] = noNode
	st.idleList.gone++
}

// squeezeIdle drops the gone entries and restores the order.
func (s *Simulator) squeezeIdle() {
	l := &s.st.idleList
	if l.gone == 0 && l.sorted {
		return
	}
	nodes, pos := l.nodes, l.pos
	n := 0
	for n < len(nodes) && nodes[n] != noNode { // entries that stay in place
		n++
	}
	for _, i := range nodes[n:] {
		if i != noNode {
			nodes[n] = i
			pos[i] = int32(n)
			n++
		}
	}
	l.nodes, l.gone = nodes[:n], 0
	if !l.sorted {
		s.sortIdle(l.nodes)
		for k, i := range l.nodes {
			pos[i] = int32(k)
		}
		l.sorted = true
	}
	// The next node appended must be compared with the last entry as it
	// now stands, which sorting may have changed: not with the node
	// appended last.
	l.lastTime, l.lastID = policy.NoTime, noNode
	if n > 0 {
		l.lastTime, l.lastID = s.st.view.Nodes[nodes[n-1]].IdleSince, nodes[n-1]
	}
}

// sortIdle sorts nearly sorted idle nodes by (IdleSince, ID).
func (s *Simulator) sortIdle(lru []int) {
	nodes := s.st.view.Nodes
	for k := 1; k < len(lru); k++ {
		i := lru[k]
		t := nodes[i].IdleSince
		m := k
		for ; m > 0; m-- {
			p := lru[m-1]
			if tp := nodes[p].IdleSince; tp < t || tp == t && p < i {
				break
			}
			lru[m] = p
		}
		lru[m] = i
	}
}

// syncIdleLRU sets View.IdleLRU and View.EarliestIdle from the list,
// building the list first if it is not kept (Simulator.st.idleLazy).
func (s *Simulator) syncIdleLRU() {
	st := &s.st
	if st.idleLazy {
		s.buildIdle()
	}
	if l := &st.idleList; l.gone > 0 || !l.sorted {
		s.squeezeIdle()
	}
	lru := st.idleList.nodes
	st.view.IdleLRU = lru[:len(lru):len(lru)]
	st.view.EarliestIdle = policy.NoTime
	if len(lru) > 0 {
		st.view.EarliestIdle = st.view.Nodes[lru[0]].IdleSince
	}
}

// buildIdle makes the list of the Idle nodes, in (IdleSince, ID) order,
// from the view's nodes, and keeps it from then on. Until a quiet policy
// first needs it (a decision that is not quiet, a placement), the list is
// not kept: a run in which the policy is always quiet (always-on) does no
// work for it. The list built is the one kept all along would be.
func (s *Simulator) buildIdle() {
	st := &s.st
	if st.nodesLazy {
		s.buildNodes()
	}
	l := &st.idleList
	l.reset()
	nodes := st.view.Nodes
	for i := range nodes {
		if nodes[i].State == policy.Idle {
			l.nodes = append(l.nodes, i)
		}
	}
	slices.SortFunc(l.nodes, func(a, b int) int {
		return cmp.Or(cmp.Compare(nodes[a].IdleSince, nodes[b].IdleSince), cmp.Compare(a, b))
	})
	for k, i := range l.nodes {
		l.pos[i] = int32(k)
	}
	if k := len(l.nodes); k > 0 {
		l.lastTime, l.lastID = nodes[l.nodes[k-1]].IdleSince, l.nodes[k-1]
	}
	st.idleLazy = false
}

// buildNodes sets the view's nodes, not kept while Simulator.st.nodesLazy
// (one-slot nodes, every one Idle or Busy: the policy has changed no
// power state yet), to what they would hold: a node in the free set is
// Idle since it last became idle; any other runs a job, Busy since the
// job started, idle last when freedAt says.
func (s *Simulator) buildNodes() {
	st := &s.st
	nodes := st.view.Nodes
	for i := range nodes {
		n := &nodes[i]
		n.IdleSince = st.freedAt[i]
		if st.freeSet.has(i) {
			n.State, n.Since, n.BusySlots = policy.Idle, st.freedAt[i], 0
		} else {
			n.State, n.BusySlots = policy.Busy, 1
		}
	}
	for _, rj := range st.running.items() {
		for _, i := range rj.Nodes {
			nodes[i].Since = rj.Start
		}
	}
	st.nodesLazy = false
}
