package policy

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// stateView is randomView with the normalisations a State implies:
// IdleSince only for idle nodes, sleep levels only when off, no frequency
// level on a group without frequencies.
func stateView(rng *rand.Rand, now int64) *View {
	v := randomView(rng, now)
	for i := range v.Nodes {
		n := &v.Nodes[i]
		if n.State != Idle {
			n.IdleSince = NoTime
		}
		if n.State != Off {
			n.SleepLevel = 0
		}
	}
	return v
}

// A View written as a State and read back is the same View, and every
// deployable policy decides the same on both: what `ecotune decide` prints
// is what the simulator applied.
func TestStateRoundTripDecidesAlike(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, s := range All() {
		if s.Clairvoyant {
			continue
		}
		t.Run(s.Name, func(t *testing.T) {
			rs := &RuleSet{Version: RuleSetVersion, Policy: s.Defaults(), Period: 60}
			p, q := newForTest(t, s, nil), newForTest(t, s, nil)
			now := int64(1_000_000_000)
			for range 100 { // a sequence of Views, time moving on
				now += rng.Int64N(600)
				v := stateView(rng, now)
				rs.Cluster = v.Groups
				data, err := json.Marshal(StateOf(v))
				if err != nil {
					t.Fatal(err)
				}
				back, err := ParseState(data, rs)
				if err != nil {
					t.Fatalf("%v\n%s", err, data)
				}
				if !reflect.DeepEqual(back, v) {
					t.Fatalf("state round trip changed the View:\n%+v\n%+v", back, v)
				}
				d1, d2 := decide(p, v), decide(q, back)
				if !sameCommands(d1, d2) || d1.Wake != d2.Wake {
					t.Fatalf("decisions differ: %+v vs %+v", d1, d2)
				}
			}
		})
	}
}

func TestParseStateErrors(t *testing.T) {
	rs := testRuleSet()
	base := `{"now": 1000, "nodes": [{"name": "n1", "group": "node", "state": "busy", "since": 900, "busy_slots": 1}, %s]}`
	tests := []struct{ node, want string }{
		{`{"name": "n2", "group": "gpu", "state": "idle", "since": 0}`, `nodes[1].group: "gpu" is not a group`},
		{`{"name": "n2", "group": "node", "state": "asleep", "since": 0}`, `nodes[1].state: "asleep"`},
		{`{"name": "n2", "group": "node", "state": "idle", "since": 2000}`, "nodes[1].since: 2000 out of [0, now 1000]"},
		{`{"name": "n2", "group": "node", "state": "busy", "since": 0, "busy_slots": 3}`, "nodes[1].busy_slots: 3 out of [0, 2]"},
		{`{"name": "n2", "group": "node", "state": "idle", "since": 0, "busy_slots": 1}`, "nodes[1].busy_slots: 1 for a node idle"},
		{`{"name": "n1", "group": "node", "state": "idle", "since": 0}`, `nodes[1].name: "n1" used twice`},
		{`{"name": "n2", "group": "node", "state": "off", "since": 0, "sleep_level": 1}`, "nodes[1].sleep_level: 1 invalid"},
		{`{"name": "n2", "group": "node", "state": "idle", "since": 0, "color": 1}`, `unknown field "color"`},
	}
	for _, tt := range tests {
		_, err := ParseState([]byte(strings.Replace(base, "%s", tt.node, 1)), rs)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v; want %q", tt.node, err, tt.want)
		}
	}
}

