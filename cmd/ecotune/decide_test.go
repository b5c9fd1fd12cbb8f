package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/fuzzy"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
)

// runApp runs the ecotune command line with args and returns its stdout.
func runApp(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	app := newApp()
	app.Writer = &out
	app.ErrWriter = &out
	err := app.Run(append([]string{"ecotune"}, args...))
	return out.String(), err
}

var testModel = policy.NodeModel{OffW: 2, IdleW: 150, BusySlotW: 80, BootS: 555, BootWh: 13.71, ShutdownS: 480, ShutdownWh: 10.79}

// recordedViews is a hand-recorded sequence of cluster states on four
// 2-slot nodes: a job arrives, nodes boot, the job runs, ends, nodes idle.
func recordedViews() []*policy.View {
	groups := []policy.Group{{Name: "node", Count: 4, Slots: 2, GFLOPS: 50, Model: testModel}}
	type n struct {
		st    policy.NodeState
		since int64
		busy  int
	}
	mk := func(now int64, nodes []n, queue []policy.QueuedJob, recent []policy.Arrival) *policy.View {
		v := &policy.View{Now: now, Start: 0, Period: 60, Groups: groups, Queue: queue, Recent: recent}
		for i, x := range nodes {
			nv := policy.NodeView{ID: i, Name: "node00" + string(rune('1'+i)), State: x.st, Since: x.since,
				Slots: 2, BusySlots: x.busy, IdleSince: policy.NoTime, LastFailed: policy.NoTime}
			if x.st == policy.Idle {
				nv.IdleSince = x.since
			}
			v.Nodes = append(v.Nodes, nv)
		}
		v.HourlySlots[0] = 1.5
		v.Recount()
		return v
	}
	job := []policy.QueuedJob{{ID: 1, Slots: 4, Submit: 1000, ReqTime: 3600, Group: "physics"}}
	arr := []policy.Arrival{{Time: 1000, Slots: 4, ReqTime: 3600}}
	return []*policy.View{
		mk(960, []n{{policy.Idle, 0, 0}, {policy.Off, 0, 0}, {policy.Off, 0, 0}, {policy.Off, 0, 0}}, nil, nil),
		mk(1020, []n{{policy.Idle, 0, 0}, {policy.Off, 0, 0}, {policy.Off, 0, 0}, {policy.Off, 0, 0}}, job, arr),
		mk(1080, []n{{policy.Idle, 0, 0}, {policy.Booting, 1020, 0}, {policy.Off, 0, 0}, {policy.Off, 0, 0}}, job, arr),
		mk(1620, []n{{policy.Busy, 1575, 2}, {policy.Busy, 1575, 2}, {policy.Off, 0, 0}, {policy.Off, 0, 0}}, nil, arr),
		mk(5220, []n{{policy.Idle, 5175, 0}, {policy.Idle, 5175, 0}, {policy.Off, 0, 0}, {policy.Off, 0, 0}}, nil, arr),
		mk(7200, []n{{policy.Idle, 5175, 0}, {policy.Idle, 5175, 0}, {policy.Off, 0, 0}, {policy.Off, 0, 0}}, nil, arr),
	}
}

// What `ecotune decide --json` prints for a recorded sequence of states
// equals what the policy decides on the Views themselves.
func TestDecideMatchesPolicy(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"always-on", "always-off", "idle-timeout", "escs", "eecluster", "hgfs"} {
		s, err := policy.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		rs := &policy.RuleSet{Version: policy.RuleSetVersion, Policy: s.Defaults(), Period: 60,
			Cluster: recordedViews()[0].Groups}
		if name == "idle-timeout" {
			rs.Policy.Params["idle_timeout"] = 600
		}
		rules := filepath.Join(dir, name+".json")
		if err := policy.WriteRuleSet(rules, rs, false); err != nil {
			t.Fatal(err)
		}
		p, err := policy.New(rs.Policy)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range recordedViews() {
			state := filepath.Join(dir, "state.json")
			b, _ := json.Marshal(policy.StateOf(v))
			if err := os.WriteFile(state, b, 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := runApp(t, "decide", "--rules", rules, "--state", state, "--json")
			if err != nil {
				t.Fatalf("%s, view %d: %v", name, i, err)
			}
			var got policy.DecisionOut
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("%s, view %d: not one JSON object: %v\n%s", name, i, err, out)
			}
			var d policy.Decision
			d.Reset()
			p.Decide(v, &d)
			if want := d.Out(p, v); !reflect.DeepEqual(got, want) {
				t.Errorf("%s, view %d: decide printed %+v; Decide gives %+v", name, i, got, want)
			}
		}
	}
}

