package tuner_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
	"github.com/ecotune/ecotune/tuner"
	"github.com/ecotune/ecotune/tuner/pick"
	"github.com/ecotune/ecotune/tuner/summary"
)

// TestTunePoliciesContract tunes two policies on a small budget and checks
// summary.json's contract: the keys scripts use, hypervolumes in [0, 1],
// every preset's pick with scores under simulate --json's keys and its
// feasibility on both splits, the references on both splits, and each
// policy's run directory an ordinary run.
func TestTunePoliciesContract(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cmp")
	o, tg := smallTune(t, dir)
	o.Settings.Generations = 2
	policies := []string{"hgfs", "idle-timeout"}
	s, err := tuner.TunePolicies(context.Background(), o, tg, policies)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"qos0", "qos0.1", "qos0.5", "rel10", "knee"}; !slices.Equal(s.Presets, want) {
		t.Errorf("presets %v, want %v", s.Presets, want)
	}
	if len(s.Policies) != 2 || s.Interrupted {
		t.Fatalf("%d policies summarised (interrupted %v), want 2", len(s.Policies), s.Interrupted)
	}
	b, err := os.ReadFile(filepath.Join(dir, summary.SummaryJSON))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	scoreKeys := []string{"qos_p90", "off_node_seconds", "reconfigurations", "energy_kwh", "mean_wait_s", "max_wait_s"}
	checkScores := func(where string, v any) {
		m, ok := v.(map[string]any)
		if !ok {
			t.Errorf("%s: scores %v are not an object", where, v)
			return
		}
		for _, k := range scoreKeys {
			if _, ok := m[k].(float64); !ok {
				t.Errorf("%s: no score %s", where, k)
			}
		}
	}
	pols, _ := doc["policies"].([]any)
	if len(pols) != len(policies) {
		t.Fatalf("policies: %v", doc["policies"])
	}
	for i, pv := range pols {
		p, _ := pv.(map[string]any)
		if p["policy"] != policies[i] {
			t.Errorf("policy %d is %v, want %s", i, p["policy"], policies[i])
		}
		hv, _ := p["hypervolume"].(map[string]any)
		for _, split := range []string{"train", "test"} {
			v, ok := hv[split].(float64)
			if !ok || v < 0 || v > 1 {
				t.Errorf("%s: %s hypervolume %v, want a number in [0, 1]", policies[i], split, hv[split])
			}
		}
		picks, _ := p["picks"].(map[string]any)
		for _, preset := range []string{"qos0", "qos0.1", "qos0.5", "rel10", "knee"} {
			pk, ok := picks[preset].(map[string]any)
			if !ok {
				t.Errorf("%s: no pick %s", policies[i], preset)
				continue
			}
			checkScores(policies[i]+" "+preset+" train", pk["train"])
			checkScores(policies[i]+" "+preset+" test", pk["test"])
			for _, k := range []string{"feasible_train", "feasible_test"} {
				if _, ok := pk[k].(bool); !ok {
					t.Errorf("%s %s: %s is %v, want a boolean", policies[i], preset, k, pk[k])
				}
			}
			h, _ := pk["hindsight"].(map[string]any)
			checkScores(policies[i]+" "+preset+" hindsight", h["test"])
			if _, ok := h["feasible_test"].(bool); !ok {
				t.Errorf("%s %s: hindsight %v has no feasible_test", policies[i], preset, pk["hindsight"])
			}
		}
		checkHindsight(t, s.Policies[i])
		if _, _, err := tuner.LoadRun(filepath.Join(dir, policies[i])); err != nil {
			t.Errorf("%s's run directory: %v", policies[i], err)
		}
	}
	if p0, _ := pols[0].(map[string]any); p0["schedule_rule"] != "drain searched" {
		t.Errorf("hgfs schedule_rule %v, want \"drain searched\"", p0["schedule_rule"])
	}
	refs, _ := doc["references"].(map[string]any)
	for _, name := range []string{"always-on", "oracle"} {
		r, ok := refs[name].(map[string]any)
		if !ok {
			t.Errorf("no reference %s", name)
			continue
		}
		checkScores(name+" train", r["train"])
		checkScores(name+" test", r["test"])
	}
	// The references are compared with every policy already.
	if _, err := tuner.TunePolicies(context.Background(), o, tg, []string{"oracle"}); err == nil {
		t.Error("tuning the oracle accepted")
	}
}

