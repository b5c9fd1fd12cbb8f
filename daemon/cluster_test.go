package daemon

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/slurm"
)

// sharedFixture reads a Slurm 22.05 capture of ../shared: missing, it
// fails under CI=true and skips otherwise.
func sharedFixture(t *testing.T, name string) []byte {
	t.Helper()
	path := filepath.Join("..", "..", "shared", "slurm-22.05", name)
	data, err := os.ReadFile(path)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("../shared fixture %s: %v", path, err)
		}
		t.Skipf("../shared fixture %s: %v", path, err)
	}
	return data
}

// The captures of the real daemons, node by node, as the simulator's
// states (SOURCES.md says what happened before each).
func TestNodeOfCaptures(t *testing.T) {
	const u = "unavailable"
	tests := []struct {
		file string
		want map[string]string // node → policy state or "unavailable"
	}{
		{"sinfo-all-idle.json", map[string]string{"node01": "idle", "node08": "idle"}},
		{"sinfo-mixed.json", map[string]string{"node01": "busy", "node04": "idle", "node05": "shutting-down", "node07": "shutting-down", "node08": u}},
		{"sinfo-powered-down.json", map[string]string{"node05": "off", "node06": "off", "node07": "off", "node08": u}},
		{"sinfo-powering-up.json", map[string]string{"node05": "booting", "node06": "booting", "node07": "busy", "node08": u}},
		{"sinfo-power-down-asap.json", map[string]string{"node04": "shutting-down"}},
		{"sinfo-resume-failed.json", map[string]string{"node03": u, "node04": "off", "node01": "idle"}},
	}
	for _, tt := range tests {
		nodes, err := slurm.ParseNodesJSON(sharedFixture(t, tt.file))
		if err != nil {
			t.Fatalf("%s: %v", tt.file, err)
		}
		got := map[string]Node{}
		for i := range nodes {
			got[nodes[i].Name] = NodeOf(&nodes[i])
		}
		for name, want := range tt.want {
			n, ok := got[name]
			if !ok {
				t.Errorf("%s: no %s", tt.file, name)
				continue
			}
			state := n.Power.String()
			if n.Unavailable != "" {
				state = u
			}
			if state != want {
				t.Errorf("%s: %s (%s) is %s, want %s", tt.file, name, n.State, state, want)
			}
		}
		if tt.file == "sinfo-resume-failed.json" && !got["node03"].ResumeFailed {
			t.Errorf("%s: node03 (down~) not a failed resume", tt.file)
		}
	}
}

func TestPowerState(t *testing.T) {
	tests := []struct {
		base  string
		flags []string
		want  policy.NodeState
		ok    bool
	}{
		{"idle", nil, policy.Idle, true},
		{"mixed", nil, policy.Busy, true},
		{"allocated", nil, policy.Busy, true},
		{"idle", []string{"POWERED_DOWN"}, policy.Off, true},                           // idle~
		{"idle", []string{"POWERING_DOWN"}, policy.ShuttingDown, true},                 // idle%
		{"idle", []string{"POWER_DOWN"}, policy.ShuttingDown, true},                    // idle!
		{"allocated", []string{"NOT_RESPONDING", "POWERING_UP"}, policy.Booting, true}, // allocated#
		{"allocated", []string{"POWERED_DOWN"}, policy.Booting, true},                  // resumed for a job
		{"down", []string{"POWERED_DOWN", "NOT_RESPONDING"}, 0, false},                 // down~
		{"idle", []string{"DRAIN", "POWER_DOWN"}, 0, false},                            // drained!
		{"idle", []string{"DRAIN"}, 0, false},
		{"mixed", []string{"DRAIN"}, 0, false}, // draining
		{"idle", []string{"MAINTENANCE"}, 0, false},
		{"idle", []string{"RESERVED"}, 0, false},
		{"idle", []string{"FAIL"}, 0, false},
		{"idle", []string{"NOT_RESPONDING"}, 0, false},
		{"down", nil, 0, false},
		{"future", nil, 0, false},
		{"idle", []string{"SOMETHING_NEW"}, 0, false},
	}
	for _, tt := range tests {
		st := slurm.ParseNodeState(tt.base, tt.flags)
		got, ok := PowerState(st.Power())
		if ok != tt.ok || (ok && got != tt.want) {
			t.Errorf("%s %v: %s, %v; want %s, %v", tt.base, tt.flags, got, ok, tt.want, tt.ok)
		}
		n := NodeOf(&slurm.Node{Name: "x", State: st, CPUs: 1})
		if (n.Unavailable == "") != tt.ok {
			t.Errorf("%s %v: unavailable %q", tt.base, tt.flags, n.Unavailable)
		}
	}
}
