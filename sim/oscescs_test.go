package sim_test

import (
	"math"
	"slices"
	"testing"

	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
)

// oscESCSFile is the published OSC node layout of docs/clusters.
const oscESCSFile = "../docs/clusters/osc-escs.yaml"

// TestOSCESCSClusterFile: the example cluster file has the published
// layout (32 nodes of 4 processors, 25 of 2), lists its groups from the
// most efficient (GFLOPS/W at full load) down, and names them so that
// host-name order is the same order.
func TestOSCESCSClusterFile(t *testing.T) {
	c, err := sim.LoadCluster(oscESCSFile)
	if err != nil {
		t.Fatal(err)
	}
	if c.Nodes() != 57 || c.Slots() != 178 {
		t.Errorf("%d nodes, %d slots; the paper's OSC has 57 and 178", c.Nodes(), c.Slots())
	}
	eff := func(g sim.NodeGroup) float64 {
		m := g.Model
		return g.GFLOPS / (m.IdleW + m.BusyW + float64(g.Slots)*m.BusySlotW)
	}
	var names []string
	for k, g := range c.Groups {
		if g.GFLOPS <= 0 {
			t.Errorf("group %s has no GFLOPS: nodes cannot be ordered by efficiency", g.Name)
		}
		if k > 0 && eff(g) > eff(c.Groups[k-1]) {
			t.Errorf("group %s (%.5f GFLOPS/W) after the less efficient %s (%.5f)", g.Name, eff(g), c.Groups[k-1].Name, eff(c.Groups[k-1]))
		}
		names = append(names, g.Name)
	}
	if !slices.IsSorted(names) {
		t.Errorf("group names %v: host-name order is not efficiency order", names)
	}
}

// TestOSCESCSPublished replays OSC-Clust on the published layout: always
// on it gives the paper's row without ESC (168.60 MWh, busy power per busy
// processor); escs runs every job and draws less. docs/osc-escs.md sets
// the escs figures beside the paper's row with ESC.
func TestOSCESCSPublished(t *testing.T) {
	tr := openTrace(t, "OSC-Clust-2000-3.1-cln.swf.gz")
	c, err := sim.LoadCluster(oscESCSFile)
	if err != nil {
		t.Fatal(err)
	}
	on, err := sim.Run(tr, c, alwaysOn(t), sim.Options{Scheduler: sim.FCFS})
	if err != nil {
		t.Fatal(err)
	}
	if mwh := on.EnergyWh / 1e6; math.Abs(mwh-168.60) > 0.001*168.60 {
		t.Errorf("always on: %.3f MWh, published 168.60", mwh)
	}
	p, err := policy.New(policy.Config{Name: "escs"})
	if err != nil {
		t.Fatal(err)
	}
	r, err := sim.Run(tr, c, p, sim.Options{Scheduler: sim.FCFS})
	if err != nil {
		t.Fatal(err)
	}
	for i, j := range r.Jobs {
		if j.Start < j.Submit || j.End != j.Start+tr.Jobs[i].Run {
			t.Fatalf("job %d: submit %d, start %d, end %d, run %d", j.ID, j.Submit, j.Start, j.End, tr.Jobs[i].Run)
		}
	}
	if r.EnergyWh >= on.EnergyWh || r.TEnd < on.TEnd {
		t.Errorf("escs: %.3f MWh, TEnd %d; always on %.3f MWh, TEnd %d", r.EnergyWh/1e6, r.TEnd, on.EnergyWh/1e6, on.TEnd)
	}
	t.Logf("escs: %.3f MWh over %.2f days, %d boots; always on %.3f MWh", r.EnergyWh/1e6, float64(r.TEnd-r.TIni)/86400, r.Boots, on.EnergyWh/1e6)
}
