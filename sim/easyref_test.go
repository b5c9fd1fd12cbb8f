package sim_test

import (
	"slices"
	"testing"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/sim"
)

// TestEASYReference: EASY backfilling, always on, gives every job the
// start the slot-level reference gives (estimate expiry as an event
// included), on NASA-iPSC, SDSC-SP2 and random traces with
// underestimates, under requested and run-time estimates.
func TestEASYReference(t *testing.T) {
	checkReference(t, sim.EASY, easyReference)
	// The reference itself holds job 4 of the expiry reproducer until 150.
	tr := makeTrace(job{0, 1000, 6, 100}, job{0, 1000, 2, 150}, job{1, 100, 8, 100}, job{2, 50, 2, 5000})
	if got := easyReference(tr, 10); !slices.Equal(got, []int64{0, 0, 1000, 150}) {
		t.Errorf("reference on the reproducer: %v", got)
	}
}

// easyReference replays tr always on, on total slots, under EASY
// backfilling, counting slots only, written apart from the simulator: at
// every time something happens (a submission, an end, a running job's
// estimate running out while it still runs) it ends the jobs due, queues
// the submissions, starts jobs from the head while they fit, then gives
// the blocked head its shadow time — when, by the running jobs'
// estimated ends (now for those already overrun), enough slots are free —
// and the extra slots then, and starts in queue order every later job
// that fits now and ends by its estimate before the shadow time or fits
// in the extra slots (which it then uses up). A job ending at once (zero
// run) ends in a further round at the same time.
func easyReference(tr *datasets.Trace, total int) []int64 {
	type running struct {
		slots       int
		estEnd, end int64
	}
	n, est := len(tr.Jobs), refEstimates(tr)
	start := make([]int64, n)
	var queue []int
	run := map[int]*running{}
	free, next, done := total, 0, 0
	now := tr.Jobs[0].Submit
	begin := func(j int) {
		start[j] = now
		free -= int(tr.Jobs[j].Procs)
		run[j] = &running{slots: int(tr.Jobs[j].Procs), estEnd: now + est[j], end: now + tr.Jobs[j].Run}
	}
	for {
		for id, r := range run {
			if r.end == now {
				free += r.slots
				delete(run, id)
				done++
			}
		}
		if done == n {
			return start
		}
		for next < n && tr.Jobs[next].Submit == now {
			queue = append(queue, next)
			next++
		}
		for len(queue) > 0 && int(tr.Jobs[queue[0]].Procs) <= free {
			begin(queue[0])
			queue = queue[1:]
		}
		if len(queue) > 1 {
			type release struct {
				t     int64
				slots int
			}
			var rel []release
			for _, r := range run {
				rel = append(rel, release{max(r.estEnd, now), r.slots})
			}
			slices.SortFunc(rel, func(a, b release) int { return int(a.t - b.t) })
			need, acc, shadow := int(tr.Jobs[queue[0]].Procs), free, int64(-1)
			for k, r := range rel {
				acc += r.slots
				if acc >= need && (k+1 == len(rel) || rel[k+1].t > r.t) {
					shadow = r.t
					break
				}
			}
			extra := acc - need
			left := queue[:1]
			for _, j := range queue[1:] {
				slots := int(tr.Jobs[j].Procs)
				if slots <= free && (now+est[j] <= shadow || slots <= extra) {
					if now+est[j] > shadow {
						extra -= slots
					}
					begin(j)
					continue
				}
				left = append(left, j)
			}
			queue = left
		}
		t := int64(1<<62 - 1)
		if next < n {
			t = tr.Jobs[next].Submit
		}
		for _, r := range run {
			t = min(t, r.end)
			if r.estEnd > now && r.estEnd < r.end {
				t = min(t, r.estEnd)
			}
		}
		now = t
	}
}

// refEstimates are the jobs' estimates as the references read them: the
// requested time, or the run time when the log has none.
func refEstimates(tr *datasets.Trace) []int64 {
	est := make([]int64, len(tr.Jobs))
	for i, j := range tr.Jobs {
		est[i] = j.Run
		if j.ReqTime > 0 {
			est[i] = j.ReqTime
		}
	}
	return est
}
