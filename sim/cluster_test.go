package sim_test

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
)

func TestLoadCluster(t *testing.T) {
	dual := sim.ESCS
	dual.SleepLevels = []policy.SleepLevel{{Name: "suspend", W: 5, EnterS: 10, EnterWh: 0.02, ExitS: 20, ExitWh: 0.5}}
	dual.Freqs = []policy.FreqLevel{{Name: "nominal", SlotW: 80, Speed: 1}, {Name: "low", SlotW: 50, Speed: 0.8}}
	want := sim.Cluster{Name: "osc", Groups: []sim.NodeGroup{
		{Name: "quad", Count: 32, Slots: 4, Model: sim.ESCS},
		{Name: "dual", Count: 25, Slots: 2, GFLOPS: 3.2, Model: dual},
	}}
	for _, name := range []string{"osc.yaml", "osc.json"} {
		c, err := sim.LoadCluster(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(c, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", name, c, want)
		}
		if c.Nodes() != 57 || c.Slots() != 178 {
			t.Errorf("%s: %d nodes, %d slots", name, c.Nodes(), c.Slots())
		}
	}
}

func TestParseClusterErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{`groups: []`, "groups: no node group"},
		{`groups: [{name: a, count: 0, slots: 1, model: escs}]`, "groups[0].count: 0 must be at least 1"},
		{`groups: [{name: a, count: 2, slots: 0, model: escs}]`, "groups[0].slots"},
		{`groups: [{name: a, count: 2, slots: 1, model: nope}]`, `groups[0].model: sim: unknown model "nope"`},
		{`groups: [{name: a, count: 2, slots: 1, model: {idle_w: -3}}]`, "groups[0].model.idle_w: -3"},
		{`groups: [{name: a, count: 2, slots: 1, model: {boot_s: -1}}]`, "groups[0].model.boot_s"},
		{`groups: [{name: a, count: 2, slots: 1, model: {freqs: [{speed: 0}]}}]`, "groups[0].model.freqs[0].speed"},
		{`groups: [{name: a, count: 2, slots: 1, model: {sleep_levels: [{w: -1}]}}]`, "groups[0].model.sleep_levels[0].w"},
		{`groups: [{name: a, count: 2, slots: 1, modle: escs}]`, "field modle not found"},
		{`groups: [{name: a, count: two}]`, "cannot unmarshal"},
		// Issue 36: beyond int64, and beyond the limit.
		{`groups: [{name: a, count: 9223372036854775808, slots: 1, model: escs}]`, "line 1: groups[0].count: 9223372036854775808 is out of range: beyond the int64 maximum 9223372036854775807"},
		{"groups:\n- name: a\n  count: 2\n  slots: 99999999999999999999\n  model: escs\n", "line 4: groups[0].slots: 99999999999999999999 is out of range"},
		{`{"groups": [{"name": "a", "count": 99999999999, "slots": 1, "model": "escs"}]}`, "groups[0].count: 99999999999 nodes is more than the limit, 1048576"},
	} {
		_, err := sim.ParseCluster([]byte(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.text, err, tc.want)
		}
	}
}

func TestClusterFromTrace(t *testing.T) {
	for _, tc := range []struct {
		nodes, procs int
		want         []sim.NodeGroup
		err          string
	}{
		{128, 128, []sim.NodeGroup{{Name: "node", Count: 128, Slots: 1, Model: sim.ESCS}}, ""},
		{144, 1152, []sim.NodeGroup{{Name: "node", Count: 144, Slots: 8, Model: sim.ESCS}}, ""},
		// OSC: 178 = 57·3 + 7: 7 nodes of 4 slots, 50 of 3.
		{57, 178, []sim.NodeGroup{{Name: "fat", Count: 7, Slots: 4, Model: sim.ESCS}, {Name: "node", Count: 50, Slots: 3, Model: sim.ESCS}}, ""},
		{datasets.Unknown, 24, []sim.NodeGroup{{Name: "node", Count: 24, Slots: 1, Model: sim.ESCS}}, ""},
		{256, datasets.Unknown, []sim.NodeGroup{{Name: "node", Count: 256, Slots: 1, Model: sim.ESCS}}, ""},
		{datasets.Unknown, datasets.Unknown, nil, "neither MaxNodes nor MaxProcs"},
		{10, 5, nil, "fewer processors"},
	} {
		c, err := sim.ClusterFromTrace(datasets.Meta{Name: "t", Nodes: tc.nodes, Procs: tc.procs})
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%d/%d: error %v, want %q", tc.nodes, tc.procs, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(c.Groups, tc.want) {
			t.Errorf("%d/%d: %+v, %v", tc.nodes, tc.procs, c.Groups, err)
		}
	}
}

