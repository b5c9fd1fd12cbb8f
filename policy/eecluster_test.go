package policy

import (
	"testing"
)

// twoGroups: nodes 0–1 in group "slow" (100 GFLOPS at 230 W at full
// load: 0.43 GFLOPS/W), nodes 2–3 in group "fast" (460 GFLOPS: 2 GFLOPS/W).
func twoGroups(v *View, failed map[int]int64) *View {
	v.Groups = []Group{
		{Name: "slow", Count: 2, Slots: 1, GFLOPS: 100, Model: escsModel},
		{Name: "fast", Count: 2, Slots: 1, GFLOPS: 460, Model: escsModel},
	}
	for i := range v.Nodes {
		v.Nodes[i].Group = i / 2
		if t, ok := failed[i]; ok {
			v.Nodes[i].LastFailed = t
		}
	}
	return v
}

func TestEECluster(t *testing.T) {
	off4 := []node{{state: Off}, {state: Off}, {state: Off}, {state: Off}}
	idle4 := []node{{state: Idle, since: 900}, {state: Idle, since: 950}, {state: Idle, since: 800}, {state: Idle, since: 700}}
	set := []string{"t_max=600", "n_max=3", "t_min=120", "n_min=1"}
	tests := []struct {
		name     string
		nodes    []node
		queue    []QueuedJob
		failed   map[int]int64
		wantOn   []int
		wantOff  []int
		wantWake int64
	}{
		{
			// R1: one slot needed: the most efficient node (2, fast).
			// Mean wait 0 (submitted now): t_min crossed at 1000+120.
			name: "R1 efficient first", nodes: off4,
			queue:  []QueuedJob{{Slots: 1, Submit: 1000}},
			wantOn: []int{2}, wantWake: 1120,
		},
		{
			// Node 2 failed at 500, node 3 at 300: unfailed nodes first
			// (most efficient among them: 0 and 1 tie → ID), then 3, then 2.
			name: "failed last, oldest failure first", nodes: off4, failed: map[int]int64{2: 500, 3: 300},
			queue:  []QueuedJob{{Slots: 4, Submit: 1000}},
			wantOn: []int{0, 1, 3, 2}, wantWake: 1120,
		},
		{
			// R1 boots node 2 for the 1-slot job; R2: its wait 1000 − 300 =
			// 700 > t_max=600: one more node (3). No crossing left.
			name: "R2 wait", nodes: off4,
			queue:  []QueuedJob{{Slots: 1, Submit: 300}},
			wantOn: []int{2, 3}, wantWake: NoTime,
		},
		{
			// R3: empty queue: power off one node, the least efficient
			// (0 and 1 are slow; 1 is idle since 950, 0 since 900: LRU → 0).
			name: "R3 least efficient", nodes: idle4,
			wantOff: []int{0}, wantWake: 1060,
		},
		{
			// R3 does not hold: 1 queued job (not < n_min=1) waiting 500 s
			// (not < t_min=120); 4 idle slots cover it: no R1.
			// Mean wait reaches t_max=600 at 1100 (exceeds it at 1101; a
			// crossing wakes at the first second the wait is ≥ threshold).
			name: "no R3", nodes: idle4,
			queue:    []QueuedJob{{Slots: 1, Submit: 500}},
			wantWake: 1100,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := twoGroups(mkView(1000, tt.nodes, tt.queue), tt.failed)
			d := decide(mustNew(t, "eecluster", set...), v)
			checkDecision(t, d, tt.wantOn, tt.wantOff, tt.wantWake)
		})
	}
}
