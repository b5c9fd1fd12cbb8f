package sim

// queueSlots counts the queued jobs by slots needed and keeps the fewest:
// when the free slots are fewer, no queued job can start and a
// scheduling pass has nothing to do.
type queueSlots struct {
	count []int32 // queued jobs needing k slots
	min   int     // fewest slots of a queued job; noSlots when none
}

func newQueueSlots(totalSlots int) queueSlots {
	return queueSlots{count: make([]int32, totalSlots+1), min: noSlots}
}

func (q *queueSlots) reset() {
	clear(q.count)
	q.min = noSlots
}

func (q *queueSlots) add(k int) {
	q.count[k]++
	q.min = min(q.min, k)
}

// remove forgets one queued job of k slots; finding the next fewest costs
// in total at most the slots the minimum rises by.
func (q *queueSlots) remove(k int) {
	q.count[k]--
	if k != q.min || q.count[k] > 0 {
		return
	}
	for m := k + 1; m < len(q.count); m++ {
		if q.count[m] > 0 {
			q.min = m
			return
		}
	}
	q.min = noSlots
}