// Issue 17: a state must describe the rule set's cluster, every node once,
// with every required key and no negative value; the error names the field.
func TestParseStateStrict(t *testing.T) {
	rs := testRuleSet() // 4 nodes of group "node", 2 slots each
	node := func(name, state string) string {
		return `{"name": "` + name + `", "group": "node", "state": "` + state + `", "since": 10}`
	}
	four := func(states ...string) string {
		var ns []string
		for i, st := range states {
			ns = append(ns, node("n"+string(rune('1'+i)), st))
		}
		return strings.Join(ns, ", ")
	}
	ok := four("idle", "idle", "off", "idle")
	tests := []struct{ state, want string }{
		{`{}`, "now: missing"},
		{`{"now": 1000}`, "nodes: missing"},
		{`{"now": 1000, "nodes": []}`, "nodes: 0 nodes, but the rule set's cluster has 4 (4 node)"},
		{`{"now": 1000, "nodes": [` + four("idle", "idle", "idle") + `]}`, "nodes: 3 nodes, but the rule set's cluster has 4"},
		{`{"now": 1000, "nodes": [` + four("idle", "idle", "idle", "idle", "idle") + `]}`, "nodes: 5 nodes"},
		{`{"now": 1000, "nodes": [{"name": "n1", "group": "node", "state": "idle"}]}`, "nodes[0].since: missing"},
		{`{"now": -1, "nodes": [` + ok + `]}`, "now: -1 is negative"},
		{`{"now": 1000, "tz_offset_s": 99999, "nodes": [` + ok + `]}`, "tz_offset_s: 99999"},
		{`{"now": 1000, "nodes": [` + ok + `], "queue": [{"id": 1, "slots": 1, "submit": 5, "req_time": -3}]}`, "queue[0].req_time: -3 is negative"},
		{`{"now": 1000, "nodes": [` + ok + `], "queue": [{"id": 1, "slots": 1, "submit": -5, "req_time": 3}]}`, "queue[0].submit: -5 out of [0, now 1000]"},
		{`{"now": 1000, "nodes": [` + ok + `], "running": [{"id": 1, "slots": 1, "start": 5, "req_time": -3, "nodes": ["n1"]}]}`, "running[0].req_time: -3"},
		{`{"now": 1000, "nodes": [` + four("idle", "idle", "idle", "idle") + `], "start": -2}`, "start: -2 out of"},
		{`{"now": 1000, "nodes": [` + strings.Replace(ok, `"since": 10}`, `"since": -4}`, 1) + `]}`, "nodes[0].since: -4 out of"},
		{`{"now": 1000, "nodes": [` + four("idle", "idle", "idle", "sleepy") + `]}`, `nodes[3].state: "sleepy"`},
		{`{"now": 1000, "nodes": [` + ok + `], "hourly_slots": [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,-1]}`, "hourly_slots[23]: -1 is negative"},
		{`{"now": 1000, "nodes": [` + ok + `], "bogus": 1}`, `unknown field "bogus"`},
		// Beyond the bounds (issue 36): the horizon, the cluster's 8 slots, 100 years.
		{`{"now": 9223372036854775800, "nodes": [` + ok + `]}`, "now: 9223372036854775800 is out of range: beyond the horizon 2200-01-01T00:00:00Z (7258118400)"},
		{`{"now": 7258118401, "nodes": [` + ok + `]}`, "now: 7258118401 is out of range"},
		{`{"now": 1000, "nodes": [` + ok + `], "queue": [{"id": 7, "slots": 1000000000000, "submit": 5, "req_time": 3}]}`, "queue[0].slots: job 7 asks 1000000000000 slots, out of range: the cluster has 8"},
		{`{"now": 1000, "nodes": [` + ok + `], "queue": [{"id": 7, "slots": 9, "submit": 5, "req_time": 3}]}`, "queue[0].slots: job 7 asks 9 slots, out of range: the cluster has 8"},
		{`{"now": 1000, "nodes": [` + ok + `], "queue": [{"id": 7, "slots": 8, "submit": 5, "req_time": 9223372036854775807}]}`, "queue[0].req_time: 9223372036854775807 s is out of range: more than 3155760000"},
		{`{"now": 1000, "nodes": [` + ok + `], "running": [{"id": 6, "slots": 9, "start": 5, "req_time": 3, "nodes": ["n1"]}]}`, "running[0].slots: job 6 asks 9 slots, out of range"},
		{`{"now": 1000, "nodes": [` + ok + `], "recent": [{"time": 5, "slots": 9, "req_time": 3}]}`, "recent[0]: 9 slots, req_time 3 s: out of range"},
		{`{"now": 1000, "nodes": [` + ok + `], "hourly_slots": [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1e300]}`, "hourly_slots[23]: 1e+300 is out of range"},
	}
	for _, tt := range tests {
		_, err := ParseState([]byte(tt.state), rs)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v; want %q", tt.state, err, tt.want)
		}
	}
	for _, st := range []string{
		`{"now": 1000, "nodes": [` + ok + `]}`,
		// At the bounds exactly: accepted.
		`{"now": 7258118400, "nodes": [` + ok + `], "queue": [{"id": 7, "slots": 8, "submit": 5, "req_time": 3155760000}]}`,
	} {
		if _, err := ParseState([]byte(st), rs); err != nil {
			t.Errorf("a valid state %s: %v", st, err)
		}
	}
}

