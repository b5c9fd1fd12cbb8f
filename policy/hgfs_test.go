package policy

import (
	"slices"
	"strings"
	"testing"
)

// twoBusyNodes is 8 one-slot nodes: 2 busy, then one idle since each of
// idleSince, then off.
func twoBusyNodes(idleSince ...int64) []node {
	nodes := []node{{state: Busy}, {state: Busy}}
	for _, t := range idleSince {
		nodes = append(nodes, node{state: Idle, since: t})
	}
	for len(nodes) < 8 {
		nodes = append(nodes, node{state: Off})
	}
	return nodes
}

// The untuned hgfs (min_idle 600 s) on hand-made Views of 8 one-slot
// nodes at 10:16:40 UTC (hour 10, next hour at +2600 s). Inputs are
// fractions of the 8 slots; labels low/medium/high have centres 0, 0.3,
// 0.6 (demand, hour_load) and 0, 0.5, 1 (utilisation). Inputs on label
// centres fire one rule, label clamp(l0+l1+l2−1, 0, 4): idle_scale −2 … 2,
// an idle time of 150, 300, 600, 1200 or 2400 s.
func TestHGFSTemplateDecisions(t *testing.T) {
	const now = 100*86400 + 10*3600 + 1000
	twoBusyTwoIdle, twoBusy := twoBusyNodes(now-700, now-100), twoBusyNodes()
	tests := []struct {
		name     string
		nodes    []node
		hourly   float64 // HourlySlots[10]
		recent   []Arrival
		queue    []QueuedJob
		wantOn   []int
		wantOff  []int
		wantWake int64
	}{
		{
			// demand low, hour low, utilisation 2/4 medium: rule
			// (low, low, medium) → shortest: 600/4 = 150 s. R3 (empty
			// queue): node 2, idle 700 s, goes; node 3 (100 s) is due at
			// now+50.
			name: "quiet: short idle time", nodes: twoBusyTwoIdle,
			wantOff: []int{2}, wantWake: now + 50,
		},
		{
			// hour_load 4.8/8 = 0.6 high: (low, high, medium) → normal:
			// 600 s; node 2 goes, node 3 is due at now+500.
			name: "busy hour: min_idle", nodes: twoBusyTwoIdle, hourly: 4.8,
			wantOff: []int{2}, wantWake: now + 500,
		},
		{
			// demand 5/8 ≥ 0.6 high (the arrival of 3 slots is older than
			// an hour), hour high: (high, high, medium) → longest: 2400 s.
			// Nothing is due; wake when node 2 is (now−700+2400), before
			// the arrival leaves the hour window (now+3590) or the next
			// hour.
			name: "demand: long idle time", nodes: twoBusyTwoIdle, hourly: 4.8,
			recent:   []Arrival{{Time: now - 4000, Slots: 3}, {Time: now - 10, Slots: 5}},
			wantWake: now + 1700,
		},
		{
			// No idle node, no queue: nothing to do, and nothing changes
			// with time alone (the inputs, and so the idle time, matter
			// only once a node is idle, which is an event).
			name: "nothing idle", nodes: twoBusy,
			wantWake: NoTime,
		},
		{
			// A queued job of 2 slots takes both idle nodes' slots: no
			// free slot beyond the queue, so none goes although node 2
			// has been idle 700 s, and none boots. Only R3 changes with
			// time: the mean wait (30 s) reaches t_min (300 s) at
			// now+270. The idle time is not asked for (else node 3, due
			// at now+50, would wake it earlier for nothing).
			name: "queue holds the idle nodes", nodes: twoBusyTwoIdle,
			queue:    []QueuedJob{{ID: 1, Slots: 2, Submit: now - 30, ReqTime: 3600}},
			wantWake: now + 270,
		},
		{
			// R1: a queued job of 3 slots, none free: boot 3 nodes, lowest
			// IDs (one group, none failed). Booting: nothing goes off. Of
			// the rules only R2 can change the decision with time (the
			// mean wait reaching t_max, 1800 s, boots one more); R3 could
			// only let an idle node go, and none is idle.
			name: "queue boots", nodes: twoBusy,
			queue:  []QueuedJob{{ID: 1, Slots: 3, Submit: now - 30, ReqTime: 3600}},
			wantOn: []int{2, 3, 4}, wantWake: now - 30 + 1800,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := mkView(now, tt.nodes, tt.queue)
			v.HourlySlots[10] = tt.hourly
			v.Recent = tt.recent
			d := decide(mustNew(t, "hgfs", "min_idle=600"), v)
			checkDecision(t, d, tt.wantOn, tt.wantOff, tt.wantWake)
		})
	}
}

// spare keeps idle nodes on as idle-timeout's does. Template rules, idle
// time 150 s (as in TestHGFSTemplateDecisions), no queue: both idle nodes
// are due (idle 700 and 200 s), and spare decides how many go, least
// recently idle first; the idle time is then asked for, so the next hour
// (now+2600 s) wakes the policy. With no idle node, spare nodes boot,
// lowest IDs first, as many as max_booting allows.
func TestHGFSSpare(t *testing.T) {
	const now = 100*86400 + 10*3600 + 1000
	twoBusyTwoIdle, twoBusy := twoBusyNodes(now-700, now-200), twoBusyNodes()
	tests := []struct {
		name     string
		nodes    []node
		set      string
		wantOn   []int
		wantOff  []int
		wantWake int64
	}{
		{"no spare: both go", twoBusyTwoIdle, "spare=0", nil, []int{2, 3}, now + 2600},
		{"one kept", twoBusyTwoIdle, "spare=1", nil, []int{2}, now + 2600},
		{"both kept", twoBusyTwoIdle, "spare=2", nil, nil, NoTime},
		{"two boot", twoBusy, "spare=2", []int{2, 3}, nil, NoTime},
		{"one boots at a time", twoBusy, "spare=2 max_booting=1", []int{2}, nil, NoTime},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := decide(mustNew(t, "hgfs", append([]string{"min_idle=600"}, strings.Fields(tt.set)...)...), mkView(now, tt.nodes, nil))
			checkDecision(t, d, tt.wantOn, tt.wantOff, tt.wantWake)
		})
	}
}

// A learned system replaces the template: with every rule at "longest"
// an idle node is kept 4 × 600 s, so neither idle node goes off (idle 700
// and 800 s).
func TestHGFSLearnedSystem(t *testing.T) {
	const now = 100*86400 + 10*3600 + 1000
	sys := HGFSTemplate()
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
	v := mkView(now, []node{{state: Busy}, {state: Busy}, {state: Idle, since: now - 700}, {state: Idle, since: now - 800},
		{state: Off}, {state: Off}, {state: Off}, {state: Off}}, nil)
	if d := decide(p, v); len(d.PowerOff)+len(d.PowerOn) != 0 {
		t.Errorf("got %+v; want nothing", d)
	}
	if d := decide(mustNew(t, "hgfs"), v); !slices.Equal(offIDs(d), []int{3, 2}) {
		t.Errorf("template: off %v, want [3 2] (150 s, least recently idle first)", offIDs(d))
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
	want := "IF demand IS high AND hour_load IS high AND utilisation IS high THEN idle_scale IS longest"
	if got := sys.RuleText(sys.Rules[26]); got != want {
		t.Errorf("rule 26: %q", got)
	}
}
