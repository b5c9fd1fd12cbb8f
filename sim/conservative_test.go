package sim_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
)

// TestConservativeHandWorked: conservative backfilling starts a job early
// only if it delays no queued job's reservation, where EASY protects the
// head alone.
func TestConservativeHandWorked(t *testing.T) {
	// 4 nodes of 1 slot, always on, every event.
	// j1 (3 slots, req = run 100) at 0 on nodes 0–2, 0–100.
	// j2 (3 slots, 100) at 1: the head, planned at 100 (1 free + 3).
	// j3 (4 slots, 100) at 2: planned after j2, at 200 (all 4 free).
	// j4 (1 slot, req = run 250) at 3: fits on node 3 now.
	// j5 (1 slot, req = run 90) at 4.
	delays := []job{{0, 100, 3, 100}, {1, 100, 3, 100}, {2, 100, 4, 100}, {3, 250, 1, 250}, {4, 90, 1, 90}}
	cases := []struct {
		name   string
		nodes  int
		jobs   []job
		policy policy.Policy
		opt    sim.Options
		want   want
	}{
		{
			// EASY: the head's shadow is 100, extra 1, so j4 starts at
			// 3 on node 3 (to 253), within the extra slot. 100: j2 on
			// nodes 0–2 to 200. 200: j3 needs 4, 3 free: it waits for
			// j4, 253–353 (its reservation, 200, was not protected).
			// j5 (est 90) could have run 200–290 but the shadow is 253
			// and extra 0; it runs 353–443 = TEnd.
			// Busy node-s 300 + 300 + 400 + 250 + 90 = 1340, idle
			// 4·443 − 1340 = 432. Energy = (4320 + 13400 + 6700)/3600.
			name: "easy delays the second job", nodes: 4, jobs: delays,
			opt: sim.Options{Scheduler: sim.EASY, Period: sim.EveryEvent},
			want: want{
				starts: []int64{0, 100, 253, 3, 353}, tEnd: 443,
				stateSeconds:    sim.StateSeconds{policy.Idle: 432, policy.Busy: 1340},
				busySlotSeconds: 1340, energyWh: 24420.0 / 3600,
			},
		},
		{
			// Conservative: at 3 the plan is j2 100–200 (1 slot left),
			// j3 200–300 (none left); j4 needs 1 slot for 250 s from
			// 3: none at 200, so it is planned at 300 and waits. At 4
			// j5 fits 4–94 on node 3 before j2's reservation: it
			// starts. 100: j2 100–200. 200: j3 200–300. 300: j4 to 550
			// = TEnd. Busy node-s 1340, idle 4·550 − 1340 = 860.
			// Energy = (8600 + 13400 + 6700)/3600.
			name: "conservative protects every reservation", nodes: 4, jobs: delays,
			opt: sim.Options{Scheduler: sim.Conservative, Period: sim.EveryEvent},
			want: want{
				starts: []int64{0, 100, 200, 300, 4}, tEnd: 550,
				stateSeconds:    sim.StateSeconds{policy.Idle: 860, policy.Busy: 1340},
				busySlotSeconds: 1340, energyWh: 28700.0 / 3600,
			},
		},
		{
			// The estimate-expiry reproducer of TestHandWorked: at 2 the
			// plan is j3 100–200 and j4 (2 slots, 5000 s) from 150; at
			// 100 j1's estimate expires and j3's plan is now; at 150 j2's
			// does too, j3 is planned 150–250 on 8 of the 10 slots
			// counted free then, and j4 fits in the 2 free now: 150–200.
			name:  "conservative estimate expiry",
			nodes: 10,
			jobs:  []job{{0, 1000, 6, 100}, {0, 1000, 2, 150}, {1, 100, 8, 100}, {2, 50, 2, 5000}},
			opt:   sim.Options{Scheduler: sim.Conservative, Period: sim.EveryEvent},
			want: want{
				starts: []int64{0, 0, 1000, 150}, tEnd: 1100,
				stateSeconds:    sim.StateSeconds{policy.Idle: 2100, policy.Busy: 8900},
				busySlotSeconds: 8900, energyWh: 154500.0 / 3600,
			},
		},
		{
			// Off nodes join the plan as EASY's reservation counts them
			// (TestHandWorked's "easy reserves off nodes"): at 110 the
			// running slots never reach j2's 3, so node 1 counts from
			// 210 (booted now); j2 is planned 1000–1100 and j3 (1 slot,
			// 2000 s) from 1100: it must not start at 110. Same run.
			name:   "conservative reserves off nodes",
			nodes:  3,
			jobs:   []job{{0, 1000, 1, 1000}, {100, 100, 3, 100}, {110, 2000, 1, 2000}},
			policy: lateBoot{off: 1, at: 300},
			opt:    sim.Options{Scheduler: sim.Conservative, Period: 60},
			want: want{
				starts: []int64{0, 1000, 1100}, tEnd: 3100, offNodeSeconds: 250,
				reconfigurations: 2, boots: 1, shutdowns: 1,
				stateSeconds: sim.StateSeconds{
					policy.Off: 250, policy.Booting: 100, policy.Idle: 5600,
					policy.Busy: 3300, policy.ShuttingDown: 50,
				},
				busySlotSeconds: 3300, energyWh: 105750.0/3600 + 1.5,
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.policy
			if p == nil {
				p = alwaysOn(t)
			}
			tr := makeTrace(tc.jobs...)
			r, err := sim.Run(tr, sim.Uniform(tc.nodes, 1, simple), p, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			checkWant(t, r, tc.want)
			if tc.policy == nil && tc.opt.Scheduler == sim.Conservative {
				if ref := conservativeReference(tr, tc.nodes); !slices.Equal(starts(r), ref) {
					t.Errorf("starts %v, reference %v", starts(r), ref)
				}
			}
		})
	}
}

// TestConservativeReference: conservative backfilling, always on, gives
// every job the start the slot-level reference gives, on NASA-iPSC (the
// embedded trace) and SDSC-SP2, under requested times and under run
// times as estimates, and on random traces with underestimates and
// zero-run jobs.
func TestConservativeReference(t *testing.T) {
	checkReference(t, sim.Conservative, conservativeReference)
}

// checkReference replays always on, under scheduler, NASA-iPSC (the
// embedded trace), SDSC-SP2 and random traces with underestimates and
// zero-run jobs, under requested and under run-time estimates, and wants
// every job's start, the job count and the makespan of reference(trace,
// slots), a slot-level replay written apart from the simulator.
func checkReference(t *testing.T, scheduler string, reference func(*datasets.Trace, int) []int64) {
	type trial struct {
		name string
		tr   func(t *testing.T) *datasets.Trace
	}
	trials := []trial{
		{"NASA-iPSC", func(t *testing.T) *datasets.Trace {
			tr, err := datasets.Default()
			if err != nil {
				t.Fatal(err)
			}
			return tr
		}},
		{"SDSC-SP2", func(t *testing.T) *datasets.Trace { return openTrace(t, "SDSC-SP2-1998-4.2-cln.swf.gz") }},
	}
	for seed := range uint64(4) {
		trials = append(trials, trial{"random", func(*testing.T) *datasets.Trace { return refRandomTrace(seed, 2000, 16) }})
	}
	for _, tc := range trials {
		t.Run(tc.name, func(t *testing.T) {
			tr := tc.tr(t)
			c, err := sim.ClusterFromTrace(tr.Meta)
			if tc.name == "random" {
				c, err = sim.Uniform(8, 2, sim.ESCS), nil
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, useRun := range []bool{false, true} {
				r, err := sim.Run(tr, c, alwaysOn(t), sim.Options{Scheduler: scheduler, UseRunTime: useRun})
				if err != nil {
					t.Fatal(err)
				}
				ref := tr
				if useRun {
					ref = withoutReqTimes(tr)
				}
				want, got := reference(ref, c.Slots()), starts(r)
				if len(got) != len(want) {
					t.Fatalf("run-time estimates %v: %d jobs, reference %d", useRun, len(got), len(want))
				}
				makespan := int64(0)
				for i := range want {
					makespan = max(makespan, want[i]+tr.Jobs[i].Run)
					if got[i] != want[i] {
						t.Fatalf("run-time estimates %v: job %d (id %d) starts at %d, reference %d", useRun, i, tr.Jobs[i].ID, got[i], want[i])
					}
				}
				if r.TEnd != makespan {
					t.Errorf("run-time estimates %v: TEnd %d, reference %d", useRun, r.TEnd, makespan)
				}
				t.Logf("run-time estimates %v: %d jobs, makespan %d s, every start equal", useRun, len(got), r.TEnd-r.TIni)
			}
		})
	}
}

func starts(r *sim.Result) []int64 {
	s := make([]int64, len(r.Jobs))
	for i := range r.Jobs {
		s[i] = r.Jobs[i].Start
	}
	return s
}

// withoutReqTimes is tr with no requested time: the run time estimates.
func withoutReqTimes(tr *datasets.Trace) *datasets.Trace {
	c := *tr
	c.Jobs = slices.Clone(tr.Jobs)
	for i := range c.Jobs {
		c.Jobs[i].ReqTime = datasets.Unknown
	}
	return &c
}

// refRandomTrace makes n jobs of at most maxSlots slots in bursts, with
// requested times that under- and overestimate, unknown ones and zero
// run times (a reference test's own generator).
func refRandomTrace(seed uint64, n, maxSlots int) *datasets.Trace {
	rng := rand.New(rand.NewPCG(seed, 7))
	next := func(k uint64) int64 { return int64(rng.Uint64N(k)) }
	tr := &datasets.Trace{Meta: datasets.Meta{Name: "ref-random"}}
	t := int64(0)
	for i := range n {
		if next(4) == 0 { // about one slot-second submitted per slot-second
			t += next(2000)
		}
		run := next(2000)
		if next(15) == 0 {
			run = 0
		}
		req := run/2 + next(uint64(2*run+2))
		if next(6) == 0 {
			req = datasets.Unknown
		}
		tr.Jobs = append(tr.Jobs, datasets.Job{ID: int64(i + 1), Submit: t, Wait: -1, Run: run, Procs: int32(1 + next(uint64(1+next(uint64(maxSlots))))), ReqProcs: -1, ReqTime: req})
	}
	return tr
}

// conservativeReference replays tr always on, on total slots, under
// conservative backfilling, counting slots only (a job takes any free
// slots: on an always-on cluster where jobs span nodes, which ones does
// not matter), and returns every job's start. It is written apart from
// the simulator: at every time something happens (a submission, an end,
// a running job's estimate running out while it still runs) it ends the
// jobs due, queues the submissions, then plans the queue afresh: each
// job, in submit order, at the earliest time from which its slots stay
// free for its estimate (requested time, or run time when unknown), given
// the running jobs (each freeing its slots at start + estimate, or now
// once that has passed) and the jobs planned before it; a job planned now
// starts if its slots are free now. A job ending at once (zero run) ends
// in a further round at the same time.
func conservativeReference(tr *datasets.Trace, total int) []int64 {
	type running struct {
		slots       int
		estEnd, end int64
	}
	n, est := len(tr.Jobs), refEstimates(tr)
	start := make([]int64, n)
	var queue []int
	run := map[int]*running{}
	free, next := total, 0
	now := tr.Jobs[0].Submit
	type point struct {
		t    int64
		free int
	}
	var plan []point // free slots from plan[k].t until plan[k+1].t
	// fits reports whether slots are free in the plan from its point k
	// for d seconds.
	fits := func(slots, k int, d int64) bool {
		to := plan[k].t + d
		for x := k; x < len(plan) && (x == k || plan[x].t < to); x++ {
			if plan[x].free < slots {
				return false
			}
		}
		return true
	}
	// split makes t a point of the plan.
	split := func(t int64) {
		k, found := slices.BinarySearchFunc(plan, t, func(p point, t int64) int {
			switch {
			case p.t < t:
				return -1
			case p.t > t:
				return 1
			}
			return 0
		})
		if !found {
			plan = slices.Insert(plan, k, point{t, plan[k-1].free})
		}
	}
	for done := 0; done < n; {
		for id, r := range run {
			if r.end == now {
				free += r.slots
				delete(run, id)
				done++
			}
		}
		for next < n && tr.Jobs[next].Submit == now {
			queue = append(queue, next)
			next++
		}
		// Plan: slots free now, then each running job's release.
		rel := map[int64]int{}
		for _, r := range run {
			rel[max(r.estEnd, now)] += r.slots
		}
		times := []int64{now}
		for t := range rel {
			if t != now {
				times = append(times, t)
			}
		}
		slices.Sort(times)
		plan = plan[:0]
		acc := free
		for _, t := range times {
			acc += rel[t]
			plan = append(plan, point{t, acc})
		}
		var left []int
		for _, j := range queue {
			slots := int(tr.Jobs[j].Procs)
			at := int64(-1)
			for k := range plan { // the candidate starts: the plan's points
				if fits(slots, k, est[j]) {
					at = plan[k].t
					break
				}
			}
			if est[j] > 0 {
				split(at)
				split(at + est[j])
				for k := range plan {
					if plan[k].t >= at && plan[k].t < at+est[j] {
						plan[k].free -= slots
					}
				}
			}
			if at == now && slots <= free {
				start[j] = now
				free -= slots
				run[j] = &running{slots: slots, estEnd: now + est[j], end: now + tr.Jobs[j].Run}
				continue
			}
			left = append(left, j)
		}
		queue = left
		// The next time something happens.
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
		if done == n {
			break
		}
		now = t
	}
	return start
}
