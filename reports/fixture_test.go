package reports

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/sim"
	"github.com/ecotune/ecotune/tuner"
)

// sc makes scores with the three EECluster objectives and energy.
func sc(qos float64, off, reconf int64, kwh float64) objectives.Scores {
	return objectives.Scores{Jobs: 100, QoSP90: qos, OffNodeSeconds: off, Reconfigurations: reconf, EnergyKWh: kwh}
}

func scp(qos float64, off, reconf int64, kwh float64) *objectives.Scores {
	s := sc(qos, off, reconf, kwh)
	return &s
}

func idleTimeoutConfig(timeout, spare float64) policy.Config {
	return policy.Config{Name: "idle-timeout", Params: map[string]float64{"idle_timeout": timeout, "spare": spare, "max_booting": 0}}
}

// testCluster is 8 nodes of 4 slots with the ESCS power model (docs/architecture.md).
var testCluster = sim.Cluster{Name: "test", Groups: []sim.NodeGroup{{Name: "node", Count: 8, Slots: 4, Model: policy.NodeModel{
	OffW: 2, IdleW: 150, BusySlotW: 20, BootS: 555, BootWh: 13.71, ShutdownS: 480, ShutdownWh: 10.79,
}}}}

// testRun is a small hand-made run of idle-timeout on an 8-node cluster:
// five front solutions trading qos_p90 against node-off seconds, one
// dominated solution, always-on and oracle references and three presets
// (qos0 infeasible, resolved to the least violating row).
func testRun() *Run {
	f := &tuner.Front{
		Policy:     "idle-timeout",
		ParamNames: []string{"idle_timeout", "spare", "max_booting"},
		Objectives: []tuner.Objective{
			{Name: objectives.QoSP90}, {Name: objectives.OffNodeSeconds, Maximize: true}, {Name: objectives.Reconfigurations},
		},
		Solutions: []tuner.Solution{
			{Config: idleTimeoutConfig(60, 0), Train: sc(0.9, 900000, 800, 110), Test: scp(1.1, 350000, 330, 48)},
			{Config: idleTimeoutConfig(300, 0), Train: sc(0.5, 800000, 500, 118), Test: scp(0.6, 320000, 210, 50), Presets: []string{"qos0.5"}},
			{Config: idleTimeoutConfig(900, 1), Train: sc(0.2, 650000, 300, 127), Test: scp(0.25, 260000, 120, 53)},
			{Config: idleTimeoutConfig(1800, 1), Train: sc(0.08, 500000, 150, 134), Test: scp(0.12, 200000, 60, 56), Presets: []string{"qos0.1"}},
			{Config: idleTimeoutConfig(7200, 2), Train: sc(0.02, 200000, 40, 150), Test: scp(0.03, 90000, 20, 61), Presets: []string{"qos0"}},
			{Config: idleTimeoutConfig(3600, 4), Train: sc(0.3, 150000, 90, 158), Test: scp(0.4, 60000, 50, 64), Rank: 1},
		},
	}
	m := &tuner.RunMeta{
		Command: []string{"ecotune", "tune", "--seed", "7"}, Version: "test", Seed: 7, Policy: "idle-timeout",
		Trace: "test.swf", TraceSHA256: "00ff", Split: run.Holdout(0.7),
		Cluster: tuner.ClusterJSON(testCluster), Scheduler: sim.FCFS,
		Evaluations: 1200, WallSeconds: 12.5, Generations: 30,
		Hypervolume: map[string]float64{"train": 0.61, "test": 0.58},
		References: map[string]tuner.Reference{
			AlwaysOn: {Config: policy.Config{Name: AlwaysOn}, Train: sc(0, 0, 0, 170), Test: scp(0, 0, 0, 70)},
			Oracle:   {Config: policy.Config{Name: Oracle}, Train: sc(0, 1000000, 900, 100), Test: scp(0, 400000, 360, 44)},
		},
		Presets: []tuner.PresetChoice{
			{Name: "qos0", Bound: 0, Resolved: 0, Feasible: false, Row: 4},
			// On test only row 4 meets 0.1: the pick had it seen the test split.
			{Name: "qos0.1", Bound: 0.1, Resolved: 0.1, Feasible: true, Row: 3, HindsightRow: ptr(4), HindsightFeasible: ptr(true)},
			{Name: "qos0.5", Bound: 0.5, Resolved: 0.5, Feasible: true, Row: 1},
		},
	}
	return &Run{Dir: "testrun", Meta: m, Front: f}
}

// writeTestRun stores testRun as a run directory and returns its path.
func writeTestRun(t *testing.T) string {
	t.Helper()
	r := testRun()
	dir := t.TempDir()
	for name, v := range map[string]any{tuner.RunJSON: r.Meta, tuner.FrontJSON: r.Front} {
		b, err := json.MarshalIndent(v, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// testTimeline is a 2-node timeline over [1000, 1600): node0 idle until
// 1100, busy until 1300, idle again; node1 shuts down at 1050, is off
// from 1250 (480 s shutdown cut short for the test), boots at 1400 and is
// idle from 1500.
func testTimeline() *sim.Timeline {
	return &sim.Timeline{
		NodeNames: []string{"node1", "node2"},
		Changes: []sim.Change{
			{Time: 1000, Node: 0, State: policy.Idle},
			{Time: 1000, Node: 1, State: policy.Idle},
			{Time: 1050, Node: 1, State: policy.ShuttingDown},
			{Time: 1100, Node: 0, State: policy.Busy},
			{Time: 1250, Node: 1, State: policy.Off},
			{Time: 1300, Node: 0, State: policy.Idle},
			{Time: 1400, Node: 1, State: policy.Booting},
			{Time: 1500, Node: 1, State: policy.Idle},
		},
		Steps: []sim.Step{
			{Time: 1000, Requested: 0, Powered: 8},
			{Time: 1100, Requested: 4, Powered: 8, Busy: 4},
			{Time: 1250, Requested: 4, Powered: 4, Busy: 4},
			{Time: 1300, Requested: 0, Powered: 4},
			{Time: 1400, Requested: 0, Powered: 8},
		},
	}
}

func ptr[T any](v T) *T { return &v }
