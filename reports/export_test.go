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
	"github.com/ecotune/ecotune/slurm"
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
	progs := []string{"SuspendProgram=" + DefaultSuspendProgram, "ResumeProgram=" + DefaultResumeProgram}
	names := map[string][]string{"node": nil}
	for i := 1; i <= 128; i++ {
		names["node"] = append(names["node"], fmt.Sprintf("cn%03d", i))
	}
	tests := []struct {
		name      string
		cfg       policy.Config
		opt       SlurmOptions
		wantLines []string
		unmapped  string // a phrase the caveats must hold
		daemon    bool
	}{
		{"idle-timeout", idleTimeoutConfig(1800, 0), SlurmOptions{}, append(progs,
			"SuspendTime=1800", "SuspendTimeout=480", "ResumeTimeout=1110", "SuspendRate=0", "ResumeRate=0",
		), "SuspendProgram", false},
		// 4 spare nodes; at most 10 booting at once over a 555 s boot is
		// 10·60/555 = 1.08, so 1 node per minute. The real node names of
		// the map, with the count syntax of 22.05.
		{"spare and max_booting", policy.Config{Name: "idle-timeout", Params: map[string]float64{"idle_timeout": 600, "spare": 4, "max_booting": 10}},
			SlurmOptions{Nodes: names}, append(progs,
				"SuspendTime=600", "SuspendTimeout=480", "ResumeTimeout=1110", "SuspendRate=0", "ResumeRate=1", "SuspendExcNodes=cn[001-128]:4",
			), "max_booting=10", false},
		// Excluded nodes and spares: each set with its count.
		{"exclude and spare", policy.Config{Name: "idle-timeout", Params: map[string]float64{"idle_timeout": 600, "spare": 2, "max_booting": 0}},
			SlurmOptions{Nodes: names, Exclude: []string{"cn002", "cn001"}, SuspendProgram: "/opt/s", ResumeProgram: "/opt/r"}, []string{
				"SuspendProgram=/opt/s", "ResumeProgram=/opt/r",
				"SuspendTime=600", "SuspendTimeout=480", "ResumeTimeout=1110", "SuspendRate=0", "ResumeRate=0", "SuspendExcNodes=cn[001-002]:2,cn[001-128]:2",
			}, "/opt/s", false},
		// Spares without a map: no made-up node names.
		{"spare without names", policy.Config{Name: "idle-timeout", Params: map[string]float64{"idle_timeout": 600, "spare": 4, "max_booting": 0}},
			SlurmOptions{}, append(progs,
				"SuspendTime=600", "SuspendTimeout=480", "ResumeTimeout=1110", "SuspendRate=0", "ResumeRate=0",
			), "SuspendProgram", false},
		// 200 booting at once on 128 nodes is no limit.
		{"max_booting above the nodes", policy.Config{Name: "idle-timeout", Params: map[string]float64{"idle_timeout": 600, "spare": 0, "max_booting": 200}},
			SlurmOptions{}, append(progs,
				"SuspendTime=600", "SuspendTimeout=480", "ResumeTimeout=1110", "SuspendRate=0", "ResumeRate=0",
			), "SuspendProgram", false},
		{"always-on", policy.Config{Name: "always-on"}, SlurmOptions{}, []string{"SuspendTime=INFINITE"}, "none", false},
		{"always-off", policy.Config{Name: "always-off"}, SlurmOptions{}, append(progs,
			"SuspendTime=0", "SuspendTimeout=480", "ResumeTimeout=1110", "SuspendRate=0", "ResumeRate=0",
		), "SuspendProgram", false},
		// Policies Slurm cannot express: a day's backstop, never INFINITE.
		{"daemon", policy.Config{Name: "eecluster"}, SlurmOptions{Exclude: []string{"cn007"}}, append(progs,
			"SuspendTime=86400", "SuspendTimeout=480", "ResumeTimeout=1110", "SuspendRate=0", "ResumeRate=0", "SuspendExcNodes=cn007",
		), "ecotune daemon", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Slurm(&policy.RuleSet{Policy: tt.cfg, Cluster: groups, Period: 60}, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(s.Lines, tt.wantLines) {
				t.Errorf("lines %q, want %q", s.Lines, tt.wantLines)
			}
			if !strings.Contains(strings.Join(s.Unmapped, "\n"), tt.unmapped) {
				t.Errorf("caveats %q lack %q", s.Unmapped, tt.unmapped)
			}
			if s.Daemon != tt.daemon || (tt.daemon && !strings.Contains(strings.Join(s.Comments, " "), "ecotune daemon")) {
				t.Errorf("daemon %v, comments %q: want daemon %v said in a comment", s.Daemon, s.Comments, tt.daemon)
			}
			for _, l := range s.Lines {
				if l == "SuspendTime=INFINITE" && tt.cfg.Name != "always-on" {
					t.Errorf("%s: SuspendTime=INFINITE switches power saving off", tt.cfg.Name)
				}
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
	names, _ := slurm.ExpandHostlist("node[01-64]")
	s, _ := Slurm(rs, SlurmOptions{Nodes: map[string][]string{"node": names}})
	for _, l := range s.Lines {
		fmt.Println(l)
	}
	// Output:
	// SuspendProgram=/usr/local/sbin/ecotune-suspend
	// ResumeProgram=/usr/local/sbin/ecotune-resume
	// SuspendTime=1800
	// SuspendTimeout=480
	// ResumeTimeout=1110
	// SuspendRate=0
	// ResumeRate=0
	// SuspendExcNodes=node[01-64]:2
}
