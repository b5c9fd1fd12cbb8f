package policy

import (
	"slices"
	"strings"
	"testing"
)

// The drain rule on hand-made Views of 8 one-slot nodes (2 busy, nodes 2
// and 3 idle since now−700 and now−200, 4–7 off) at the time of
// TestHGFSTemplateDecisions. Template rules, min_idle 600 s: utilisation
// 2/4 gives an idle time of 150 s, so both idle nodes are due. R2 and R3
// never change with time here (t_max 86400 s, t_min 0).
//
// Running: node 0's job ends by its estimate at now+4000, node 1's at
// now+1900. The head needs all 8 slots: with every node on, 6 are free
// now, 7 at now+1900 and 8 at now+4000, its estimated start.
//   - drain_lead 3600 + drain_gap 60 ≤ 4000: drained. Nothing behind the
//     head can use the idle nodes, so both go; at now+341 the gap is no
//     longer left before the lead (Wake).
//   - A job of 1 slot behind the head that ends by its estimate before
//     now+4000 could backfill: one idle node stays for it. One that
//     would not end in time, with no slot to spare then, keeps none.
//   - drain_gap 1200: 3600 + 1200 > 4000, so the drained queue holds its
//     idle nodes (none goes, none boots) until the head's start comes
//     within the lead at now+401.
//   - drain_lead 7200 > 4000: not drained. The head needs 6 more slots:
//     every off node boots, max_booting 1 notwithstanding.
//   - Without drain (the default), max_booting 1 boots one node.
func TestHGFSDrain(t *testing.T) {
	const now = 100*86400 + 10*3600 + 1000
	head := QueuedJob{ID: 1, Slots: 8, Submit: now - 30, ReqTime: 3600}
	short := QueuedJob{ID: 2, Slots: 1, Submit: now - 20, ReqTime: 3000}
	long := QueuedJob{ID: 3, Slots: 1, Submit: now - 10, ReqTime: 10000}
	tests := []struct {
		name     string
		set      string
		queue    []QueuedJob
		wantOn   []int
		wantOff  []int
		wantWake int64
	}{
		{"drained: both go", "drain_lead=3600 drain_gap=60", []QueuedJob{head}, nil, []int{2, 3}, now + 341},
		{"one kept for a backfill job", "drain_lead=3600 drain_gap=60", []QueuedJob{head, short}, nil, []int{2}, now + 341},
		{"none kept for a long job", "drain_lead=3600 drain_gap=60", []QueuedJob{head, long}, nil, []int{2, 3}, now + 341},
		{"gap too short: held", "drain_lead=3600 drain_gap=1200", []QueuedJob{head}, nil, nil, now + 401},
		{"head due: all boot", "drain_lead=7200 max_booting=1", []QueuedJob{head}, []int{4, 5, 6, 7}, nil, now - 30 + 86400},
		{"no drain: max_booting holds", "max_booting=1", []QueuedJob{head}, []int{4}, nil, now - 30 + 86400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := mkView(now, twoBusyNodes(now-700, now-200), tt.queue)
			v.Running = []RunningJob{
				{ID: 10, Slots: 1, Start: now - 1000, ReqTime: 5000, Nodes: []int{0}},
				{ID: 11, Slots: 1, Start: now - 100, ReqTime: 2000, Nodes: []int{1}},
			}
			set := append([]string{"min_idle=600", "t_min=0", "t_max=86400"}, strings.Fields(tt.set)...)
			d := decide(mustNew(t, "hgfs", set...), v)
			checkDecision(t, d, tt.wantOn, tt.wantOff, tt.wantWake)
		})
	}
}

