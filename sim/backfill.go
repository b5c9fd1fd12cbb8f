package sim

import "math"

// candidates indexes the queued jobs for EASY backfilling by trace index
// (queue order is trace order): a segment tree holding, over each range
// of jobs, the fewest slots and the shortest estimate of the queued ones.
// Finding the next job that may backfill skips every range in which no
// job could, so a pass costs in proportion to the jobs it looks at, not
// to the queue's length.
type candidates struct {
	size     int // leaves: a power of two ≥ jobs
	minSlots []int32
	minEst   []int64
}

const (
	noSlots = math.MaxInt32
	noEst   = math.MaxInt64
)

func newCandidates(jobs int) candidates {
	size := 1
	for size < jobs {
		size *= 2
	}
	c := candidates{size: size, minSlots: make([]int32, 2*size), minEst: make([]int64, 2*size)}
	for i := range c.minSlots {
		c.minSlots[i], c.minEst[i] = noSlots, noEst
	}
	return c
}

// set records job j as queued (slots, est) or, with noSlots and noEst,
// as no longer queued.
func (c *candidates) set(j int, slots int32, est int64) {
	i := c.size + j
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

// next returns the first queued job ≥ from with slots ≤ avail and either
// slots ≤ extra or est ≤ window, or -1.
func (c *candidates) next(from int, avail, extra int32, window int64) int {
	return c.find(1, 0, c.size, from, avail, extra, window)
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
