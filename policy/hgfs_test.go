package policy

import (
	"slices"
	"strings"
	"testing"
)

// wideHGFS is hgfs with the template's rules and a spare range of 25 % of
// the cluster, so that on the tests' 8 nodes each label means a different
// number of spare slots.
func wideHGFS(t *testing.T, kv ...string) Policy {
	t.Helper()
	s, err := Lookup("hgfs")
	if err != nil {
		t.Fatal(err)
	}
	c, err := ParseSet(s, kv)
	if err != nil {
		t.Fatal(err)
	}
	c.Fuzzy = HGFSTemplate()
	c.Fuzzy.Output.Max = 0.25
	p, err := s.New(c)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// hgfs with the template's rules, spare range 25 % (wideHGFS), on
// hand-made Views of 8 one-slot nodes at 10:16:40 UTC (hour 10, next hour
// at +3000 s). Inputs are fractions of the 8 slots; labels
// low/medium/high have centres 0, 0.3, 0.6 (demand, hour_load) and 0,
// 0.5, 1 (utilisation); spare labels none…most have centres 0, 0.0625,
// 0.125, 0.1875, 0.25 of 8 slots.
func TestHGFSTemplateDecisions(t *testing.T) {
	const now = 100*86400 + 10*3600 + 1000
	const nextHour = now + 2600
	twoBusyTwoIdle := []node{{state: Busy}, {state: Busy}, {state: Idle, since: now - 700}, {state: Idle, since: now - 100},
		{state: Off}, {state: Off}, {state: Off}, {state: Off}}
	twoBusy := []node{{state: Busy}, {state: Busy}, {state: Off}, {state: Off}, {state: Off}, {state: Off}, {state: Off}, {state: Off}}
	tests := []struct {
		name     string
		nodes    []node
		hourly   float64 // HourlySlots[10]
		recent   []Arrival
		wantOn   []int
		wantOff  []int
		wantWake int64
	}{
		{
			// demand low, hour low, utilisation 2/4 medium: rule
			// (low, low, medium) → none: spare 0. R3 (empty queue): node 2
			// idle 700 ≥ 600 s off; node 3 due at now+500.
			name: "no spare", nodes: twoBusyTwoIdle,
			wantOff: []int{2}, wantWake: now + 500,
		},
		{
			// hour_load 4.8/8 = 0.6 high: (low, high, medium) → some: 0.125·8
			// = 1 spare slot; 2 idle: one may go (node 2, the older).
			name: "some spare", nodes: twoBusyTwoIdle, hourly: 4.8,
			wantOff: []int{2}, wantWake: now + 500,
		},
		{
			// demand 5/8 ≥ 0.6 high, hour high: (high, high, medium) → most:
			// 0.25·8 = 2 spare slots = the 2 idle: nothing off. Wake when
			// node 3 reaches min_idle (now+500), before the arrival leaves
			// the hour window (now+3590) or the next hour.
			name: "most spare", nodes: twoBusyTwoIdle, hourly: 4.8,
			recent:   []Arrival{{Time: now - 4000, Slots: 3}, {Time: now - 10, Slots: 5}},
			wantWake: now + 500,
		},
		{
			// utilisation 2/2 high, demand and hour low: (low, low, high) →
			// few: 0.0625·8 = 0.5 → 1 spare slot; none free: boot node 2.
			name: "boot ahead", nodes: twoBusy,
			wantOn: []int{2}, wantWake: nextHour,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := mkView(now, tt.nodes, nil)
			v.HourlySlots[10] = tt.hourly
			v.Recent = tt.recent
			d := decide(wideHGFS(t, "min_idle=600"), v)
			if !slices.Equal(d.PowerOn, tt.wantOn) || !slices.Equal(offIDs(d), tt.wantOff) || d.Wake != tt.wantWake {
				t.Errorf("on %v off %v wake %d; want on %v off %v wake %d", d.PowerOn, offIDs(d), d.Wake, tt.wantOn, tt.wantOff, tt.wantWake)
			}
		})
	}
}

// A learned system replaces the template: switching every rule to "most"
// of a 25 % range keeps 2 spare slots of 8, so no idle node goes off.
func TestHGFSLearnedSystem(t *testing.T) {
	const now = 100*86400 + 10*3600 + 1000
	sys := HGFSTemplate()
	sys.Output.Max = 0.25
	for i := range sys.Rules {
		sys.Rules[i].Then = 4
	}
	s, _ := Lookup("hgfs")
	c := s.Defaults()
	c.Fuzzy = sys
	p, err := s.New(c)
	if err != nil {
		t.Fatal(err)
	}
	v := mkView(now, []node{{state: Busy}, {state: Busy}, {state: Idle, since: 0}, {state: Idle, since: 0},
		{state: Off}, {state: Off}, {state: Off}, {state: Off}}, nil)
	if d := decide(p, v); len(d.PowerOff)+len(d.PowerOn) != 0 {
		t.Errorf("got %+v; want nothing", d)
	}
	sys.Rules[0].Then = 9
	if _, err := s.New(c); err == nil || !strings.Contains(err.Error(), "fuzzy.rules[0].then") {
		t.Errorf("invalid system: %v", err)
	}
	bad := HGFSTemplate()
	bad.Inputs[0].Name = "queue"
	c.Fuzzy = bad
	if _, err := s.New(c); err == nil || !strings.Contains(err.Error(), `fuzzy.inputs[0].name: "queue", hgfs needs "demand"`) {
		t.Errorf("renamed input: %v", err)
	}
}

func TestHGFSTemplateText(t *testing.T) {
	sys := HGFSTemplate()
	if err := sys.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(sys.Rules) != 27 {
		t.Fatalf("%d rules", len(sys.Rules))
	}
	want := "IF demand IS high AND hour_load IS high AND utilisation IS high THEN spare IS most"
	if got := sys.RuleText(sys.Rules[26]); got != want {
		t.Errorf("rule 26: %q", got)
	}
}
