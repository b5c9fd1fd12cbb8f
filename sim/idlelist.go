package sim

import "github.com/ecotune/ecotune/policy"

// idleList links the Idle nodes by (IdleSince, ID), the order of
// View.IdleLRU. Time only moves forward, so a node becoming idle goes at
// the end, behind only the nodes that became idle at the same second with
// a higher ID: O(1) per state change, where keeping the slice itself in
// order would move it at every job start and end. The slice, and
// View.EarliestIdle, are set from the list when the policy is consulted
// (the slice rebuilt only if the list changed).
type idleList struct {
	prev, next []int32
	head, tail int32
	dirty      bool // changed since View.IdleLRU was rebuilt
}

const noNode = -1

func newIdleList(n int) idleList {
	return idleList{prev: make([]int32, n), next: make([]int32, n), head: noNode, tail: noNode}
}

func (l *idleList) reset() { l.head, l.tail, l.dirty = noNode, noNode, true }

// insertAfter links node i after node p (noNode: at the head).
func (l *idleList) insertAfter(p, i int32) {
	n := l.head
	if p != noNode {
		n = l.next[p]
		l.next[p] = i
	} else {
		l.head = i
	}
	if n != noNode {
		l.prev[n] = i
	} else {
		l.tail = i
	}
	l.prev[i], l.next[i] = p, n
	l.dirty = true
}

// remove unlinks node i.
func (l *idleList) remove(i int32) {
	p, n := l.prev[i], l.next[i]
	if p == noNode {
		l.head = n
	} else {
		l.next[p] = n
	}
	if n == noNode {
		l.tail = p
	} else {
		l.prev[n] = p
	}
	l.dirty = true
}

// enterIdle records that node i became Idle at the current time.
func (s *Simulator) enterIdle(i int) {
	st := &s.st
	v := &st.view
	v.Nodes[i].IdleSince = st.now
	v.IdleNodes++
	l := &st.idleList
	p := l.tail
	for p != noNode && p > int32(i) && v.Nodes[p].IdleSince == st.now {
		p = l.prev[p]
	}
	l.insertAfter(p, int32(i))
}

// leaveIdle records that node i left the Idle state.
func (s *Simulator) leaveIdle(i int) {
	st := &s.st
	st.view.IdleNodes--
	st.idleList.remove(int32(i))
}

// syncIdleLRU sets View.EarliestIdle and View.IdleLRU from the list.
func (s *Simulator) syncIdleLRU() {
	st := &s.st
	l := &st.idleList
	st.view.EarliestIdle = policy.NoTime
	if l.head != noNode {
		st.view.EarliestIdle = st.view.Nodes[l.head].IdleSince
	}
	if !l.dirty {
		return
	}
	lru := st.view.IdleLRU[:0]
	for i := l.head; i != noNode; i = l.next[i] {
		lru = append(lru, int(i))
	}
	st.view.IdleLRU = lru
	l.dirty = false
}
