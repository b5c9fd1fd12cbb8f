package sim

import "slices"

// transitionQueue holds the pending boots, failed boots and shutdowns that
// take one duration. They are pushed as time moves forward, so they come
// due in the order they were pushed: a ring buffer replaces the heap, and
// the heap keeps only job ends.
type transitionQueue struct {
	dur  int64
	buf  []event // ring; len is a power of two
	head int
	n    int
}

func (q *transitionQueue) push(e event) {
	if q.n == len(q.buf) {
		grown := make([]event, max(16, 2*len(q.buf)))
		for k := range q.n {
			grown[k] = q.buf[(q.head+k)&(len(q.buf)-1)]
		}
		q.buf, q.head = grown, 0
	}
	q.buf[(q.head+q.n)&(len(q.buf)-1)] = e
	q.n++
}

func (q *transitionQueue) peek() event { return q.buf[q.head] }

func (q *transitionQueue) pop() event {
	e := q.buf[q.head]
	q.head = (q.head + 1) & (len(q.buf) - 1)
	q.n--
	return e
}

// pushTransition schedules a transition ending dur seconds from now.
func (s *Simulator) pushTransition(dur int64, id int32, kind uint8) {
	st := &s.st
	e := event{t: st.now + dur, id: id, kind: kind}
	st.nextTrans = min(st.nextTrans, e.t)
	for k := range st.trans {
		if st.trans[k].dur == dur {
			st.trans[k].push(e)
			return
		}
	}
	st.trans = append(st.trans, transitionQueue{dur: dur}) // once per duration
	st.trans[len(st.trans)-1].push(e)
}

// pendingTransitions reports whether any transition is under way.
func (s *Simulator) pendingTransitions() bool { return s.st.nextTrans != never }

// dueTransitions takes the transitions ending at t, in processing order
// (by kind, then by node), as their order keys (event.order).
func (s *Simulator) dueTransitions(t int64) []uint64 {
	st := &s.st
	st.due = st.due[:0]
	next := never
	for k := range st.trans {
		q := &st.trans[k]
		for q.n > 0 && q.peek().t == t {
			st.due = append(st.due, q.pop().order())
		}
		if q.n > 0 {
			next = min(next, q.peek().t)
		}
	}
	st.nextTrans = next
	slices.Sort(st.due)
	return st.due
}

func (s *Simulator) resetTransitions() {
	for k := range s.st.trans {
		s.st.trans[k].head, s.st.trans[k].n = 0, 0
	}
	s.st.nextTrans = never
}
