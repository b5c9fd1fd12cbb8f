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
		{`{"name": "n2", "group": "node", "state": "idle", "since": 2000}`, "nodes[1].since: 2000 is after now (1000)"},
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
