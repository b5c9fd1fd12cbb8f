package slurm

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The sinfo symbols of issue 15 and what they are on 22.05.
func TestPowerClassOfSinfoSymbols(t *testing.T) {
	cases := []struct {
		sinfo string
		base  string
		flags []string
		want  PowerClass
	}{
		{"idle", "idle", nil, PowerIdle},
		{"idle~", "idle", []string{"POWERED_DOWN"}, PowerOff},
		{"idle%", "idle", []string{"POWERING_DOWN"}, PowerShuttingDown},
		{"idle!", "idle", []string{"POWER_DOWN"}, PowerDownRequested},
		{"idle#", "idle", []string{"POWERING_UP"}, PowerBooting},
		{"allocated#", "allocated", []string{"NOT_RESPONDING", "POWERING_UP"}, PowerBooting},
		{"alloc~ (resume for a job pending)", "allocated", []string{"POWERED_DOWN"}, PowerBooting},
		{"idle~ with POWER_UP requested", "idle", []string{"POWERED_DOWN", "POWER_UP"}, PowerBooting},
		{"down~", "down", []string{"POWERED_DOWN", "NOT_RESPONDING"}, PowerUnavailable},
		{"drained!", "idle", []string{"DRAIN", "POWER_DOWN"}, PowerUnavailable},
		{"drained", "idle", []string{"DRAIN"}, PowerUnavailable},
		{"draining", "allocated", []string{"DRAIN"}, PowerUnavailable},
		{"drained~", "idle", []string{"DRAIN", "POWERED_DOWN"}, PowerUnavailable},
		{"fail", "down", []string{"FAIL"}, PowerUnavailable},
		{"failing", "allocated", []string{"FAIL"}, PowerUnavailable},
		{"maint", "idle", []string{"MAINTENANCE"}, PowerUnavailable},
		{"reserved", "idle", []string{"RESERVED"}, PowerUnavailable},
		{"idle*", "idle", []string{"NOT_RESPONDING"}, PowerUnavailable},
		{"down", "down", nil, PowerUnavailable},
		{"down*", "down", []string{"NOT_RESPONDING"}, PowerUnavailable},
		{"unknown", "unknown", nil, PowerUnavailable},
		{"future", "future", nil, PowerUnavailable},
		{"error", "error", nil, PowerUnavailable},
		{"allocated", "allocated", nil, PowerBusy},
		{"mixed", "mixed", nil, PowerBusy},
		{"completing", "idle", []string{"COMPLETING"}, PowerBusy},
		{"planned", "idle", []string{"PLANNED"}, PowerBusy},
		{"idle (cloud)", "idle", []string{"CLOUD"}, PowerIdle},
		{"allocated!", "allocated", []string{"POWER_DOWN", "POWER_DRAIN"}, PowerDownRequested},
		{"idle@ (reboot requested)", "idle", []string{"REBOOT_REQUESTED"}, PowerUnavailable},
		{"a flag from a later version", "idle", []string{"SOMETHING_NEW"}, PowerUnavailable},
		{"a base from a later version", "sleeping", nil, PowerUnavailable},
	}
	for _, c := range cases {
		st := ParseNodeState(c.base, c.flags)
		if got := st.Power(); got != c.want {
			t.Errorf("%s (%s %v): Power() = %v, want %v", c.sinfo, c.base, c.flags, got, c.want)
		}
		// Later versions write base and flags in one list: same state.
		one := ParseNodeState("", append([]string{strings.ToUpper(c.base)}, c.flags...))
		if one.String() != st.String() || one.Power() != c.want {
			t.Errorf("%s as one list: %v (%v), want %v (%v)", c.sinfo, one, one.Power(), st, c.want)
		}
		// scontrol writes the same state as BASE+FLAG+...
		sc := ParseScontrolState(st.String())
		if sc.String() != st.String() {
			t.Errorf("%s: ParseScontrolState(%q) = %v", c.sinfo, st.String(), sc)
		}
	}
}

func TestParseNodeStateNames(t *testing.T) {
	st := ParseNodeState("idle", []string{"POWERED_DOWN", "NOT_RESPONDING"})
	if st.Base != BaseIdle || !st.Flags.Has(FlagPoweredDown|FlagNotResponding) || st.Flags.Has(FlagDrain) {
		t.Errorf("got %+v", st)
	}
	if got, want := st.String(), "IDLE+NOT_RESPONDING+POWERED_DOWN"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if st := ParseScontrolState("DOWN*+POWERED_DOWN"); st.Base != BaseDown || !st.Flags.Has(FlagNotResponding|FlagPoweredDown) {
		t.Errorf("DOWN*+POWERED_DOWN: %+v", st)
	}
	if st := ParseScontrolState("IDLE+PERFCTRS"); st.Flags != FlagNet || st.Power() != PowerIdle {
		t.Errorf("IDLE+PERFCTRS: %+v", st)
	}
	if st := ParseNodeState("", nil); st.Power() != PowerUnavailable || len(st.Unknown) == 0 {
		t.Errorf("no state at all: %+v", st)
	}
	// Every flag name reads back as itself.
	for _, fn := range flagNames {
		f, ok := parseFlag(strings.ToLower(fn.name))
		if !ok || f != fn.f {
			t.Errorf("parseFlag(%q) = %v %v", fn.name, f, ok)
		}
	}
}

