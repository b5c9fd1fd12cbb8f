package policy

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
)

func testRuleSet() *RuleSet {
	return &RuleSet{
		Version: RuleSetVersion,
		Policy:  Config{Name: "idle-timeout", Params: map[string]float64{"idle_timeout": 900}},
		Cluster: []Group{{Name: "node", Count: 4, Slots: 2, GFLOPS: 50, Model: escsModel}},
		Period:  60,
		Provenance: &Provenance{Trace: "SDSC-SP2", TraceSHA256: "00ff", Split: "0.7", Seed: 1, Version: "dev",
			Train: map[string]float64{"qos": 0.1}},
	}
}

func TestRuleSetWriteLoad(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "rules.json")
	rs := testRuleSet()
	if err := WriteRuleSet(path, rs, false); err != nil {
		t.Fatal(err)
	}
	if err := WriteRuleSet(path, rs, false); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("overwrite without force: %v", err)
	}
	if err := WriteRuleSet(path, rs, true); err != nil {
		t.Fatalf("overwrite with force: %v", err)
	}
	got, err := LoadRuleSet(path)
	if err != nil {
		t.Fatal(err)
	}
	want := *rs
	want.Policy = Config{Name: "idle-timeout", Params: map[string]float64{"idle_timeout": 900, "spare": 0, "max_booting": 0}}
	if !reflect.DeepEqual(got, &want) {
		t.Errorf("loaded %+v\nwant %+v", got, &want)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

func TestRuleSetHGFSRoundTrip(t *testing.T) {
	rs := testRuleSet()
	rs.Policy = Config{Name: "hgfs", Fuzzy: HGFSTemplate()}
	rs.Policy.Fuzzy.Rules[3].Then = -1
	rs.Policy.Fuzzy.Inputs[1].Shifts = []float64{0.1, -0.3, 0.5}
	path := filepath.Join(t.TempDir(), "rules.json")
	if err := WriteRuleSet(path, rs, false); err != nil {
		t.Fatal(err)
	}
	got, err := LoadRuleSet(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Policy.Fuzzy, rs.Policy.Fuzzy) {
		t.Error("fuzzy system changed in the round trip")
	}
}

func TestLoadRuleSetErrors(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(m map[string]any)
		want   string
	}{
		{"version", func(m map[string]any) { m["version"] = 2 }, "rules.json: version: 2, this ecotune reads version 1"},
		{"unknown policy", func(m map[string]any) { pol(m)["name"] = "nope" }, `rules.json: policy.name: policy: unknown policy "nope"`},
		{"bounds", func(m map[string]any) { pol(m)["params"] = map[string]any{"idle_timeout": 99999} }, "rules.json: policy.params.idle_timeout: 99999 out of [60, 86400]"},
		{"unknown param", func(m map[string]any) { pol(m)["params"] = map[string]any{"T": 1} }, "rules.json: policy.params.T: unknown parameter"},
		{"fuzzy on idle-timeout", func(m map[string]any) { pol(m)["fuzzy"] = HGFSTemplate() }, "rules.json: policy.fuzzy: idle-timeout has no fuzzy rule base"},
		{"period", func(m map[string]any) { m["period_s"] = 0 }, "rules.json: period_s: 0, want at least 1"},
		{"cluster", func(m map[string]any) { m["cluster"] = []any{} }, "rules.json: cluster: no node group"},
		{"group slots", func(m map[string]any) { grp(m)["slots"] = 0 }, "rules.json: cluster[0].slots: 0, want at least 1"},
		{"model", func(m map[string]any) { grp(m)["model"].(map[string]any)["boot_s"] = -5 }, "rules.json: cluster[0].model.boot_s: -5"},
		{"period range", func(m map[string]any) { m["period_s"] = int64(1) << 62 }, "rules.json: period_s: 4611686018427387904 is out of range: more than 3155760000"},
		{"group slots range", func(m map[string]any) { grp(m)["slots"] = 99999999999 }, "rules.json: cluster[0].slots: 99999999999 is out of range: more than 16777216"},
		{"group count range", func(m map[string]any) { grp(m)["count"] = int64(1) << 40 }, "rules.json: cluster[0].count: 1099511627776 is out of range: more than 1048576"},
		{"cluster slots range", func(m map[string]any) { grp(m)["count"] = 1 << 20; grp(m)["slots"] = 1 << 10 }, "rules.json: cluster: 1048576 nodes of 1073741824 slots is out of range"},
		{"boot range", func(m map[string]any) { grp(m)["model"].(map[string]any)["boot_s"] = int64(1) << 62 }, "rules.json: cluster[0].model.boot_s: 4611686018427387904 is out of range"},
		{"unknown field", func(m map[string]any) { m["extra"] = 1 }, `rules.json: json: unknown field "extra"`},
		{"type", func(m map[string]any) { m["period_s"] = "60" }, "rules.json: line 20: period_s: string is not a int64"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, _ := json.Marshal(testRuleSet())
			var m map[string]any
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			tt.mutate(m)
			b, _ = json.MarshalIndent(m, "", "  ")
			path := filepath.Join(t.TempDir(), "rules.json")
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := LoadRuleSet(path)
			if err == nil || !strings.Contains(strings.TrimPrefix(err.Error(), filepath.Dir(path)+"/"), tt.want) {
				t.Errorf("error %v; want %q", err, tt.want)
			}
		})
	}
	if _, err := ParseRuleSet([]byte("{\n\"version\": 1,\n}")); err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("syntax error: %v", err)
	}
}

