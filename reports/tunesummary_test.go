package reports

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/tuner"
	"github.com/ecotune/ecotune/tuner/scoring"
)

// The closing summary of tune shows each preset's pick in the units people
// read: qos_p90 as it is, off-seconds in node-hours, energy saved against
// always-on in kWh (hand-worked below), and the commands that come next.
func TestTuneSummary(t *testing.T) {
	sc := func(qos float64, offS int64, kwh float64, reconf int64) objectives.Scores {
		return objectives.Scores{QoSP90: qos, OffNodeSeconds: offS, EnergyKWh: kwh, Reconfigurations: reconf}
	}
	test := sc(0.02, 3600*5, 80, 7)
	f := &tuner.Front{Solutions: []tuner.Solution{
		{Config: policy.Config{Name: "idle-timeout"}, Train: sc(0.25, 3600*40, 70, 30), Test: &test},
	}}
	aoTest := sc(0, 0, 95.5, 0)
	m := &tuner.RunMeta{Policy: "idle-timeout", Trace: "sp2", Scheduler: "easy", Split: run.Holdout(0.7), TrainJobs: 70, TestJobs: 30,
		References: map[string]run.Reference{scoring.AlwaysOn: {Train: sc(0, 0, 100, 0), Test: &aoTest}},
		Presets:    []run.PresetChoice{{Name: "qos0", Row: 0, Feasible: false}, {Name: "knee", Row: 0, Feasible: true}}}
	var b bytes.Buffer
	if err := WriteTuneSummary(&b, "runs/x", m, f, "runs/x/report/report.html"); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"front: 1 solutions; train 70 jobs, test 30 jobs",
		"p90 wait ratio", "nodes off (node-hours)", "kWh saved vs always-on", "reconfigurations",
		"qos0 (infeasible)",
		"0.250 / 0.020", // qos_p90 train / test
		"40 / 5",        // node-hours off: 144000 s and 18000 s
		"30.0 / 15.5",   // kWh saved: 100−70 and 95.5−80
		"30 / 7",        // reconfigurations
		"report: runs/x/report/report.html",
		"ecotune export runs/x --pick knee -o runs/x/rules.json", // the first feasible preset
	} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
}
