package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/sim"
	"github.com/ecotune/ecotune/tuner"
)

// writeRunDir stores a small run of idle-timeout on the four 2-slot nodes
// of recordedViews: two solutions, presets qos0 (row 1) and qos0.1 (row 0).
func writeRunDir(t *testing.T) (string, *tuner.Front) {
	t.Helper()
	sol := func(timeout, spare float64, qos float64, off int64) tuner.Solution {
		s := objectives.Scores{Jobs: 10, QoSP90: qos, OffNodeSeconds: off, Reconfigurations: 12, EnergyKWh: 3}
		return tuner.Solution{Config: policy.Config{Name: "idle-timeout", Params: map[string]float64{"idle_timeout": timeout, "spare": spare, "max_booting": 0}},
			Train: s, Test: &s}
	}
	f := &tuner.Front{Policy: "idle-timeout", ParamNames: []string{"idle_timeout", "spare", "max_booting"},
		Objectives: []tuner.Objective{{Name: objectives.QoSP90}, {Name: objectives.OffNodeSeconds, Maximize: true}},
		Solutions:  []tuner.Solution{sol(600, 0, 0.08, 5000), sol(3600, 1, 0, 2000)}}
	m := &tuner.RunMeta{Version: "test", Seed: 3, Policy: "idle-timeout", Trace: "t.swf", Split: run.Holdout(0.7),
		Cluster:   tuner.ClusterJSON(sim.Cluster{Groups: []sim.NodeGroup{{Name: "node", Count: 4, Slots: 2, GFLOPS: 50, Model: testModel}}}),
		Scheduler: sim.FCFS,
		Presets:   []tuner.PresetChoice{{Name: "qos0", Feasible: true, Row: 1}, {Name: "qos0.1", Bound: 0.1, Resolved: 0.1, Feasible: true, Row: 0}}}
	dir := t.TempDir()
	fb, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(fb)
	m.FrontSHA256 = hex.EncodeToString(sum[:])
	mb, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{tuner.RunJSON: mb, tuner.FrontJSON: fb} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, f
}

// TestExportFrontChecksum: export checks front.json against the
// front_sha256 run.json records: an edited front is refused, naming the
// file, unless --force (then a warning); a run written before the
// checksum exports with a note; an unedited one without a word.
func TestExportFrontChecksum(t *testing.T) {
	for _, tc := range []struct {
		name    string
		edit    func(t *testing.T, dir string)
		force   bool
		wantErr string
		wantOut string // on stderr (merged)
	}{
		{"unedited", func(*testing.T, string) {}, false, "", ""},
		{"edited", editFront, false, "front.json: sha256", ""},
		{"edited, forced", editFront, true, "", "exported because of --force"},
		{"no checksum", func(t *testing.T, dir string) {
			path := filepath.Join(dir, tuner.RunJSON)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			delete(m, "front_sha256")
			if b, err = json.Marshal(m); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}, false, "", "records no front_sha256"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, _ := writeRunDir(t)
			tc.edit(t, dir)
			args := []string{"export", dir, "--pick", "0", "-o", filepath.Join(t.TempDir(), "r.json")}
			if tc.force {
				args = append(args, "--force")
			}
			out, err := runApp(t, args...)
			switch {
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), filepath.Join(dir, tuner.FrontJSON))):
				t.Errorf("error %v, want %q naming %s", err, tc.wantErr, filepath.Join(dir, tuner.FrontJSON))
			case tc.wantErr == "" && err != nil:
				t.Errorf("export: %v", err)
			case tc.wantOut != "" && !strings.Contains(out, tc.wantOut):
				t.Errorf("output %q, want %q", out, tc.wantOut)
			case tc.wantOut == "" && tc.wantErr == "" && strings.Contains(out, "front_sha256"):
				t.Errorf("output %q names the checksum of an unedited run", out)
			}
		})
	}
}

// editFront changes one score of dir's front.json (still valid JSON).
func editFront(t *testing.T, dir string) {
	t.Helper()
	path := filepath.Join(dir, tuner.FrontJSON)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	e := strings.Replace(string(b), `"idle_timeout":600`, `"idle_timeout":601`, 1)
	if e == string(b) {
		t.Fatal("front.json has no idle_timeout 600 to edit")
	}
	if err := os.WriteFile(path, []byte(e), 0o644); err != nil {
		t.Fatal(err)
	}
}