// Slurm's node states are accepted; down, drained, failing and
// not-responding nodes are out of service: no decision powers them on or
// off, however long they idle and however long the queue.
func TestParseStateSlurm(t *testing.T) {
	rs := testRuleSet()
	rs.Policy = Config{Name: "idle-timeout", Params: map[string]float64{"idle_timeout": 60}}
	for _, tt := range []struct {
		state     string
		want      NodeState
		inService bool
	}{
		{"IDLE", Idle, true}, {"idle", Idle, true}, {"idle~", Off, true}, {"IDLE+POWERED_DOWN", Off, true},
		{"idle#", Booting, true}, {"POWERING_UP", Booting, true}, {"idle%", ShuttingDown, true},
		{"mixed", Busy, true}, {"ALLOCATED", Busy, true}, {"completing", Busy, true},
		{"down", Off, false}, {"down*", Off, false}, {"DRAINED", Off, false}, {"drain", Off, false},
		{"IDLE+DRAIN", Idle, false}, {"draining", Busy, false}, {"fail", Off, false}, {"idle*", Idle, false},
		{"MIXED+DRAIN", Busy, false}, {"maint", Off, false}, {"reserved", Idle, false}, {"IDLE+RESERVED", Idle, false},
		// The states of ../shared/slurm-22.05's sinfo captures, state+flags.
		{"allocated+POWERED_DOWN", Booting, true}, {"down+POWERED_DOWN+NOT_RESPONDING", Off, false},
		{"idle+DRAIN", Idle, false}, {"idle+POWERED_DOWN", Off, true}, {"idle+POWERING_DOWN", ShuttingDown, true},
	} {
		st, in, ok := nodeState(tt.state)
		if !ok || st != tt.want || in != tt.inService {
			t.Errorf("%s: %v in service %v ok %v; want %v, %v", tt.state, st, in, ok, tt.want, tt.inService)
		}
	}
	// Every node idle long past the timeout but n2 (down) and n3 (drained),
	// and a queue needing every slot: only in-service nodes are commanded.
	state := `{"now": 100000, "nodes": [
		{"name": "n1", "group": "node", "state": "idle", "since": 10},
		{"name": "n2", "group": "node", "state": "down", "since": 10},
		{"name": "n3", "group": "node", "state": "drained", "since": 10},
		{"name": "n4", "group": "node", "state": "idle~", "since": 10}]}`
	v, err := ParseState([]byte(state), rs)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Nodes) != 2 {
		t.Fatalf("%d nodes in the View, want the 2 in service", len(v.Nodes))
	}
	out, err := DecideState(rs, v)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range out.PowerOn {
		if n == "n2" || n == "n3" {
			t.Errorf("powered on %s, out of service", n)
		}
	}
	for _, c := range out.PowerOff {
		if c.Node == "n2" || c.Node == "n3" {
			t.Errorf("powered off %s, out of service", c.Node)
		}
	}
	if len(out.PowerOff) != 1 || out.PowerOff[0].Node != "n1" {
		t.Errorf("power off %+v, want n1 alone (idle past the timeout)", out.PowerOff)
	}
	queued := strings.Replace(state, `"nodes"`, `"queue": [{"id": 1, "slots": 8, "submit": 99990, "req_time": 60}], "nodes"`, 1)
	if v, err = ParseState([]byte(queued), rs); err != nil {
		t.Fatal(err)
	}
	if out, err = DecideState(rs, v); err != nil {
		t.Fatal(err)
	}
	if len(out.PowerOn) != 1 || out.PowerOn[0] != "n4" {
		t.Errorf("power on %v, want n4 alone (the in-service off node)", out.PowerOn)
	}
}

func FuzzParseState(f *testing.F) {
	rs := testRuleSet()
	f.Add([]byte(`{"now": 1000, "nodes": [{"name": "a", "group": "node", "state": "busy", "since": 900, "busy_slots": 2}], "queue": [{"id": 1, "slots": 3, "submit": 999, "req_time": 60}]}`))
	f.Add([]byte(`{"now": 5, "nodes": [{"name": "a", "group": "node", "state": "idle", "since": 0, "idle_since": 3, "last_failed": 1}], "recent": [{"time": 1, "slots": 1, "req_time": 1}], "hourly_slots": [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := ParseState(data, rs)
		if err != nil {
			return
		}
		// A state that parses is a consistent View every policy can decide on.
		for _, s := range All() {
			if s.Clairvoyant {
				continue
			}
			p, err := s.New(s.Defaults())
			if err != nil {
				t.Fatal(err)
			}
			checkCommands(t, v, decide(p, v))
		}
	})
}
