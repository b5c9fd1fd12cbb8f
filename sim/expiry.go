package sim

// expiries holds the times at which running jobs' estimates run out while
// they still run (start + estimate < end): a backfilling scheduler counts
// such a job as ending now once its estimate has passed, so the head's
// reservation may move earlier and a job may backfill at that second; the
// expiry is an event (a scheduling pass), though nothing in the View
// changes. A typed binary min-heap of times; entries of a job that ended
// are never left behind, as a job whose estimate is not overrun has none.
type expiries []int64

func (h *expiries) push(t int64) {
	*h = append(*h, t)
	q := *h
	i := len(q) - 1
	for i > 0 {
		p := (i - 1) / 2
		if q[p] <= t {
			break
		}
		q[i] = q[p]
		i = p
	}
	q[i] = t
}

// pop removes the earliest time; the heap must not be empty.
func (h *expiries) pop() {
	q := *h
	n := len(q) - 1
	last := q[n]
	q = q[:n]
	*h = q
	i := 0
	for {
		m := 2*i + 1
		if m >= n {
			break
		}
		if r := m + 1; r < n && q[r] < q[m] {
			m = r
		}
		if q[m] >= last {
			break
		}
		q[i] = q[m]
		i = m
	}
	if n > 0 {
		q[i] = last
	}
}

// expire runs out the estimates that expire at t (the next expiry): the
// scheduler passes again.
func (s *Simulator) expire(t int64) {
	st := &s.st
	for len(st.expiries) > 0 && st.expiries[0] <= t {
		st.expiries.pop()
		st.schedule = true
	}
}
