package sim

import (
	"math/rand/v2"
	"testing"
)

// TestCandidatesWindow checks the sliding candidate index against a
// brute-force scan of the queued jobs, over random queues whose spread
// grows and shrinks (the window slides, grows and moves back for a new
// run).
func TestCandidatesWindow(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		rng := rand.New(rand.NewPCG(seed, 7))
		const jobs = 30000
		c := newCandidates(jobs)
		slots := make([]int32, jobs)
		ests := make([]int64, jobs)
		queued := make([]bool, jobs)
		var order []int // the queued jobs, in trace order
		next := 0       // jobs are queued in trace order, as the simulator does
		for step := 0; step < 100000; step++ {
			switch {
			case next < jobs && (len(order) == 0 || rng.IntN(2) > 0):
				slots[next], ests[next] = int32(1+rng.IntN(64)), int64(1+rng.IntN(1000))
				c.set(next, slots[next], ests[next])
				queued[next] = true
				order = append(order, next)
				next++
			case len(order) > 0:
				// Dequeue the oldest job mostly (FCFS starts), sometimes
				// a recent one (backfilled).
				k := 0
				if rng.IntN(4) == 0 {
					k = len(order) - 1 - rng.IntN(min(len(order), 8))
				}
				j := order[k]
				order = append(order[:k], order[k+1:]...)
				c.set(j, noSlots, noEst)
				queued[j] = false
			}
			if next == jobs && len(order) == 0 {
				next = 0 // a new run starts from the first job again
			}
			avail, extra, window := int32(1+rng.IntN(64)), int32(rng.IntN(64)), int64(rng.IntN(1000))
			from := max(next-rng.IntN(500), 0)
			if step%100 == 0 {
				from = rng.IntN(next + 1) // before the window too
			}
			want := -1
			for j := from; j < next; j++ {
				if queued[j] && slots[j] <= avail && (slots[j] <= extra || ests[j] <= window) {
					want = j
					break
				}
			}
			if got := c.next(from, avail, extra, window); got != want {
				t.Fatalf("seed %d step %d: next(%d, %d, %d, %d) = %d, want %d (window %d+%d)", seed, step, from, avail, extra, window, got, want, c.base, c.size)
			}
		}
		if c.size >= jobs {
			t.Errorf("seed %d: window of %d leaves for %d jobs: it should follow the queue's spread", seed, c.size, jobs)
		}
	}
}
