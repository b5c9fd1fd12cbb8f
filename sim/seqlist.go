package sim

// seqList is an ordered list kept in place: the values a policy sees
// (QueuedJob, RunningJob) in one contiguous slice, and beside each a key
// that increases along the list (the job's index in the trace for the
// queue, its rank in start order for the running jobs). Appending is
// amortised O(1); removing element i moves the shorter side, so removing
// near either end is cheap. Slots outside the list are not cleared: the
// values refer only to what outlives a run (the trace's strings, the
// allocations' node buffers).
type seqList[T any] struct {
	vals []T
	keys []int32
	head int
	tail int
}

func (l *seqList[T]) reset() { l.head, l.tail = 0, 0 }

func (l *seqList[T]) len() int          { return l.tail - l.head }
func (l *seqList[T]) items() []T        { return l.vals[l.head:l.tail:l.tail] }
func (l *seqList[T]) key(i int) int32   { return l.keys[l.head+i] }
func (l *seqList[T]) keyItems() []int32 { return l.keys[l.head:l.tail:l.tail] }
func (l *seqList[T]) at(i int) *T       { return &l.vals[l.head+i] }

// pushNew appends an item with key and returns it, to be set in place
// (it holds what the slot last held).
func (l *seqList[T]) pushNew(key int32) *T {
	if l.tail == len(l.vals) {
		l.makeRoom()
	}
	v := &l.vals[l.tail]
	l.keys[l.tail] = key
	l.tail++
	return v
}

// makeRoom moves the items to the front, growing the buffers when more
// than half full.
func (l *seqList[T]) makeRoom() {
	n := l.len()
	if 2*n >= len(l.vals) {
		size := max(16, 2*len(l.vals))
		vals := make([]T, size)
		keys := make([]int32, size)
		copy(vals, l.vals[l.head:l.tail])
		copy(keys, l.keys[l.head:l.tail])
		l.vals, l.keys = vals, keys
	} else {
		copy(l.vals, l.vals[l.head:l.tail])
		copy(l.keys, l.keys[l.head:l.tail])
	}
	l.head, l.tail = 0, n
}

// removeAt deletes item i, keeping the order of the others. A few items
// (the common case) are moved one by one, where copy would call into the
// runtime (typedslicecopy, memmove) for each list.
func (l *seqList[T]) removeAt(i int) {
	n := l.len()
	if i < n/2 {
		vals, keys := l.vals[l.head:], l.keys[l.head:]
		if i <= fewItems {
			for k := i; k > 0; k-- {
				vals[k], keys[k] = vals[k-1], keys[k-1]
			}
		} else {
			copy(vals[1:i+1], vals[:i])
			copy(keys[1:i+1], keys[:i])
		}
		l.head++
		return
	}
	vals, keys := l.vals[l.head:l.tail], l.keys[l.head:l.tail]
	if n-i <= fewItems {
		for k := i + 1; k < len(vals); k++ {
			vals[k-1], keys[k-1] = vals[k], keys[k]
		}
	} else {
		copy(vals[i:], vals[i+1:])
		copy(keys[i:], keys[i+1:])
	}
	l.tail--
}

// fewItems is how many items removeAt moves one by one.
const fewItems = 8

// find returns the position of key, or -1. Keys must increase along the
// list.
func (l *seqList[T]) find(key int32) int {
	lo, hi := l.head, l.tail
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if l.keys[m] < key {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < l.tail && l.keys[lo] == key {
		return lo - l.head
	}
	return -1
}
