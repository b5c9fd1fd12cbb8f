package sim_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
)

// TestClusterFromLayout checks that a trace with a node layout gives its
// groups: a 4 × 32 layout is 4 nodes of 32 slots, not 128 one-slot nodes;
// a trace without one keeps the header's rule.
func TestClusterFromLayout(t *testing.T) {
	for _, tc := range []struct {
		name   string
		meta   datasets.Meta
		want   []sim.NodeGroup
		errMsg string
	}{
		{"4x32", datasets.Meta{Name: "x", Nodes: 4, Procs: 128, Layout: []datasets.LayoutGroup{{Slots: 32, Count: 4, Hosts: "n[1-4]"}}},
			[]sim.NodeGroup{{Name: "node", Count: 4, Slots: 32, Model: sim.ESCS}}, ""},
		{"two groups", datasets.Meta{Name: "x", Nodes: 3, Procs: 72, Layout: []datasets.LayoutGroup{{Slots: 8, Count: 1, Hosts: "a"}, {Slots: 32, Count: 2, Hosts: "b[1-2]"}}},
			[]sim.NodeGroup{{Name: "node8c-", Count: 1, Slots: 8, Model: sim.ESCS}, {Name: "node32c-", Count: 2, Slots: 32, Model: sim.ESCS}}, ""},
		{"no layout", datasets.Meta{Name: "x", Nodes: 4, Procs: 128},
			[]sim.NodeGroup{{Name: "node", Count: 4, Slots: 32, Model: sim.ESCS}}, ""},
		{"no layout, procs only", datasets.Meta{Name: "x", Nodes: datasets.Unknown, Procs: 128},
			[]sim.NodeGroup{{Name: "node", Count: 128, Slots: 1, Model: sim.ESCS}}, ""},
		{"bad layout", datasets.Meta{Name: "x", Layout: []datasets.LayoutGroup{{Slots: 0, Count: 4, Hosts: "n[1-4]"}}}, nil, "layout[0]"},
	} {
		c, err := sim.ClusterFromTrace(tc.meta)
		if tc.errMsg != "" {
			if err == nil || !strings.Contains(err.Error(), tc.errMsg) {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.errMsg)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !reflect.DeepEqual(c.Groups, tc.want) {
			t.Errorf("%s: groups %+v, want %+v", tc.name, c.Groups, tc.want)
		}
		resolved, err := sim.ClusterSpec{}.Resolve(tc.meta)
		if err != nil || !reflect.DeepEqual(resolved, c) {
			t.Errorf("%s: Resolve gives %+v, %v; want %+v", tc.name, resolved, err, c)
		}
	}
}

// TestMarshalClusterRoundTrip writes clusters as YAML and JSON and reads
// them back: the same cluster, whatever power model detail it has.
func TestMarshalClusterRoundTrip(t *testing.T) {
	osc, err := sim.LoadCluster(filepath.Join("testdata", "osc.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	fromLayout, err := sim.ClusterFromTrace(datasets.Meta{Name: "site", Layout: []datasets.LayoutGroup{
		{Slots: 8, Count: 1, Hosts: "a"}, {Slots: 32, Count: 2, Hosts: "b[1-2]"}}})
	if err != nil {
		t.Fatal(err)
	}
	odd := sim.ESCS
	odd.BusyW, odd.OffW = 12.5, 0.1
	odd.SleepLevels = []policy.SleepLevel{{Name: "yes", W: 3, EnterS: 5, EnterWh: 0.01, ExitS: 60, ExitWh: 1.25}, {Name: "off", W: 0.5, EnterS: 480, ExitS: 555}}
	odd.Freqs = []policy.FreqLevel{{Name: "2.4GHz", SlotW: 80, Speed: 1}, {Name: "1.2GHz", SlotW: 30, Speed: 0.5}}
	quirky := sim.Cluster{Groups: []sim.NodeGroup{{Name: "123", Count: 3, Slots: 2, GFLOPS: 0.1 + 0.2, Model: odd}}}
	for _, c := range []sim.Cluster{osc, fromLayout, sim.Uniform(128, 1, sim.ESCS), quirky} {
		for _, asJSON := range []bool{false, true} {
			b, err := sim.MarshalCluster(c, asJSON, "a head\nof two lines", []string{"hosts: a", "hosts: b[1-2]"})
			if err != nil {
				t.Fatal(err)
			}
			back, err := sim.ParseCluster(b)
			if err != nil {
				t.Fatalf("json %v: %v\n%s", asJSON, err, b)
			}
			if !reflect.DeepEqual(back, c) {
				t.Errorf("json %v: read back\n%+v\nwant\n%+v\n%s", asJSON, back, c, b)
			}
			if asJSON && !json.Valid(b) {
				t.Errorf("JSON output is not JSON:\n%s", b)
			}
			if !asJSON && !strings.HasPrefix(string(b), "# a head\n# of two lines\n") {
				t.Errorf("YAML output does not start with the head comment:\n%s", b)
			}
		}
	}
	if _, err := sim.MarshalCluster(sim.Cluster{}, false, "", nil); err == nil {
		t.Error("an empty cluster was written")
	}
}

// TestDocsClusterExamples reads every YAML example of docs/clusters.md,
// the cluster files' documentation: each must be a valid cluster file.
func TestDocsClusterExamples(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "clusters.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "# Cluster files")
	if !ok {
		t.Fatal("docs/clusters.md has no \"# Cluster files\" heading")
	}
	blocks := strings.Split(section, "```yaml\n")[1:]
	if len(blocks) < 4 {
		t.Fatalf("%d YAML examples, want one per power model (4)", len(blocks))
	}
	for i, b := range blocks {
		text, _, _ := strings.Cut(b, "```")
		c, err := sim.ParseCluster([]byte(text))
		if err != nil {
			t.Errorf("example %d: %v\n%s", i+1, err, text)
			continue
		}
		m := c.Groups[0].Model
		switch i {
		case 1:
			if len(m.SleepLevels) != 2 {
				t.Errorf("example %d: %d sleep levels", i+1, len(m.SleepLevels))
			}
		case 2:
			if len(m.Freqs) != 3 {
				t.Errorf("example %d: %d frequency levels", i+1, len(m.Freqs))
			}
		case 3:
			if c.Groups[0].GFLOPS == 0 || c.Groups[1].GFLOPS == 0 {
				t.Errorf("example %d: no GFLOPS", i+1)
			}
		}
	}
}
