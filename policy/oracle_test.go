package policy

import (
	"slices"
	"testing"
)

func clairvoyant(t *testing.T, name string, jobs []FutureJob) Policy {
	p := mustNew(t, name)
	p.(Clairvoyant).SetFuture(jobs)
	return p
}

func TestDemandCurve(t *testing.T) {
	c := newDemandCurve([]FutureJob{{Start: 10, End: 20, Slots: 2}, {Start: 15, End: 30, Slots: 1}, {Start: 20, End: 25, Slots: 4}})
	// D: 0 before 10, 2 on [10,15), 3 on [15,20), 5 on [20,25), 1 on [25,30), 0 after.
	tests := []struct {
		a, b int64
		max  int
	}{{0, 9, 0}, {0, 10, 2}, {16, 19, 3}, {19, 20, 5}, {25, 100, 1}, {30, 40, 0}}
	for _, tt := range tests {
		if got := c.maxOver(tt.a, tt.b); got != tt.max {
			t.Errorf("max over [%d, %d] = %d; want %d", tt.a, tt.b, got, tt.max)
		}
	}
	if got := c.firstAbove(0, 100, 2); got != 15 {
		t.Errorf("first above 2: %d", got)
	}
	if got := c.firstAbove(26, 100, 1); got != NoTime {
		t.Errorf("first above 1 after 26: %d", got)
	}
	if got := c.windowWake(12, 5); got != 15 { // left end passes 15; right end reaches 20 at 15
		t.Errorf("window wake %d", got)
	}
}

// ESCS model: boot 555 s, shutdown 480 s, Ts 582 s; period 60: the oracle
// boots for the demand of the next 615 s and keeps the demand of the next
// max(582, 1035) + 60 = 1095 s. A 2-slot job runs from 2000 to 5000.
func TestOracle(t *testing.T) {
	jobs := []FutureJob{{Submit: 2000, Start: 2000, End: 5000, Slots: 2}}
	tests := []struct {
		name     string
		now      int64
		nodes    []node
		wantOn   []int
		wantOff  []int
		wantWake int64
	}{
		{
			// Keep 2 of 4 idle nodes for the job (due within 1095 s); the
			// boot window [t, t+615] reaches 2000 at 1385.
			name: "keep for the job", now: 1000,
			nodes:   []node{{state: Idle, since: 0}, {state: Idle, since: 0}, {state: Idle, since: 0}, {state: Idle, since: 0}},
			wantOff: []int{0, 1}, wantWake: 1385,
		},
		{
			name: "nothing to boot yet", now: 1000,
			nodes:    []node{{state: Off}, {state: Off}, {state: Off}, {state: Off}},
			wantWake: 1385,
		},
		{
			// 615 s before the start: boot just in time (ready at 1940).
			name: "boot just in time", now: 1385,
			nodes:  []node{{state: Off}, {state: Off}, {state: Off}, {state: Off}},
			wantOn: []int{0, 1}, wantWake: 2000,
		},
		{
			name: "off after the last job", now: 5000,
			nodes:   []node{{state: Idle, since: 5000}, {state: Idle, since: 5000}, {state: Off}, {state: Off}},
			wantOff: []int{0, 1}, wantWake: NoTime,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := decide(clairvoyant(t, "oracle", jobs), mkView(tt.now, tt.nodes, nil))
			checkDecision(t, d, tt.wantOn, tt.wantOff, tt.wantWake)
		})
	}
}

// Idle A (node 0, since 900) ranks before idle B (node 1, since 800);
// node 2 runs a 1-slot job. Always-on demand: 1 slot throughout, 2 on
// [1300, 1400), 3 on [2000, 2100). At 1000, A is needed at 1300 (within
// Ts = 582 s): kept; B only at 2000: off. Wake when the demand window
// changes: 1300.
func TestBreakEvenOracle(t *testing.T) {
	jobs := []FutureJob{{Start: 0, End: 10000, Slots: 1}, {Start: 1300, End: 1400, Slots: 1}, {Start: 2000, End: 2100, Slots: 2}}
	v := mkView(1000, []node{{state: Idle, since: 900}, {state: Idle, since: 800}, {state: Busy}}, nil)
	d := decide(clairvoyant(t, "break-even-oracle", jobs), v)
	if !slices.Equal(offIDs(d), []int{1}) || d.Wake != 1300 {
		t.Errorf("off %v wake %d; want [1] at 1300", offIDs(d), d.Wake)
	}
}
