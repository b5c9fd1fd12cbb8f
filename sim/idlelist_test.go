package sim

import (
	"slices"
	"testing"

	"github.com/ecotune/ecotune/policy"
)

// TestIdleListOrder makes nodes idle in one second in the orders a replay
// can (jobs release their nodes job by job, so IDs come out of order) and
// squeezes the list between them, as a decision in mid-second does:
// View.IdleLRU must always be the Idle nodes by (IdleSince, ID). The
// third case failed before the squeeze learned that sorting changes the
// list's last entry (a node appended after the sort was compared with the
// node appended last, not with the last entry, and left out of place).
func TestIdleListOrder(t *testing.T) {
	cases := []struct {
		name  string
		steps [][]int // nodes made idle at the same time; a squeeze between steps
	}{
		{"in order", [][]int{{3, 4, 10}}},
		{"out of order", [][]int{{10, 3, 4}}},
		{"sorted then appended", [][]int{{10, 3}, {4}}},
		{"sorted twice", [][]int{{10, 3}, {4}, {2, 11}, {5}}},
		{"appended after the last", [][]int{{10, 3}, {12}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := New(randomTrace(1, 10, 32), oneSlotCluster(1), Options{Scheduler: FCFS})
			if err != nil {
				t.Fatal(err)
			}
			p, err := policy.New(policy.Config{Name: "idle-timeout"})
			if err != nil {
				t.Fatal(err)
			}
			s.reset(p, &Result{})
			s.buildIdle() // kept from now on
			st := &s.st
			var busy []int // every node the case uses turns Busy first
			for _, step := range tc.steps {
				busy = append(busy, step...)
			}
			st.now++
			for _, i := range busy {
				s.leaveIdle(i)
				st.view.Nodes[i].Enter(policy.Busy, st.now)
			}
			st.now++
			for _, step := range tc.steps {
				for _, i := range step {
					st.view.Nodes[i].Enter(policy.Idle, st.now)
					s.enterIdle(i)
				}
				s.syncIdleLRU()
				want := policy.View{Nodes: st.view.Nodes}
				want.Recount()
				if !slices.Equal(st.view.IdleLRU, want.IdleLRU) {
					t.Fatalf("after %v: IdleLRU %v, want %v", step, st.view.IdleLRU, want.IdleLRU)
				}
			}
		})
	}
}
