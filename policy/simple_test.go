package policy

import (
	"math"
	"slices"
	"testing"
)

func TestRandom(t *testing.T) {
	var nodes []node
	for i := range 2000 {
		nodes = append(nodes, node{state: Idle, since: int64(i % 7)})
	}
	v := mkView(1000, nodes, nil)
	for _, p := range []float64{0, 0.25, 1} {
		d := decide(mustNew(t, "random", "p="+fnum(p)), v)
		if got := float64(len(d.PowerOff)) / 2000; math.Abs(got-p) > 0.03 || d.Wake != NoTime {
			t.Errorf("p=%v: switched off %.3f of the idle nodes, wake %d", p, got, d.Wake)
		}
	}
	// Seeded: another seed, another choice; same seed, same choice.
	s, _ := Lookup("random")
	c := s.Defaults()
	a, _ := s.New(c)
	c.Seed = 7
	b, _ := s.New(c)
	if slices.Equal(decide(a, v).PowerOff, decide(b, v).PowerOff) {
		t.Error("seed ignored")
	}
	b2, _ := s.New(c)
	if !slices.Equal(decide(b2, v).PowerOff, decide(b, v).PowerOff) {
		t.Error("same seed, different decisions")
	}
}

func TestLoad(t *testing.T) {
	const now = 1000
	// Node 0 idle for 100 s (left idle earlier), node 1 for 30 s (a job
	// ended within the 60-s period), node 2 off, the rest busy.
	idle := []node{{state: Idle, since: now - 100}, {state: Idle, since: now - 30}, {state: Off}}
	tests := []struct {
		name    string
		busy    int
		wantOff []int
	}{
		{"load 1/4 < 0.5: freed node off", 1, []int{1}},
		{"load 3/6 ≥ 0.5: freed node stays", 3, nil},
	}
	for _, tt := range tests {
		nodes := slices.Clone(idle)
		for range tt.busy {
			nodes = append(nodes, node{state: Busy})
		}
		d := decide(mustNew(t, "load", "threshold=0.5"), mkView(now, nodes, nil))
		if !slices.Equal(offIDs(d), tt.wantOff) || d.Wake != now+30 {
			t.Errorf("%s: off %v wake %d; want off %v wake %d", tt.name, offIDs(d), d.Wake, tt.wantOff, now+30)
		}
	}
}

func TestBestFit(t *testing.T) {
	levels := []SleepLevel{{Name: "standby", W: 10, ExitS: 10}, {Name: "hibernate", W: 5, ExitS: 120}}
	tests := []struct {
		busy      int // of 10 nodes; node 9 idle
		levels    []SleepLevel
		wantLevel int
	}{
		{busy: 2, levels: levels, wantLevel: 0}, // u 0.2 < 0.3: power-off
		{busy: 4, levels: levels, wantLevel: 2}, // 0.3 ≤ 0.4 < 0.5: deepest sleep (hibernate)
		{busy: 6, levels: levels, wantLevel: 1}, // 0.6 ≥ 0.5: shallowest (standby)
		{busy: 6, levels: nil, wantLevel: 0},    // no sleep levels: power-off
	}
	for _, tt := range tests {
		var nodes []node
		for i := range 10 {
			switch {
			case i < tt.busy:
				nodes = append(nodes, node{state: Busy})
			case i == 9:
				nodes = append(nodes, node{state: Idle, since: 0})
			default:
				nodes = append(nodes, node{state: Off})
			}
		}
		v := mkView(1000, nodes, nil)
		v.Groups[0].Model.SleepLevels = tt.levels
		d := decide(mustNew(t, "best-fit"), v)
		if len(d.PowerOff) != 1 || d.PowerOff[0] != (NodeCommand{Node: 9, Level: tt.wantLevel}) {
			t.Errorf("busy %d, %d levels: %+v; want node 9 at level %d", tt.busy, len(tt.levels), d.PowerOff, tt.wantLevel)
		}
	}
	// The queue needs the idle node: it stays on.
	v := mkView(1000, []node{{state: Busy}, {state: Idle, since: 0}}, []QueuedJob{{Slots: 1, Submit: 1000}})
	if d := decide(mustNew(t, "best-fit"), v); len(d.PowerOff) != 0 {
		t.Errorf("slept a node the queue needs: %+v", d)
	}
}