// headStart counts a running job whose estimate is overrun as ending
// now, and backfillSlots counts the jobs that fit in the slots the head
// will not need at its start.
func TestHeadStartAndBackfillSlots(t *testing.T) {
	const now = 1_000_000
	v := mkView(now, []node{{state: Busy}, {state: Busy}, {state: Busy}, {state: Idle, since: now}}, []QueuedJob{
		{ID: 1, Slots: 3, ReqTime: 100},
		{ID: 2, Slots: 1, ReqTime: 5000}, // fits in the 1 slot to spare at the head's start
		{ID: 3, Slots: 1, ReqTime: 5000}, // no slot left to spare
		{ID: 4, Slots: 2, ReqTime: 50},   // ends before the head starts
	})
	v.Running = []RunningJob{
		{ID: 10, Slots: 1, Start: now - 500, ReqTime: 100}, // overrun: ends now
		{ID: 11, Slots: 1, Start: now, ReqTime: 300},
		{ID: 12, Slots: 1, Start: now, ReqTime: 900},
	}
	p := mustNew(t, "hgfs").(*hgfs)
	// Free with every node on: 1 now, +1 now (overrun) = 2, +1 at now+300.
	if got := p.headStart(v); got != now+300 {
		t.Errorf("head start %d, want now+300", got-now)
	}
	// At now+300 job 12 still runs: 4 slots − 3 for the head − 1 = none to
	// spare, so jobs 2 and 3 cannot start before the head; job 4 ends by
	// now+50.
	// It stops counting once it no longer would: at now+251.
	if got, wake := backfillSlots(v, now+300, v.TotalSlots); got != 2 || wake != now+251 {
		t.Errorf("backfill slots %d, wake now+%d; want 2, now+251", got, wake-now)
	}
	// At a later start, now+900, job 12 has ended: 1 slot to spare, which
	// job 2 takes; job 3 finds none left; job 4 ends in time.
	if got, wake := backfillSlots(v, now+900, v.TotalSlots); got != 3 || wake != now+851 {
		t.Errorf("backfill slots at now+900 %d, wake now+%d; want 3, now+851", got, wake-now)
	}
}

// The sorted estimated ends are reused while the running set is the same,
// and sorted afresh when a job ends, one starts, or both (the same number
// running, a new last ID), or a new replay begins.
func TestRunningEndsFollowTheRunningSet(t *testing.T) {
	type end struct {
		t     int64
		slots int
	}
	a := RunningJob{ID: 1, Slots: 1, Start: 0, ReqTime: 500}
	b := RunningJob{ID: 2, Slots: 2, Start: 10, ReqTime: 100}
	c := RunningJob{ID: 3, Slots: 4, Start: 20, ReqTime: 50}
	a2, a3 := a, a // job 1 again, in other replays
	a2.ReqTime, a3.ReqTime = 900, 300
	steps := []struct {
		now, start int64
		running    []RunningJob
		want       []end
	}{
		{20, 0, []RunningJob{a, b}, []end{{110, 2}, {500, 1}}},
		{30, 0, []RunningJob{a, b}, []end{{110, 2}, {500, 1}}},
		{40, 0, []RunningJob{a, c}, []end{{70, 4}, {500, 1}}},
		{50, 0, []RunningJob{a}, []end{{500, 1}}},
		{60, 0, []RunningJob{a, b, c}, []end{{70, 4}, {110, 2}, {500, 1}}},
		{65, 0, []RunningJob{a}, []end{{500, 1}}},
		{66, 0, []RunningJob{c, a}, []end{{70, 4}, {500, 1}}}, // not in start order: still right
		{67, 0, []RunningJob{a, b}, []end{{110, 2}, {500, 1}}},
		{70, 0, []RunningJob{a}, []end{{500, 1}}},
		{10, 0, []RunningJob{a2}, []end{{900, 1}}}, // time went back: a new replay
		{80, 5, []RunningJob{a3}, []end{{300, 1}}}, // another trace
		{90, 5, []RunningJob{a3}, []end{{300, 1}}},
	}
	var r runningEnds
	for i, s := range steps {
		v := &View{Now: s.now, Start: s.start, Running: s.running}
		var got []end
		for _, e := range r.sorted(v) {
			got = append(got, end{e.t, e.slots})
		}
		if !slices.Equal(got, s.want) {
			t.Errorf("step %d: %v, want %v", i, got, s.want)
		}
	}
}
