package sim

// queueSlots counts the queued jobs by slots needed and keeps the fewest:
// when the free slots are fewer, no queued job can start and a
// scheduling pass has nothing to do.
type queueSlots struct {
	count []int32 // queued jobs needing k slots
	some  bitset  // the k with count[k] > 0
	min   int     // fewest slots of a queued job; noSlots when none
}

func newQueueSlots(totalSlots int) queueSlots {
	return queueSlots{count: make([]int32, totalSlots+1), some: newBitset(totalSlots + 1), min: noSlots}
}

func (q *queueSlots) reset() {
	clear(q.count)
	clear(q.some)
	q.min = noSlots
}

func (q *queueSlots) add(k int) {
	if q.count[k]++; q.count[k] == 1 {
		q.some.set(k)
	}
	q.min = min(q.min, k)
}

// remove forgets one queued job of k slots; the next fewest is found a
// word of the bitset at a time.
func (q *queueSlots) remove(k int) {
	if q.count[k]--; q.count[k] > 0 {
		return
	}
	q.some.clear(k)
	if k == q.min {
		if q.min = q.some.next(k + 1); q.min < 0 {
			q.min = noSlots
		}
	}
}