// TestNoScheduleRule fixes hgfs's drain off: no solution of the front
// drains, and run.json says so.
func TestNoScheduleRule(t *testing.T) {
	o, tg := smallTune(t, filepath.Join(t.TempDir(), "run"))
	o.Settings.Generations = 2
	o.NoScheduleRule = true
	out, err := tuner.Tune(context.Background(), o, tg)
	if err != nil {
		t.Fatal(err)
	}
	spec, _ := policy.Lookup("hgfs")
	for i, s := range out.Front.Solutions {
		if spec.ScheduleRule.On(spec, s.Config) {
			t.Errorf("solution %d drains: drain_lead %g", i, s.Config.Params["drain_lead"])
		}
	}
	if out.Meta.ScheduleRule != "drain off" {
		t.Errorf("run.json schedule_rule %q, want \"drain off\"", out.Meta.ScheduleRule)
	}
}

// TestTunePoliciesResume resumes a finished comparison: with the same
// options it keeps the runs and writes the same summary; with another
// seed or scheduler it is refused, naming the field, where it used to
// keep the old runs under a summary claiming the new options; with other
// pick checks each run's rel10 pick is chosen again under them; with a
// larger budget the searches continue to a fresh run's fronts; and a
// finished run whose checkpoint is gone is kept only for the same seed.
func TestTunePoliciesResume(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cmp")
	o, tg := smallTune(t, dir)
	o.Settings.Generations = 2
	policies := []string{"idle-timeout", "escs"}
	if _, err := tuner.TunePolicies(context.Background(), o, tg, policies); err != nil {
		t.Fatal(err)
	}
	summary := filepath.Join(dir, summary.SummaryJSON)
	first, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	rg := tg
	rg.Resume = true
	if _, err := tuner.TunePolicies(context.Background(), o, rg, policies); err != nil {
		t.Fatal(err)
	}
	if again, err := os.ReadFile(summary); err != nil || string(again) != string(first) {
		t.Errorf("resuming a finished comparison changed summary.json (err %v)", err)
	}
	// Runs written before the hindsight members were recorded: a resume
	// finds them from the fronts, to the same summary.
	for _, p := range policies {
		stripHindsight(t, filepath.Join(dir, p, tuner.RunJSON))
	}
	if _, err := tuner.TunePolicies(context.Background(), o, rg, policies); err != nil {
		t.Fatal(err)
	}
	if again, err := os.ReadFile(summary); err != nil || string(again) != string(first) {
		t.Errorf("resuming runs without hindsight members changed summary.json (err %v)", err)
	}

	other := o
	other.Settings.Seed++
	if _, err := tuner.TunePolicies(context.Background(), other, rg, policies); err == nil || !strings.Contains(err.Error(), "seed") {
		t.Errorf("resume with another seed: error %v, want a refusal naming the seed", err)
	}

	// A field the run.json does not name, only the checkpoint.
	fcfs := o
	fcfs.Sim.Scheduler = sim.FCFS
	if _, err := tuner.TunePolicies(context.Background(), fcfs, rg, policies); err == nil || !strings.Contains(err.Error(), "scheduler") {
		t.Errorf("resume with another scheduler: error %v, want a refusal naming the scheduler", err)
	}

	repick := o
	repick.PickLoads = []float64{0.8}
	repick.PickAggregate = pick.PickWindowMean
	if _, err := tuner.TunePolicies(context.Background(), repick, rg, policies); err != nil {
		t.Fatal(err)
	}
	for _, p := range policies {
		meta, _, err := tuner.LoadRun(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		for _, ch := range meta.Presets {
			if ch.Name == "rel10" && !slices.Equal(ch.Loads, []float64{0.8}) {
				t.Errorf("%s: rel10 checked on loads %v after a resume with --pick-loads 0.8", p, ch.Loads)
			}
			if ch.Name == "rel10" && ch.Windows > 0 && ch.WindowAggregate != pick.PickWindowMean {
				t.Errorf("%s: rel10's windows aggregated by %q after a resume with the mean", p, ch.WindowAggregate)
			}
		}
	}

	// A larger budget continues the searches, to the runs a fresh
	// comparison with that budget makes.
	longer := repick // the pick checks the runs have now: only the budget differs
	longer.Settings.Generations = 3
	if _, err := tuner.TunePolicies(context.Background(), longer, rg, policies); err != nil {
		t.Fatal(err)
	}
	fresh := filepath.Join(t.TempDir(), "fresh")
	_, ft := smallTune(t, fresh)
	if _, err := tuner.TunePolicies(context.Background(), longer, ft, policies); err != nil {
		t.Fatal(err)
	}
	for _, p := range policies {
		sameFiles(t, filepath.Join(dir, p), filepath.Join(fresh, p), tuner.FrontCSV)
	}

	// Without a checkpoint a finished run is kept, for the same seed only.
	for _, p := range policies {
		if err := os.Remove(filepath.Join(dir, p, tuner.CheckpointJSON)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := tuner.TunePolicies(context.Background(), other, rg, policies); err == nil || !strings.Contains(err.Error(), "seed") {
		t.Errorf("resume without checkpoints with another seed: error %v, want a refusal naming the seed", err)
	}
	if _, err := tuner.TunePolicies(context.Background(), repick, rg, policies); err != nil {
		t.Errorf("resume without checkpoints, same seed: %v", err)
	}
}

// checkHindsight checks each pick against its hindsight member, the
// preset's choice on the test split: no pick is better on test than it.
// A pick that meets its bound on test has a hindsight member that does
// too, with at least its off-seconds (most off-seconds first: qos0.1,
// qos0.5, rel10); qos0's hindsight has at most the pick's test qos_p90.
func checkHindsight(t *testing.T, p summary.PolicySummary) {
	t.Helper()
	for name, pk := range p.Picks {
		h := pk.Hindsight
		if h == nil || pk.Test == nil || pk.FeasibleTest == nil {
			t.Errorf("%s %s: no hindsight member (%v) or test scores", p.Policy, name, h)
			continue
		}
		switch name {
		case "qos0":
			if h.Test.QoSP90 > pk.Test.QoSP90 {
				t.Errorf("%s qos0: hindsight test qos_p90 %g above the pick's %g", p.Policy, h.Test.QoSP90, pk.Test.QoSP90)
			}
		case "qos0.1", "qos0.5", "rel10":
			if *pk.FeasibleTest && (!h.FeasibleTest || h.Test.OffNodeSeconds < pk.Test.OffNodeSeconds) {
				t.Errorf("%s %s: pick holds on test with %d off-seconds, hindsight (feasible %v) has %d",
					p.Policy, name, pk.Test.OffNodeSeconds, h.FeasibleTest, h.Test.OffNodeSeconds)
			}
		}
	}
}

// stripHindsight deletes the hindsight members from a run.json, as a run
// written before they were recorded has it.
func stripHindsight(t *testing.T, file string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	presets, _ := doc["presets"].([]any)
	stripped := 0
	for _, pv := range presets {
		p, _ := pv.(map[string]any)
		if _, ok := p["hindsight_row"]; ok {
			stripped++
		}
		delete(p, "hindsight_row")
		delete(p, "hindsight_feasible")
	}
	if stripped == 0 {
		t.Fatalf("%s records no hindsight member", file)
	}
	if b, err = json.Marshal(doc); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
