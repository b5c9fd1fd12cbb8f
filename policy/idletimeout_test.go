package policy

import (
	"slices"
	"testing"
)

func offIDs(d Decision) []int {
	var ids []int
	for _, c := range d.PowerOff {
		ids = append(ids, c.Node)
	}
	return ids
}

// Four nodes; node 3 became idle at t=1000, node 2 at t=500, with
// idle_timeout 600: node 2 is due at 1100, node 3 at 1600.
func TestIdleTimeoutSwitchesOffExactlyAtT(t *testing.T) {
	nodes := []node{{state: Busy, since: 0}, {state: Busy, since: 0}, {state: Idle, since: 500}, {state: Idle, since: 1000}}
	p := mustNew(t, "idle-timeout", "idle_timeout=600")
	tests := []struct {
		now      int64
		wantOff  []int
		wantWake int64
	}{
		{now: 1099, wantOff: nil, wantWake: 1100},
		{now: 1100, wantOff: []int{2}, wantWake: 1600},
		{now: 1599, wantOff: []int{2}, wantWake: 1600},
		{now: 1600, wantOff: []int{2, 3}, wantWake: NoTime},
	}
	for _, tt := range tests {
		d := decide(p, mkView(tt.now, nodes, nil))
		if got := offIDs(d); !slices.Equal(got, tt.wantOff) || d.Wake != tt.wantWake || len(d.PowerOn) != 0 {
			t.Errorf("now %d: off %v wake %d on %v; want off %v wake %d", tt.now, got, d.Wake, d.PowerOn, tt.wantOff, tt.wantWake)
		}
	}
}

func TestIdleTimeoutSpareAndBoot(t *testing.T) {
	tests := []struct {
		name    string
		set     []string
		nodes   []node
		queue   []QueuedJob
		wantOn  []int
		wantOff []int
	}{
		{
			// Both idle nodes are due; spare=1 keeps the most recently used (node 1).
			name:    "spare keeps one",
			set:     []string{"idle_timeout=60", "spare=1"},
			nodes:   []node{{state: Idle, since: 0}, {state: Idle, since: 10}, {state: Off}},
			wantOff: []int{0},
		},
		{
			// A 3-slot job queued, 1 idle slot: boot 2 nodes (IDs 1, 2); nothing off.
			name:   "boot on demand",
			set:    []string{"idle_timeout=60"},
			nodes:  []node{{state: Idle, since: 0}, {state: Off}, {state: Off}, {state: Off}},
			queue:  []QueuedJob{{Slots: 3, Submit: 900}},
			wantOn: []int{1, 2},
		},
		{
			// Same, but at most one node booting, and node 3 already boots.
			name:  "max booting",
			set:   []string{"idle_timeout=60", "max_booting=1"},
			nodes: []node{{state: Idle, since: 0}, {state: Off}, {state: Off}, {state: Booting}},
			queue: []QueuedJob{{Slots: 4, Submit: 900}},
		},
		{
			// 2-slot job queued, 2 idle timed-out nodes: the queue keeps them on.
			name:  "queue keeps idle nodes",
			set:   []string{"idle_timeout=60"},
			nodes: []node{{state: Idle, since: 0}, {state: Idle, since: 0}, {state: Busy}},
			queue: []QueuedJob{{Slots: 2, Submit: 900}},
		},
		{
			// spare=2 with one idle node: boot one more.
			name:   "spare boots",
			set:    []string{"idle_timeout=60", "spare=2"},
			nodes:  []node{{state: Idle, since: 999}, {state: Busy}, {state: Off}, {state: Off}},
			wantOn: []int{2},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := decide(mustNew(t, "idle-timeout", tt.set...), mkView(1000, tt.nodes, tt.queue))
			if !slices.Equal(d.PowerOn, tt.wantOn) || !slices.Equal(offIDs(d), tt.wantOff) {
				t.Errorf("on %v off %v; want on %v off %v", d.PowerOn, offIDs(d), tt.wantOn, tt.wantOff)
			}
		})
	}
}

func TestAlwaysOff(t *testing.T) {
	nodes := []node{{state: Idle, since: 1000}, {state: Busy}, {state: Off}}
	d := decide(mustNew(t, "always-off"), mkView(1000, nodes, nil))
	if !slices.Equal(offIDs(d), []int{0}) || len(d.PowerOn) != 0 || d.Wake != NoTime {
		t.Errorf("got %+v; want node 0 off at once", d)
	}
	d = decide(mustNew(t, "always-off"), mkView(1000, nodes[1:], []QueuedJob{{Slots: 1, Submit: 1000}}))
	if !slices.Equal(d.PowerOn, []int{1}) {
		t.Errorf("got %+v; want node 1 booted", d)
	}
}
