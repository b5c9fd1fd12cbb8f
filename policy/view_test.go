package policy

import (
	"slices"
	"testing"
)

// Helpers to build small hand-made Views for the tests.

// node is one node of a hand-made View.
type node struct {
	state     NodeState
	since     int64 // also IdleSince for idle nodes
	slots     int
	busySlots int
}

// mkView builds a View at time now of one group with the ESCS power model,
// computing the summary counts from nodes and queue.
func mkView(now int64, nodes []node, queue []QueuedJob) *View {
	v := &View{
		Now:    now,
		Period: 60,
		Groups: []Group{{Name: "node", Count: len(nodes), Slots: 1, Model: escsModel}},
		Queue:  queue,
	}
	for i, n := range nodes {
		if n.slots == 0 {
			n.slots = 1
		}
		nv := NodeView{
			ID: i, Name: nodeName(i), State: n.state, Since: n.since, Slots: n.slots,
			BusySlots: n.busySlots, LastFailed: NoTime, IdleSince: NoTime,
		}
		if n.state == Idle {
			nv.IdleSince = n.since
		}
		if n.state == Busy && nv.BusySlots == 0 {
			nv.BusySlots = n.slots
		}
		v.Nodes = append(v.Nodes, nv)
	}
	v.Recount()
	return v
}

func nodeName(i int) string {
	return "node" + string(rune('0'+i/100%10)) + string(rune('0'+i/10%10)) + string(rune('0'+i%10))
}

// escsModel is the node model of the ESCS paper (docs/architecture.md).
var escsModel = NodeModel{
	OffW: 2, IdleW: 150, BusyW: 80, BootS: 555, BootWh: 13.71, ShutdownS: 480, ShutdownWh: 10.79,
}

// decide runs p on v and returns a fresh Decision.
func decide(p Policy, v *View) Decision {
	var d Decision
	d.Reset()
	p.Decide(v, &d)
	return d
}

func mustNew(t interface{ Fatal(...any) }, name string, kv ...string) Policy {
	s, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	c, err := ParseSet(s, kv)
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.New(c)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// checkDecision fails t unless d boots wantOn and switches off wantOff, in
// that order, and wakes at wantWake.
func checkDecision(t *testing.T, d Decision, wantOn, wantOff []int, wantWake int64) {
	t.Helper()
	if !slices.Equal(d.PowerOn, wantOn) || !slices.Equal(offIDs(d), wantOff) || d.Wake != wantWake {
		t.Errorf("on %v off %v wake %d; want on %v off %v wake %d", d.PowerOn, offIDs(d), d.Wake, wantOn, wantOff, wantWake)
	}
}
