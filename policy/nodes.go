package policy

import (
	"cmp"
	"math"
	"slices"
)

// Helpers shared by the policies. None allocates once the caller's scratch
// slices have grown to the cluster's size.

// freeSlots is the number of slots of powered nodes (booting included,
// shutting down excluded) that run no job: what the queue can use soon
// without booting anything.
func freeSlots(v *View) int { return v.PoweredSlots - v.BusySlots }

// queueDeficit is the number of queued slots that the free slots cannot
// cover: what must be booted so that every queued job has powered room.
func queueDeficit(v *View) int { return max(0, v.QueuedSlots-freeSlots(v)) }

// bootInOrder appends to d.PowerOn the Off nodes of order, in order, until
// their slots reach slots or maxNodes nodes are booted (maxNodes < 0: no
// limit). It returns the slots booted. A nil order means node-ID order.
func bootInOrder(v *View, d *Decision, order []int, slots, maxNodes int) int {
	booted, n := 0, 0
	boot := func(i int) bool {
		if booted >= slots || n == maxNodes {
			return false
		}
		if v.Nodes[i].State == Off {
			d.PowerOn = append(d.PowerOn, i)
			booted += v.Nodes[i].Slots
			n++
		}
		return true
	}
	if order == nil {
		for i := range v.Nodes {
			if !boot(i) {
				break
			}
		}
		return booted
	}
	for _, i := range order {
		if !boot(i) {
			break
		}
	}
	return booted
}

// countState counts the nodes in state s.
func countState(v *View, s NodeState) int {
	n := 0
	for i := range v.Nodes {
		if v.Nodes[i].State == s {
			n++
		}
	}
	return n
}

// idleNodes appends the IDs of the Idle nodes to buf[:0], least recently
// used (oldest IdleSince) first, ties by node ID.
func idleNodes(v *View, buf []int) []int {
	buf = buf[:0]
	for i := range v.Nodes {
		if v.Nodes[i].State == Idle {
			buf = append(buf, i)
		}
	}
	slices.SortFunc(buf, func(a, b int) int {
		return cmp.Or(cmp.Compare(v.Nodes[a].IdleSince, v.Nodes[b].IdleSince), cmp.Compare(a, b))
	})
	return buf
}

// earliest returns the earlier of two wake times, NoTime meaning never.
func earliest(a, b int64) int64 {
	switch {
	case a == NoTime:
		return b
	case b == NoTime:
		return a
	}
	return min(a, b)
}

// later returns t if it lies after now, else NoTime: a Wake must be in the
// future to mean anything.
func later(now, t int64) int64 {
	if t > now {
		return t
	}
	return NoTime
}

// queueWait summarises the waits of queued jobs: n jobs submitted at a
// total of sumSubmit seconds. Their mean wait at time t is
// t − sumSubmit/n, which grows by one second per second.
type queueWait struct {
	n         int
	sumSubmit int64
}

func waitOf(q []QueuedJob) queueWait {
	w := queueWait{n: len(q)}
	for i := range q {
		w.sumSubmit += q[i].Submit
	}
	return w
}

// mean is the mean wait at time t (0 for an empty queue).
func (w queueWait) mean(t int64) float64 {
	if w.n == 0 {
		return 0
	}
	return float64(t) - float64(w.sumSubmit)/float64(w.n)
}

// above reports whether the mean wait at t exceeds x, computed exactly
// (t·n − Σsubmit > x·n, all integers below 2^53 stay exact).
func (w queueWait) above(t int64, x float64) bool {
	return w.n > 0 && float64(t*int64(w.n)-w.sumSubmit) > x*float64(w.n)
}

// crossing returns the first second after now at which above(·, x)
// changes value, or NoTime if it never does (empty queue). The mean wait
// only grows, so it can only turn from false to true.
func (w queueWait) crossing(now int64, x float64) int64 {
	if w.n == 0 || w.above(now, x) {
		return NoTime
	}
	t := int64(math.Ceil(x + float64(w.sumSubmit)/float64(w.n)))
	for t > now+1 && w.above(t-1, x) {
		t--
	}
	for !w.above(t, x) {
		t++
	}
	return later(now, t)
}
