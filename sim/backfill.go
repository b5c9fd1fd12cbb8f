package sim

import "math"

// candidates indexes the queued jobs for EASY backfilling by trace index
// (queue order is trace order): a segment tree holding, over each range
// of jobs, the fewest slots and the shortest estimate of the queued ones.
// Finding the next job that may backfill skips every range in which no
// job could, so a pass costs in proportion to the jobs it looks at, not
// to the queue's length. The tree covers a window of the trace, jobs
// base..base+size-1, which slides (and grows) as jobs are queued beyond
// it: its memory follows the spread of the queue, not the trace's length.
type candidates struct {
	base     int // first job of the window
	size     int // leaves: a power of two
	minSlots []int32
	minEst   []int64
}

const (
	noSlots = math.MaxInt32
	noEst   = math.MaxInt64
)

// candidatesWindow is the fewest leaves of a candidate index.
const candidatesWindow = 1 << 12

func newCandidates(jobs int) candidates {
	size := 1
	for size < min(jobs, candidatesWindow) {
		size *= 2
	}
	return makeCandidates(0, size)
}

func makeCandidates(base, size int) candidates {
	c := candidates{base: base, size: size, minSlots: make([]int32, 2*size), minEst: make([]int64, 2*size)}
	for i := range c.minSlots {
		c.minSlots[i], c.minEst[i] = noSlots, noEst
	}
	return c
}

// set records job j as queued (slots, est) or, with noSlots and noEst,
// as no longer queued. A job queued outside the window slides it.
func (c *candidates) set(j int, slots int32, est int64) {
	if j < c.base || j-c.base >= c.size {
		if slots == noSlots {
			return // not queued, and not in the window
		}
		c.slide(j)
	}
	i := c.size + j - c.base
	c.minSlots[i], c.minEst[i] = slots, est
	for i > 1 {
		i /= 2
		s := min(c.minSlots[2*i], c.minSlots[2*i+1])
		e := min(c.minEst[2*i], c.minEst[2*i+1])
		if s == c.minSlots[i] && e == c.minEst[i] {
			return // the ancestors above are unchanged too
		}
		c.minSlots[i], c.minEst[i] = s, e
	}
}

// slide moves the window to start at the first queued job or j, whichever
// comes first, with room for twice the jobs from there to the last queued
// job or j (so that slides cost a constant per job), and rebuilds the
// tree. It reuses the buffers unless the window grows.
func (c *candidates) slide(j int) {
	first, last := j, j
	if c.minSlots[1] != noSlots { // some job is queued
		first = min(first, c.base+c.edge(false))
		last = max(last, c.base+c.edge(true))
	}
	size := c.size
	for size < 2*(last-first+1) {
		size *= 2
	}
	if size != c.size {
		nc := makeCandidates(first, size)
		for k := range c.size {
			if c.minSlots[c.size+k] != noSlots {
				nc.minSlots[size+c.base+k-first] = c.minSlots[c.size+k]
				nc.minEst[size+c.base+k-first] = c.minEst[c.size+k]
			}
		}
		*c = nc
	} else {
		slots, ests := c.minSlots[size:], c.minEst[size:]
		switch shift := first - c.base; {
		case shift >= size || -shift >= size:
			for k := range slots {
				slots[k], ests[k] = noSlots, noEst
			}
		case shift > 0:
			copy(slots, slots[shift:])
			copy(ests, ests[shift:])
			for k := size - shift; k < size; k++ {
				slots[k], ests[k] = noSlots, noEst
			}
		case shift < 0:
			copy(slots[-shift:], slots)
			copy(ests[-shift:], ests)
			for k := range -shift {
				slots[k], ests[k] = noSlots, noEst
			}
		}
		c.base = first
	}
	for i := size - 1; i >= 1; i-- {
		c.minSlots[i] = min(c.minSlots[2*i], c.minSlots[2*i+1])
		c.minEst[i] = min(c.minEst[2*i], c.minEst[2*i+1])
	}
}

// edge returns the leaf of the first queued job, or of the last when
// last is set; some job must be queued.
func (c *candidates) edge(last bool) int {
	i := 1
	for i < c.size {
		i *= 2
		if last {
			if c.minSlots[i+1] != noSlots {
				i++
			}
		} else if c.minSlots[i] == noSlots {
			i++
		}
	}
	return i - c.size
}

// next returns the first queued job ≥ from with slots ≤ avail and either
// slots ≤ extra or est ≤ window, or -1.
func (c *candidates) next(from int, avail, extra int32, window int64) int {
	j := c.find(1, 0, c.size, max(from-c.base, 0), avail, extra, window)
	if j < 0 {
		return -1
	}
	return c.base + j
}

func (c *candidates) find(node, lo, hi, from int, avail, extra int32, window int64) int {
	if hi <= from {
		return -1
	}
	s := c.minSlots[node]
	if s > avail || s > extra && c.minEst[node] > window {
		return -1
	}
	if hi-lo == 1 {
		return lo // a leaf: its own slots and estimate passed the test
	}
	mid := (lo + hi) / 2
	if j := c.find(2*node, lo, mid, from, avail, extra, window); j >= 0 {
		return j
	}
	return c.find(2*node+1, mid, hi, from, avail, extra, window)
}
