package policy

import (
	"slices"
	"testing"
)

// TestRecountNodeCounts works out the node counts, EarliestIdle and
// IdleLRU of a small View by hand.
func TestRecountNodeCounts(t *testing.T) {
	nodes := []NodeView{
		{State: Idle, IdleSince: 50, Slots: 2}, // 0
		{State: Off, IdleSince: 10, Slots: 2},  // 1: off, its IdleSince is stale
		{State: Idle, IdleSince: 30, Slots: 4}, // 2
		{State: Booting, Slots: 2},             // 3
		{State: Busy, BusySlots: 1, Slots: 2},  // 4
		{State: Idle, IdleSince: 30, Slots: 2}, // 5: ties with 2, after it by ID
		{State: ShuttingDown, Slots: 2},        // 6
		{State: Off, SleepLevel: 1, Slots: 2},  // 7
		{State: Idle, IdleSince: 20, Slots: 1}, // 8: least recently used
		{State: Busy, BusySlots: 2, Slots: 2},  // 9
	}
	for _, tc := range []struct {
		name  string
		nodes []NodeView
		off   int
		boot  int
		idle  int
		first int64
		lru   []int
	}{
		// Off: 1, 7. Booting: 3. Idle: 8 (20), 2 and 5 (30, by ID), 0 (50).
		{"mixed", nodes, 2, 1, 4, 20, []int{8, 2, 5, 0}},
		{"none idle", nodes[3:5], 0, 1, 0, NoTime, []int{}},
		{"empty", nil, 0, 0, 0, NoTime, []int{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := &View{Nodes: slices.Clone(tc.nodes), IdleLRU: []int{7, 7, 7}} // stale scratch is replaced
			v.Recount()
			if v.OffNodes != tc.off || v.BootingNodes != tc.boot || v.IdleNodes != tc.idle || v.EarliestIdle != tc.first {
				t.Errorf("off %d booting %d idle %d earliest %d, want %d %d %d %d",
					v.OffNodes, v.BootingNodes, v.IdleNodes, v.EarliestIdle, tc.off, tc.boot, tc.idle, tc.first)
			}
			if !slices.Equal(v.IdleLRU, tc.lru) {
				t.Errorf("IdleLRU %v, want %v", v.IdleLRU, tc.lru)
			}
		})
	}
}

// TestDueIdle: the nodes idle for at least wait seconds are a prefix of
// IdleLRU, and the next one due sets the wake time.
func TestDueIdle(t *testing.T) {
	v := &View{Now: 100, Nodes: []NodeView{
		{State: Idle, IdleSince: 40}, // due at 40+50 = 90 ≤ 100
		{State: Idle, IdleSince: 50}, // due at 100: due now
		{State: Idle, IdleSince: 70}, // due at 120
		{State: Idle, IdleSince: 60}, // due at 110: the next
	}}
	v.Recount()
	due, next := dueIdle(v, 50)
	if !slices.Equal(due, []int{0, 1}) || next != 110 {
		t.Errorf("due %v next %d, want [0 1] 110", due, next)
	}
	due, next = dueIdle(v, 0)
	if len(due) != 4 || next != NoTime {
		t.Errorf("wait 0: due %v next %d, want all four and NoTime", due, next)
	}
}
