package sim

// Event kinds, in the order events at the same time are processed: job ends
// first, then transitions (boots done, boots failed, shutdowns done).
const (
	evJobEnd uint8 = iota
	evBootDone
	evBootFail
	evShutdownDone
)

// event is one future happening: a node transition ending (job ends are
// kept apart, as jobEnd).
type event struct {
	t    int64
	id   int32 // node index
	kind uint8
}

// order ranks events at one time: by kind, then by id (never negative).
func (a event) order() uint64 { return uint64(a.kind)<<32 | uint64(uint32(a.id)) }

// orderKey returns the kind and id of an event from its order.
func orderKey(key uint64) (kind uint8, id int) { return uint8(key >> 32), int(uint32(key)) }

// jobEnd is a job's end: at t, the job and allocation handle in jh (see
// newJobEnd), two words as the heap moves them.
type jobEnd struct {
	t  int64
	jh uint64
}

// newJobEnd is the end at t of job j (the trace index, never negative),
// which runs in allocation h: j in the high half of jh, so that jh
// orders as j does (two running jobs never share j).
func newJobEnd(t int64, j, h int32) jobEnd {
	return jobEnd{t: t, jh: uint64(uint32(j))<<32 | uint64(uint32(h))}
}

// job is the trace index of the ending job.
func (a jobEnd) job() int32 { return int32(a.jh >> 32) }

// alloc is the ending job's allocation handle.
func (a jobEnd) alloc() int32 { return int32(uint32(a.jh)) }

// before orders job ends by time, then by trace index.
func (a jobEnd) before(b jobEnd) bool { return a.t < b.t || a.t == b.t && a.jh < b.jh }

// endHeap is a typed binary min-heap of job ends: no interface boxing, no
// allocation once its slice has grown.
type endHeap []jobEnd

func (h *endHeap) push(e jobEnd) {
	*h = append(*h, e)
	q := *h
	i := len(q) - 1
	for i > 0 { // move the parents later than e down into the hole
		p := (i - 1) / 2
		if !e.before(q[p]) {
			break
		}
		q[i] = q[p]
		i = p
	}
	q[i] = e
}

// pop removes and returns the earliest end; the heap must not be empty.
func (h *endHeap) pop() jobEnd {
	q := *h
	top := q[0]
	n := len(q) - 1
	last := q[n]
	q = q[:n]
	*h = q
	if n == 0 {
		return top
	}
	i := 0
	for { // move the earlier children up into the hole, then put last there
		m := 2*i + 1
		if m >= n {
			break
		}
		if r := m + 1; r < n && q[r].before(q[m]) {
			m = r
		}
		if !q[m].before(last) {
			break
		}
		q[i] = q[m]
		i = m
	}
	q[i] = last
	return top
}