func pol(m map[string]any) map[string]any { return m["policy"].(map[string]any) }
func grp(m map[string]any) map[string]any { return m["cluster"].([]any)[0].(map[string]any) }

func FuzzParseRuleSet(f *testing.F) {
	b, _ := json.Marshal(testRuleSet())
	f.Add(b)
	rs := testRuleSet()
	rs.Policy = Config{Name: "hgfs", Fuzzy: HGFSTemplate()}
	b, _ = json.Marshal(rs)
	f.Add(b)
	f.Add([]byte(`{"version":1,"policy":{"name":"escs","params":{"wait_on@phys":60}},"cluster":[{"name":"n","count":1,"slots":1,"model":{}}],"period_s":60}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rs, err := ParseRuleSet(data)
		if err != nil {
			return
		}
		// Whatever loads makes a policy that decides on a View of its cluster.
		p, err := rs.NewPolicy()
		if err != nil {
			t.Fatalf("loaded rule set makes no policy: %v", err)
		}
		v := randomView(rand.New(rand.NewPCG(1, 2)), 1_000_000)
		v.Groups = rs.Cluster
		for i := range v.Nodes {
			v.Nodes[i].Group = 0
			v.Nodes[i].Slots = rs.Cluster[0].Slots
			v.Nodes[i].BusySlots = min(v.Nodes[i].BusySlots, v.Nodes[i].Slots)
			v.Nodes[i].SleepLevel = min(v.Nodes[i].SleepLevel, len(rs.Cluster[0].Model.SleepLevels))
			v.Nodes[i].Freq = 0
		}
		v.Recount()
		checkCommands(t, v, decide(p, v))
	})
}

// TestRuleSetFileMode: rules.json follows the umask (0666 &^ umask), as
// every other output, instead of 0600.
func TestRuleSetFileMode(t *testing.T) {
	for _, mask := range []int{0o022, 0o077} {
		path := filepath.Join(t.TempDir(), "rules.json")
		old := syscall.Umask(mask)
		err := WriteRuleSet(path, testRuleSet(), false)
		syscall.Umask(old)
		if err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if want := os.FileMode(0o666 &^ mask); fi.Mode().Perm() != want {
			t.Errorf("umask %o: mode %o, want %o", mask, fi.Mode().Perm(), want)
		}
	}
}