// fixturePower is the hand-checked class of each node01..node08 of the
// 22.05 captures (see testdata/SOURCES.md), one letter per node: U
// unavailable, O off, T booting, I idle, B busy, S shutting down, R
// power-down requested.
var fixturePower = map[string]string{
	"sinfo-all-idle.json":        "IIIIIIII",
	"sinfo-mixed.json":           "BBBISSSU", // 05-07 idle%, 08 drained
	"sinfo-powered-down.json":    "BBBIOOOU", // 05-07 idle~
	"sinfo-powering-up.json":     "BBBBTTBU", // 05-06 allocated+POWERED_DOWN: being resumed for job 3
	"sinfo-later.json":           "BBBBBBBU",
	"sinfo-power-down-asap.json": "BBBSIIIU", // 04 idle% after power_down_asap
	"sinfo-resume-failed.json":   "IIUOIIIU", // 03 down~ (resume failed), 04 idle~
	"live-sinfo.json":            "BBUB",     // 03 drained, others mixed
	"live-asap-sinfo.json":       "RI",       // 01 draining! after power_down_asap while its job runs
}

var letters = map[byte]PowerClass{'U': PowerUnavailable, 'O': PowerOff, 'T': PowerBooting, 'I': PowerIdle,
	'B': PowerBusy, 'S': PowerShuttingDown, 'R': PowerDownRequested}

func TestPowerClassOnFixtures(t *testing.T) {
	files, _ := filepath.Glob("testdata/*sinfo*.json")
	if len(files) != len(fixturePower) {
		t.Errorf("%d sinfo fixtures, %d with expectations", len(files), len(fixturePower))
	}
	for _, f := range files {
		want, ok := fixturePower[filepath.Base(f)]
		if !ok {
			t.Errorf("%s: no hand-checked expectation", f)
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		nodes, err := ParseNodesJSON(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if len(nodes) != len(want) {
			t.Fatalf("%s: %d nodes, want %d", f, len(nodes), len(want))
		}
		for i, n := range nodes {
			if got := n.Power(); got != letters[want[i]] {
				t.Errorf("%s: %s (%v): %v, want %v", f, n.Name, n.State, got, letters[want[i]])
			}
		}
	}
}

// Slurm drains a node for power_down_asap; such a node is a power-down
// request, an administrator's drain is not.
func TestNodePowerDownASAP(t *testing.T) {
	cases := []struct {
		base   string
		flags  []string
		reason string
		want   PowerClass
	}{
		{"allocated", []string{"DRAIN", "POWER_DOWN"}, ReasonPowerDownASAP, PowerDownRequested}, // draining!
		{"idle", []string{"DRAIN", "POWER_DOWN"}, ReasonPowerDownASAP, PowerDownRequested},      // drained!
		{"idle", []string{"DRAIN", "POWER_DOWN"}, "bad disk", PowerUnavailable},                 // drained! by hand
		{"idle", []string{"DRAIN"}, ReasonPowerDownASAP, PowerUnavailable},
		{"idle", []string{"DRAIN", "POWER_DOWN", "FAIL"}, ReasonPowerDownASAP, PowerUnavailable},
		{"idle", []string{"DRAIN", "POWER_DOWN", "NOT_RESPONDING"}, ReasonPowerDownASAP, PowerUnavailable},
		{"down", []string{"DRAIN", "POWER_DOWN"}, ReasonPowerDownASAP, PowerUnavailable},
		{"idle", []string{"POWERING_DOWN"}, ReasonPowerDownASAP, PowerShuttingDown}, // idle%
		{"idle", []string{"POWERED_DOWN"}, ReasonPowerDownASAP, PowerOff},           // idle~
	}
	for _, c := range cases {
		n := Node{Name: "n1", State: ParseNodeState(c.base, c.flags), Reason: c.reason}
		if got := n.Power(); got != c.want {
			t.Errorf("%s %v reason %q: %v, want %v", c.base, c.flags, c.reason, got, c.want)
		}
	}
}
