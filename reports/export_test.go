package reports

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/policy"
)

// randomView is a consistent cluster state: 8 nodes of 4 slots in random
// power states, busy nodes with 1–4 busy slots, a random queue.
func randomView(rng *rand.Rand, groups []policy.Group) *policy.View {
	now := int64(1_000_000 + rng.IntN(100_000))
	v := &policy.View{Now: now, Start: 1_000_000, Period: DefaultPeriod, Groups: groups}
	for i := range groups[0].Count {
		n := policy.NodeView{ID: i, Name: "node" + strconv.Itoa(i+1), Slots: groups[0].Slots, LastFailed: policy.NoTime}
		n.State = policy.NodeState(rng.IntN(5))
		n.Since = now - int64(rng.IntN(7200))
		n.IdleSince = n.Since
		if n.State == policy.Busy {
			n.BusySlots = 1 + rng.IntN(n.Slots)
		}
		v.Nodes = append(v.Nodes, n)
	}
	for j := range rng.IntN(6) {
		v.Queue = append(v.Queue, policy.QueuedJob{ID: int64(j), Slots: 1 + rng.IntN(8), Submit: now - int64(rng.IntN(3600)), ReqTime: 3600})
	}
	v.Recount()
	return v
}

// The exported rule set, written and read back, decides exactly as the
// run's solution did.
func TestExportThenDecideRoundTrips(t *testing.T) {
	r := testRun()
	for _, name := range []string{"qos0", "qos0.1", "qos0.5", "0"} {
		t.Run(name, func(t *testing.T) {
			pick, err := r.Pick(name)
			if err != nil {
				t.Fatal(err)
			}
			rs, err := RuleSet(r, pick)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "rules.json")
			if err := policy.WriteRuleSet(path, rs, false); err != nil {
				t.Fatal(err)
			}
			loaded, err := policy.LoadRuleSet(path)
			if err != nil {
				t.Fatal(err)
			}
			if loaded.Version != policy.RuleSetVersion || loaded.Provenance.Pick != pick.Label || loaded.Provenance.TraceSHA256 != "00ff" {
				t.Errorf("provenance lost: %+v", loaded.Provenance)
			}
			got, err := loaded.NewPolicy()
			if err != nil {
				t.Fatal(err)
			}
			want, err := policy.New(r.Front.Solutions[pick.Row].Config)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(1, uint64(pick.Row)))
			var dg, dw policy.Decision
			for i := range 500 {
				v := randomView(rng, loaded.Cluster)
				dg.Reset()
				dw.Reset()
				got.Decide(v, &dg)
				want.Decide(v, &dw)
				if !reflect.DeepEqual(dg, dw) {
					t.Fatalf("view %d: exported rule set decides %+v, the run's solution %+v", i, dg, dw)
				}
			}
		})
	}
}

func TestExportProvenance(t *testing.T) {
	r := testRun()
	rs, err := RuleSet(r, Pick{Label: "qos0.1", Row: 3})
	if err != nil {
		t.Fatal(err)
	}
	p := rs.Provenance
	wantTrain := map[string]float64{"qos_p90": 0.08, "off_node_seconds": 500000, "reconfigurations": 150, "energy_kwh": 134}
	wantTest := map[string]float64{"qos_p90": 0.12, "off_node_seconds": 200000, "reconfigurations": 60, "energy_kwh": 56}
	if !reflect.DeepEqual(p.Train, wantTrain) || !reflect.DeepEqual(p.Test, wantTest) {
		t.Errorf("train %v test %v", p.Train, p.Test)
	}
	if p.Seed != 7 || p.Split != "chronological jobs 0.7" || p.Version != "test" || p.Trace != "test.swf" {
		t.Errorf("provenance %+v", p)
	}
	if len(rs.Cluster) != 1 || rs.Cluster[0].Count != 8 || rs.Cluster[0].Model.BootS != 555 {
		t.Errorf("cluster %+v", rs.Cluster)
	}
}

func TestExportRejectsBadSolutions(t *testing.T) {
	r := testRun()
	r.Front.Solutions[0].Config.Params["idle_timeout"] = -5
	if _, err := RuleSet(r, Pick{Row: 0}); err == nil || !strings.Contains(err.Error(), "idle_timeout") {
		t.Errorf("out-of-bounds parameter: %v", err)
	}
	r.Front.Solutions[1].Config.Name = "no-such-policy"
	if _, err := RuleSet(r, Pick{Row: 1}); err == nil {
		t.Error("unknown policy: no error")
	}
}

func TestSlurm(t *testing.T) {
	groups := []policy.Group{{Name: "node", Count: 128, Slots: 1, Model: policy.NodeModel{BootS: 555, ShutdownS: 480}}}
	tests := []struct {
		name      string
		cfg       policy.Config
		wantLines []string
		unmapped  string // a phrase the caveats must hold
	}{
		{"idle-timeout", idleTimeoutConfig(1800, 0), []string{
			"SuspendTime=1800", "SuspendRate=0", "ResumeRate=0", "ResumeTimeout=1110", "SuspendTimeout=480",
		}, "SuspendProgram"},
		// 4 spare nodes; at most 10 booting at once over a 555 s boot is
		// 10·60/555 = 1.08, so 1 node per minute.
		{"spare and max_booting", policy.Config{Name: "idle-timeout", Params: map[string]float64{"idle_timeout": 600, "spare": 4, "max_booting": 10}}, []string{
			"SuspendTime=600", "SuspendRate=0", "ResumeRate=1", "ResumeTimeout=1110", "SuspendTimeout=480", "SuspendExcNodes=node[1-128]:4",
		}, "max_booting=10"},
		// 200 booting at once on 128 nodes is no limit.
		{"max_booting above the nodes", policy.Config{Name: "idle-timeout", Params: map[string]float64{"idle_timeout": 600, "spare": 0, "max_booting": 200}}, []string{
			"SuspendTime=600", "SuspendRate=0", "ResumeRate=0", "ResumeTimeout=1110", "SuspendTimeout=480",
		}, "SuspendProgram"},
		{"always-on", policy.Config{Name: "always-on"}, []string{"SuspendTime=INFINITE"}, "none"},
		{"always-off", policy.Config{Name: "always-off"}, []string{
			"SuspendTime=0", "SuspendRate=0", "ResumeRate=0", "ResumeTimeout=1110", "SuspendTimeout=480",
		}, "SuspendProgram"},
		{"other", policy.Config{Name: "eecluster"}, nil, "does not map"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Slurm(&policy.RuleSet{Policy: tt.cfg, Cluster: groups, Period: 60})
			if !reflect.DeepEqual(s.Lines, tt.wantLines) {
				t.Errorf("lines %q, want %q", s.Lines, tt.wantLines)
			}
			if !strings.Contains(strings.Join(s.Unmapped, "\n"), tt.unmapped) {
				t.Errorf("caveats %q lack %q", s.Unmapped, tt.unmapped)
			}
		})
	}
}

func ExampleSlurm() {
	rs := &policy.RuleSet{
		Policy:  policy.Config{Name: "idle-timeout", Params: map[string]float64{"idle_timeout": 1800, "spare": 2}},
		Cluster: []policy.Group{{Name: "node", Count: 64, Slots: 8, Model: policy.NodeModel{BootS: 555, ShutdownS: 480}}},
		Period:  60,
	}
	for _, l := range Slurm(rs).Lines {
		fmt.Println(l)
	}
	// Output:
	// SuspendTime=1800
	// SuspendRate=0
	// ResumeRate=0
	// ResumeTimeout=1110
	// SuspendTimeout=480
	// SuspendExcNodes=node[1-64]:2
}