// The example rule set and state in testdata/decide give the decision in
// the golden file (a reference for daemon authors). Worked by hand:
// idle-timeout 600 s with one spare node; node002 idle 2000 s and node004
// 1000 s go off, node003 (idle 300 s) stays as the spare, and its timeout
// at now+300 is when to ask again.
func TestDecideGolden(t *testing.T) {
	dir := filepath.Join("testdata", "decide")
	for _, format := range []string{"text", "json"} {
		args := []string{"decide", "--rules", filepath.Join(dir, "rules.json"), "--state", filepath.Join(dir, "state.json")}
		if format == "json" {
			args = append(args, "--json")
		}
		out, err := runApp(t, args...)
		if err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join(dir, "decision."+format+".golden")
		if os.Getenv("ECOTUNE_UPDATE_GOLDEN") != "" {
			if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if out != string(want) {
			t.Errorf("%s output:\n%s\nwant:\n%s", format, out, want)
		}
	}
}

func TestDecideStdin(t *testing.T) {
	dir := filepath.Join("testdata", "decide")
	state, err := os.ReadFile(filepath.Join(dir, "state.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	app := newApp()
	app.Writer, app.Reader = &out, bytes.NewReader(state)
	if err := app.Run([]string{"ecotune", "decide", "--rules", filepath.Join(dir, "rules.json"), "--state", "-"}); err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(filepath.Join(dir, "decision.text.golden"))
	if out.String() != string(want) {
		t.Errorf("from standard input:\n%s\nwant:\n%s", out.String(), want)
	}
}

func TestDecideErrors(t *testing.T) {
	dir := filepath.Join("testdata", "decide")
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`{"now": 5, "nodes": [{"name": "x", "group": "gpu", "state": "idle", "since": 0}]}`), 0o644)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"decide", "--state", bad}, `--rules is required`},
		{[]string{"decide", "--rules", filepath.Join(dir, "rules.json"), "--state", bad}, `bad.json: nodes[0].group: "gpu" is not a group`},
		{[]string{"decide", "--rules", bad, "--state", bad}, `bad.json: json: unknown field "now"`},
	}
	for _, tt := range tests {
		if _, err := runApp(t, tt.args...); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: error %v; want %q", tt.args, err, tt.want)
		}
	}
}

// Issue 17: decide refuses an empty state and one whose node count is not
// the rule set's cluster's, exiting non-zero with the field's name.
func TestDecideRefusesIncompleteState(t *testing.T) {
	dir := t.TempDir()
	rules := filepath.Join("testdata", "decide", "rules.json") // 4 nodes of group "node"
	three := `{"now": 1700000000, "nodes": [
		{"name": "node001", "group": "node", "state": "idle", "since": 1699990000},
		{"name": "node002", "group": "node", "state": "idle", "since": 1699990000},
		{"name": "node003", "group": "node", "state": "drained", "since": 1699990000}]}`
	for _, tt := range []struct{ state, want string }{
		{`{}`, "now: missing"},
		{`{"now": 1700000000}`, "nodes: missing"},
		{three, "nodes: 3 nodes, but the rule set's cluster has 4 (4 node)"},
		{`{"now": 1700000000, "nodes": [], "extra": 1}`, `unknown field "extra"`},
	} {
		path := filepath.Join(dir, "state.json")
		if err := os.WriteFile(path, []byte(tt.state), 0o644); err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := runCLI("decide", "--rules", rules, "--state", path)
		if code == 0 || !strings.Contains(stderr, tt.want) || !strings.Contains(stderr, "state.json") {
			t.Errorf("%s: exit %d, stderr %q, want non-zero naming %q and the file", tt.state, code, stderr, tt.want)
		}
		if stdout != "" {
			t.Errorf("%s: printed %q", tt.state, stdout)
		}
	}
}