// ecotune export, then ecotune decide on recorded cluster states, decides
// exactly as the run's solution does.
func TestExportThenDecide(t *testing.T) {
	dir, front := writeRunDir(t)
	for _, pick := range []struct {
		name string
		row  int
	}{{"qos0", 1}, {"qos0.1", 0}, {"0", 0}} {
		rules := filepath.Join(t.TempDir(), "rules.json")
		out, err := runApp(t, "export", dir, "--pick", pick.name, "-o", rules, "--json")
		if err != nil {
			t.Fatalf("export --pick %s: %v\n%s", pick.name, err, out)
		}
		var printed struct {
			Path string `json:"path"`
		}
		if err := json.Unmarshal([]byte(out), &printed); err != nil || printed.Path != rules {
			t.Fatalf("export --json printed %q (%v)", out, err)
		}
		want, err := policy.New(front.Solutions[pick.row].Config)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range recordedViews() {
			state := filepath.Join(t.TempDir(), "state.json")
			b, err := json.Marshal(policy.StateOf(v))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(state, b, 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := runApp(t, "decide", "--rules", rules, "--state", state, "--json")
			if err != nil {
				t.Fatalf("decide: %v\n%s", err, out)
			}
			var got policy.DecisionOut
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatal(err)
			}
			var d policy.Decision
			d.Reset()
			want.Decide(v, &d)
			if exp := d.Out(want, v); !reflect.DeepEqual(got, exp) {
				t.Errorf("pick %s, state %d: decide says %+v, the run's solution %+v", pick.name, i, got, exp)
			}
		}
	}
}

