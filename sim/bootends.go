package sim

// bootEnds holds the expected ends of the booting nodes for EASY's
// reservation, soonest first from head on. Boots start as time moves
// forward and most take one duration, so a new one belongs at the end
// and the one completing is the first: both are O(1) in the common case,
// where in the estimate list of running jobs they would be inserted and
// removed among the jobs that overran their estimates.
type bootEnds struct {
	e    []endEntry
	head int
}

func (q *bootEnds) reset() { q.e, q.head = q.e[:0], 0 }

// items returns the entries, soonest first.
func (q *bootEnds) items() []endEntry { return q.e[q.head:] }

// add inserts e in time order, after the entries of the same time (the
// reservation depends only on the times), searching from the latest end.
func (q *bootEnds) add(e endEntry) {
	if len(q.e) == cap(q.e) && q.head > 0 { // reuse the room before head
		q.e = q.e[:copy(q.e, q.e[q.head:])]
		q.head = 0
	}
	q.e = append(q.e, e)
	k := len(q.e) - 1
	for ; k > q.head && e.t < q.e[k-1].t; k-- {
		q.e[k] = q.e[k-1]
	}
	q.e[k] = e
}

// remove deletes the entry of id (−1−node), if there is one.
func (q *bootEnds) remove(id int32) {
	for k := q.head; k < len(q.e); k++ {
		if q.e[k].id != id {
			continue
		}
		if k == q.head {
			q.head++
		} else {
			q.e = append(q.e[:k], q.e[k+1:]...)
		}
		if q.head == len(q.e) {
			q.reset()
		}
		return
	}
}