func TestPoliciesJSON(t *testing.T) {
	out, err := runApp(t, "policies", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Policies []policy.SpecOut `json:"policies"`
	}
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&got); err != nil || dec.More() {
		t.Fatalf("not exactly one JSON object: %v", err)
	}
	if len(got.Policies) != len(policy.All()) || got.Policies[0].Name != "always-on" {
		t.Errorf("listed %d policies; want %d", len(got.Policies), len(policy.All()))
	}
	text, err := runApp(t, "policies")
	if err != nil || !strings.Contains(text, "idle_timeout  integer in [60, 86400] s, default 1800") {
		t.Errorf("text listing: %v\n%s", err, text)
	}
}

// simRecorder wraps the simulator's policy and records, every stride-th
// consultation, the state it saw and the decision it took.
type simRecorder struct {
	policy.Policy
	stride, n int
	states    [][]byte
	decisions []policy.DecisionOut
}

func (r *simRecorder) Decide(v *policy.View, d *policy.Decision) {
	r.Policy.Decide(v, d)
	if r.n++; r.n%r.stride == 0 && len(r.states) < 150 {
		b, err := json.Marshal(policy.StateOf(v))
		if err != nil {
			panic(err)
		}
		r.states = append(r.states, b)
		r.decisions = append(r.decisions, d.Out(r.Policy, v))
	}
}

// A rule set written, loaded and run through `ecotune decide` gives the
// decisions the simulator's policy took, over a sequence of Views recorded
// inside a simulation of NASA-iPSC (hgfs with a modified rule base, escs
// with a per-group threshold, idle-timeout).
func TestDecideMatchesSimulator(t *testing.T) {
	tr, err := datasets.Default() // NASA-iPSC
	if err != nil {
		t.Fatal(err)
	}
	tr.Jobs = tr.Jobs[:4000]
	cl, err := sim.ClusterFromTrace(tr.Meta)
	if err != nil {
		t.Fatal(err)
	}
	learned := policy.HGFSTemplate()
	learned.Rules[13].Then = fuzzy.NoRule
	learned.Rules[4].Then = 4
	learned.Inputs[2].Shifts = []float64{0, 0.3, -0.2}
	configs := []policy.Config{
		{Name: "hgfs", Params: map[string]float64{"min_idle": 300}, Fuzzy: learned},
		{Name: "escs", Params: map[string]float64{"wait_on@7": 120}},
		{Name: "idle-timeout", Params: map[string]float64{"idle_timeout": 900, "spare": 2}},
	}
	dir := t.TempDir()
	for _, cfg := range configs {
		t.Run(cfg.Name, func(t *testing.T) {
			groups := []policy.Group{}
			for _, g := range cl.Groups {
				groups = append(groups, policy.Group{Name: g.Name, Count: g.Count, Slots: g.Slots, GFLOPS: g.GFLOPS, Model: g.Model})
			}
			rs := &policy.RuleSet{Version: policy.RuleSetVersion, Policy: cfg, Cluster: groups, Period: sim.DefaultPeriod}
			rules := filepath.Join(dir, cfg.Name+".json")
			if err := policy.WriteRuleSet(rules, rs, false); err != nil {
				t.Fatal(err)
			}
			p, err := policy.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			rec := &simRecorder{Policy: p, stride: 37}
			if _, err := sim.Run(tr, cl, rec, sim.Options{}); err != nil {
				t.Fatal(err)
			}
			if len(rec.states) < 100 {
				t.Fatalf("recorded %d views", len(rec.states))
			}
			changes := 0
			for i, st := range rec.states {
				state := filepath.Join(dir, "state.json")
				if err := os.WriteFile(state, st, 0o644); err != nil {
					t.Fatal(err)
				}
				out, err := runApp(t, "decide", "--rules", rules, "--state", state, "--json")
				if err != nil {
					t.Fatal(err)
				}
				var got policy.DecisionOut
				if err := json.Unmarshal([]byte(out), &got); err != nil {
					t.Fatal(err)
				}
				want := rec.decisions[i]
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("view %d: decide printed %+v; the simulator's policy decided %+v", i, got, want)
				}
				if len(want.PowerOn)+len(want.PowerOff) > 0 {
					changes++
				}
			}
			if changes == 0 || changes == len(rec.states) {
				t.Errorf("%d of %d recorded decisions change something: a poor sample", changes, len(rec.states))
			}
		})
	}
}
