package sim

import (
	"slices"

	"github.com/ecotune/ecotune/policy"
)

// View.IdleLRU, the Idle nodes by (IdleSince, ID), kept in order as nodes
// come and go: time only moves forward, so a node becoming idle goes at
// the end, behind only the nodes that became idle at the same second
// with a higher ID. Policies then find the nodes due for an idle timeout
// as a prefix, without sorting at every decision.

// enterIdle records that node i became Idle at the current time.
func (s *Simulator) enterIdle(i int) {
	st := &s.st
	v := &st.view
	v.Nodes[i].IdleSince = st.now
	if v.IdleNodes == 0 {
		v.EarliestIdle = st.now
	}
	v.IdleNodes++
	lru := append(v.IdleLRU, i)
	k := len(lru) - 1
	for k > 0 && lru[k-1] > i && v.Nodes[lru[k-1]].IdleSince == st.now {
		lru[k] = lru[k-1]
		k--
	}
	lru[k] = i
	v.IdleLRU = lru
}

// leaveIdle records that node i left the Idle state.
func (s *Simulator) leaveIdle(i int) {
	v := &s.st.view
	v.IdleNodes--
	k := slices.Index(v.IdleLRU, i)
	v.IdleLRU = append(v.IdleLRU[:k], v.IdleLRU[k+1:]...)
	if len(v.IdleLRU) == 0 {
		v.EarliestIdle = policy.NoTime
	} else {
		v.EarliestIdle = v.Nodes[v.IdleLRU[0]].IdleSince
	}
}
