package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
)

// writeRules writes a rule set of idle-timeout for the embedded trace's
// cluster, with scheduler and period given.
func writeRules(t *testing.T, scheduler string, period int64) string {
	t.Helper()
	tr, err := datasets.Default()
	if err != nil {
		t.Fatal(err)
	}
	cl, err := sim.ClusterFromTrace(tr.Meta)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := policy.Lookup("idle-timeout")
	if err != nil {
		t.Fatal(err)
	}
	rs := &policy.RuleSet{Version: policy.RuleSetVersion, Period: period,
		Policy:     spec.Fill(policy.Config{Name: "idle-timeout", Params: map[string]float64{"idle_timeout": 900}}),
		Provenance: &policy.Provenance{Trace: "nasa", Scheduler: scheduler}}
	for _, g := range cl.Groups {
		rs.Cluster = append(rs.Cluster, policy.Group{Name: g.Name, Count: g.Count, Slots: g.Slots, GFLOPS: g.GFLOPS, Model: g.Model})
	}
	path := filepath.Join(t.TempDir(), "rules.json")
	if err := policy.WriteRuleSet(path, rs, false); err != nil {
		t.Fatal(err)
	}
	return path
}

// simulate --rules replays exactly what --policy with the same parameters,
// scheduler and period replays; a cluster of another shape is refused.
func TestSimulateRules(t *testing.T) {
	rules := writeRules(t, sim.EASY, 120)
	out, err := runApp(t, "simulate", "--rules", rules, "--json")
	if err != nil {
		t.Fatalf("simulate --rules: %v\n%s", err, out)
	}
	var got, want map[string]any
	decodeOne(t, out, &got)
	out, err = runApp(t, "simulate", "--policy", "idle-timeout", "--set", "idle_timeout=900", "--scheduler", "easy", "--period", "120", "--json")
	if err != nil {
		t.Fatal(err)
	}
	decodeOne(t, out, &want)
	if got["rules"] != rules || got["scheduler"] != "easy" || got["period_s"] != float64(120) {
		t.Errorf("rules %v, scheduler %v, period %v; want %s, easy, 120", got["rules"], got["scheduler"], got["period_s"], rules)
	}
	for _, k := range []string{"qos_p90", "off_node_seconds", "reconfigurations", "energy_kwh", "mean_wait_s", "max_wait_s"} {
		if got[k] != want[k] {
			t.Errorf("%s: --rules %v, --policy %v", k, got[k], want[k])
		}
	}
	// Flags given win over the rule set's.
	out, err = runApp(t, "simulate", "--rules", rules, "--scheduler", "fcfs", "--period", "60", "--json")
	if err != nil {
		t.Fatal(err)
	}
	decodeOne(t, out, &got)
	if got["scheduler"] != "fcfs" || got["period_s"] != float64(60) {
		t.Errorf("with flags: scheduler %v period %v, want fcfs 60", got["scheduler"], got["period_s"])
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--nodes", "64"}, "tuned for a cluster of 128 × 1 slots nodes, the trace's cluster is 64 × 1 slots"},
		{[]string{"--nodes", "128", "--slots-per-node", "2"}, "128 × 2 slots"},
		{[]string{"--policy", "hgfs"}, "leave out --policy and --set"},
		{[]string{"--set", "idle_timeout=60"}, "leave out --policy and --set"},
	} {
		out, err := runApp(t, append([]string{"simulate", "--rules", rules}, tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("simulate --rules %v: %v (%s); want an error containing %q", tc.args, err, out, tc.want)
		}
	}
}