func TestExportSlurmLines(t *testing.T) {
	dir, _ := writeRunDir(t)
	nodesMap := filepath.Join(t.TempDir(), "nodes.map")
	if err := os.WriteFile(nodesMap, []byte("# group hostlist\nnode cn[01-04]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want []string
	}{
		{nil, []string{"SuspendProgram=/usr/local/sbin/ecotune-suspend\n", "SuspendTime=3600\n", "SuspendRate=0\n",
			"# spare=1: add SuspendExcNodes=YOUR_NODES:1", "# What Slurm cannot express:\n"}},
		{[]string{"--nodes-map", nodesMap, "--exclude", "cn04", "--suspend-program", "/opt/off", "--resume-program", "/opt/on"},
			[]string{"SuspendProgram=/opt/off\n", "ResumeProgram=/opt/on\n", "SuspendExcNodes=cn04:1,cn[01-04]:1\n"}},
	}
	for _, tt := range tests {
		args := append([]string{"export", dir, "--pick", "qos0", "-o", filepath.Join(t.TempDir(), "r.json"), "--slurm"}, tt.args...)
		out, err := runApp(t, args...)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range tt.want {
			if !strings.Contains(out, line) {
				t.Errorf("%v: output lacks %q:\n%s", tt.args, line, out)
			}
		}
	}
	for _, bad := range [][]string{{"--slurm-version", "x"}, {"--suspend-program", "relative/path"}, {"--exclude", "cn[4-1]"}} {
		args := append([]string{"export", dir, "--pick", "qos0", "-o", filepath.Join(t.TempDir(), "r.json"), "--slurm"}, bad...)
		if _, err := runApp(t, args...); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}

func TestReportCommand(t *testing.T) {
	dir, _ := writeRunDir(t)
	out, err := runApp(t, "report", dir, "--no-timeline", "--json")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var printed map[string]string
	if err := json.Unmarshal([]byte(out), &printed); err != nil {
		t.Fatalf("report --json printed %q: %v", out, err)
	}
	if _, err := os.Stat(printed["html"]); err != nil {
		t.Error(err)
	}
	if _, err := runApp(t, "report", dir, "--no-timeline"); err == nil {
		t.Error("second report without --force: no error")
	}
}

// ecotune compare on the embedded NASA-iPSC trace lists every policy; the
// always-on row uses 52.93 MWh.
func TestCompareCommandNASA(t *testing.T) {
	out, err := runApp(t, "compare", "--json")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var cmp struct {
		AlwaysOnKWh float64 `json:"always_on_kwh"`
		Rows        []struct {
			Label     string  `json:"label"`
			Policy    string  `json:"policy"`
			EnergyKWh float64 `json:"energy_kwh"`
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(out), &cmp); err != nil {
		t.Fatal(err)
	}
	specs := policy.All()
	if len(cmp.Rows) != len(specs) {
		t.Fatalf("%d rows, want %d", len(cmp.Rows), len(specs))
	}
	for i, s := range specs {
		if cmp.Rows[i].Policy != s.Name {
			t.Errorf("row %d: %s, want %s", i, cmp.Rows[i].Policy, s.Name)
		}
		if s.Name == "always-on" && math.Round(cmp.Rows[i].EnergyKWh/10)/100 != 52.93 {
			t.Errorf("always-on: %.2f kWh, want 52.93 MWh", cmp.Rows[i].EnergyKWh)
		}
	}
	md, err := runApp(t, "compare", "--policies", "always-on")
	if err != nil || !strings.Contains(md, "| always-on | 0 | 52933.41 |") {
		t.Errorf("markdown (%v):\n%s", err, md)
	}
}

// An infeasible preset pick, on the train or the test split, is refused
// without --force; with it the rule set is written and records the
// verdicts; a feasible pick records them unforced.
func TestExportInfeasiblePick(t *testing.T) {
	dir, _ := writeRunDir(t)
	no, yes, bound := false, true, 0.05
	m, _, err := tuner.LoadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	m.Presets = append(m.Presets,
		tuner.PresetChoice{Name: "tight", Bound: 0.01, Resolved: 0.01, Feasible: false, Row: 1},
		tuner.PresetChoice{Name: "holds", Bound: 0.1, Resolved: 0.1, Feasible: true, Row: 0, FeasibleTest: &no, ResolvedTest: &bound},
		tuner.PresetChoice{Name: "good", Bound: 0.1, Resolved: 0.1, Feasible: true, Row: 0, FeasibleTest: &yes, ResolvedTest: &bound})
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, tuner.RunJSON), b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		pick, split string
		train       bool
		test        *bool
	}{{"tight", "train split", false, nil}, {"holds", "test split", true, &no}} {
		rules := filepath.Join(t.TempDir(), "rules.json")
		out, err := runApp(t, "export", dir, "--pick", tc.pick, "-o", rules)
		if err == nil || !strings.Contains(err.Error(), "infeasible") || !strings.Contains(err.Error(), tc.split) || !strings.Contains(err.Error(), "--force") {
			t.Fatalf("export --pick %s: %v (%s); want a refusal naming the %s and --force", tc.pick, err, out, tc.split)
		}
		if _, err := os.Stat(rules); !os.IsNotExist(err) {
			t.Fatalf("export --pick %s wrote %s although refused", tc.pick, rules)
		}
		if out, err := runApp(t, "export", dir, "--pick", tc.pick, "-o", rules, "--force"); err != nil {
			t.Fatalf("export --pick %s --force: %v\n%s", tc.pick, err, out)
		}
		rs, err := policy.LoadRuleSet(rules)
		if err != nil {
			t.Fatal(err)
		}
		f := rs.Provenance.Feasibility
		if f == nil || !f.Forced || f.Train != tc.train || (f.Test == nil) != (tc.test == nil) || (f.Test != nil && *f.Test != *tc.test) {
			t.Errorf("pick %s: feasibility %+v, want forced, train %v, test %v", tc.pick, f, tc.train, tc.test)
		}
	}
	rules := filepath.Join(t.TempDir(), "rules.json")
	if out, err := runApp(t, "export", dir, "--pick", "good", "-o", rules); err != nil {
		t.Fatalf("export --pick good: %v\n%s", err, out)
	}
	rs, err := policy.LoadRuleSet(rules)
	if err != nil {
		t.Fatal(err)
	}
	if f := rs.Provenance.Feasibility; f == nil || f.Forced || !f.Train || f.Test == nil || !*f.Test || f.BoundTest == nil || *f.BoundTest != bound {
		t.Errorf("feasible pick: feasibility %+v", f)
	}
}
