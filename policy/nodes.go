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

// bootInOrder appends to d.PowerOn the Off nodes of order, in order,
// until their slots reach slots, then extra more nodes, never more than
// maxNodes nodes in all (maxNodes < 0: no limit). It returns the number of
// nodes booted. A nil order means node-ID order.
func bootInOrder(v *View, d *Decision, order []int, slots, extra, maxNodes int) int {
	if slots <= 0 && extra == 0 {
		return 0 // the usual case: nothing to boot
	}
	booted, n := 0, 0
	count := len(v.Nodes)
	if order != nil {
		count = len(order)
	}
	for k := range count {
		if n == maxNodes || (booted >= slots && extra == 0) {
			break
		}
		i := k
		if order != nil {
			i = order[k]
		}
		if v.Nodes[i].State != Off {
			continue
		}
		if booted >= slots {
			extra--
		}
		d.PowerOn = append(d.PowerOn, i)
		booted += v.Nodes[i].Slots
		n++
	}
	return n
}

// dueIdle returns the nodes of v.IdleLRU idle for at least wait seconds
// (a prefix of it, least recently used first), and when the next one
// becomes due (NoTime: none left).
func dueIdle(v *View, wait int64) (due []int, next int64) {
	lru := v.IdleLRU
	cut, hi := 0, len(lru) // the first node not yet due (IdleSince rises along lru)
	for cut < hi {
		m := int(uint(cut+hi) >> 1)
		if v.Nodes[lru[m]].IdleSince+wait > v.Now {
			hi = m
		} else {
			cut = m + 1
		}
	}
	if cut == len(lru) {
		return lru, NoTime
	}
	return lru[:cut], v.Nodes[lru[cut]].IdleSince + wait
}

// sortLRU sorts the node IDs of ids least recently idle (oldest
// IdleSince) first, ties by node ID.
func sortLRU(v *View, ids []int) {
	slices.SortFunc(ids, func(a, b int) int {
		return cmp.Or(cmp.Compare(v.Nodes[a].IdleSince, v.Nodes[b].IdleSince), cmp.Compare(a, b))
	})
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

// waitOf is the queue wait of v's queue, from its summary counts.
func waitOf(v *View) queueWait {
	return queueWait{n: len(v.Queue), sumSubmit: v.QueuedSubmitSum}
}

// gap is t·n − Σsubmit − x·n: positive when the mean wait at t exceeds
// x, exact while t·n stays below 2^53.
func (w queueWait) gap(t int64, x float64) float64 {
	return float64(t*int64(w.n)-w.sumSubmit) - x*float64(w.n)
}

// above reports whether the mean wait at t exceeds x (false when empty).
func (w queueWait) above(t int64, x float64) bool { return w.n > 0 && w.gap(t, x) > 0 }

// below reports whether the mean wait at t is below x (an empty queue
// waits 0).
func (w queueWait) below(t int64, x float64) bool {
	if w.n == 0 {
		return x > 0
	}
	return w.gap(t, x) < 0
}

// crossing returns the first second after now at which above(·, x) or
// below(·, x) changes, or NoTime if neither ever does. The mean wait only
// grows, so they can only turn from false to true and true to false.
func (w queueWait) crossing(now int64, x float64) int64 {
	if w.n == 0 || w.gap(now, x) > 0 {
		return NoTime
	}
	if w.gap(now, x) == 0 {
		return now + 1
	}
	t := int64(math.Ceil(x + float64(w.sumSubmit)/float64(w.n)))
	t = max(t, now+1)
	for t > now+1 && w.gap(t-1, x) >= 0 {
		t--
	}
	for w.gap(t, x) < 0 {
		t++
	}
	return t
}