func TestNewErrors(t *testing.T) {
	c := sim.Uniform(2, 2, simple)
	for _, tc := range []struct {
		tr   *datasets.Trace
		opt  sim.Options
		want string
	}{
		{makeTrace(job{0, 10, 5, 0}), sim.Options{}, "job 1 needs 5 slots, cluster has 4"},
		{makeTrace(job{0, 10, 0, 0}), sim.Options{}, "job 1 needs 0 slots"},
		{makeTrace(job{0, -1, 1, 0}), sim.Options{}, "unknown processors or run time"},
		{makeTrace(job{10, 1, 1, 0}, job{5, 1, 1, 0}), sim.Options{}, "sorted by submit time"},
		{makeTrace(), sim.Options{}, "no job"},
		{makeTrace(job{0, 1, 1, 0}), sim.Options{Scheduler: "lottery"}, "unknown scheduler"},
		{makeTrace(job{0, 1, 1, 0}), sim.Options{Period: -5}, "period -5"},
		{makeTrace(job{0, 1, 1, 0}), sim.Options{BootFailProb: 1}, "boot failure probability"},
	} {
		_, err := sim.New(tc.tr, c, tc.opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want %q", err, tc.want)
		}
	}
}

// TestPolicyBugs: commands naming nodes or levels that do not exist fail
// the run; a policy that never powers anything on fails instead of hanging.
func TestPolicyBugs(t *testing.T) {
	tr := makeTrace(job{0, 10, 1, 0}, job{5000, 10, 1, 0})
	c := sim.Uniform(2, 1, simple)
	for _, tc := range []struct {
		p    policy.Policy
		want string
	}{
		{scripted{on: []int{7}}, "power on node 7: no such node"},
		{scripted{off: []policy.NodeCommand{{Node: 1, Level: 2}}}, "power off node 1 to level 2"},
		{scripted{freq: []policy.FreqCommand{{Node: 1, Level: 1}}}, "set frequency of node 1 to level 1"},
		{offWhenIdleNeverOn{}, "jobs wait but nothing is pending"},
	} {
		_, err := sim.Run(tr, c, tc.p, sim.Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%T: error %v, want %q", tc.p, err, tc.want)
		}
	}
}

// scripted issues the same commands at every decision.
type scripted struct {
	on   []int
	off  []policy.NodeCommand
	freq []policy.FreqCommand
}

func (scripted) Name() string { return "scripted" }

func (p scripted) Decide(v *policy.View, d *policy.Decision) {
	d.PowerOn = append(d.PowerOn, p.on...)
	d.PowerOff = append(d.PowerOff, p.off...)
	d.Freq = append(d.Freq, p.freq...)
}

// offWhenIdleNeverOn switches idle nodes off and never boots one.
type offWhenIdleNeverOn struct{}

func (offWhenIdleNeverOn) Name() string { return "never-on" }

func (offWhenIdleNeverOn) Decide(v *policy.View, d *policy.Decision) {
	for i := range v.Nodes {
		if v.Nodes[i].State == policy.Idle {
			d.PowerOff = append(d.PowerOff, policy.NodeCommand{Node: i})
		}
	}
}

// FuzzParseCluster: any input gives a valid cluster or an error, never a
// panic; a valid cluster can be replayed.
func FuzzParseCluster(f *testing.F) {
	f.Add([]byte(`groups: [{name: a, count: 2, slots: 1, model: escs}]`))
	f.Add([]byte(`{"groups": [{"name": "a", "count": 1, "slots": 4, "model": {"idle_w": 1, "freqs": [{"speed": 2}]}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := sim.ParseCluster(data)
		if err != nil {
			return
		}
		if c.Nodes() > 1000 || c.Slots() > 100000 {
			return
		}
		tr := makeTrace(job{0, 10, 1, 0}, job{100, 5, int32(c.Slots()), 0})
		if _, err := sim.Run(tr, c, scripted{}, sim.Options{}); err != nil {
			t.Fatalf("valid cluster %+v: %v", c, err)
		}
	})
}

func TestClusterSpecResolve(t *testing.T) {
	meta := datasets.Meta{Name: "t", Nodes: 4, Procs: 8}
	for _, tc := range []struct {
		spec   sim.ClusterSpec
		nodes  int
		slots  int
		errSub string
	}{
		{sim.ClusterSpec{}, 4, 8, ""},
		{sim.ClusterSpec{Nodes: 3}, 3, 3, ""},
		{sim.ClusterSpec{Nodes: 3, SlotsPerNode: 4}, 3, 12, ""},
		{sim.ClusterSpec{File: filepath.Join("testdata", "osc.yaml")}, 57, 178, ""},
		{sim.ClusterSpec{File: "x.yaml", Nodes: 3}, 0, 0, "not both"},
		{sim.ClusterSpec{SlotsPerNode: 2}, 0, 0, "at least one node"},
		{sim.ClusterSpec{Model: "nope"}, 0, 0, "unknown model"},
	} {
		c, err := tc.spec.Resolve(meta)
		if tc.errSub != "" {
			if err == nil || !strings.Contains(err.Error(), tc.errSub) {
				t.Errorf("%+v: error %v, want %q", tc.spec, err, tc.errSub)
			}
			continue
		}
		if err != nil || c.Nodes() != tc.nodes || c.Slots() != tc.slots {
			t.Errorf("%+v: %d nodes %d slots, %v", tc.spec, c.Nodes(), c.Slots(), err)
		}
	}
}
