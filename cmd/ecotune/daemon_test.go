package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/policy"
)

// Bad input stops `ecotune daemon` before it touches Slurm, with an
// error naming the file and the line or flag.
func TestDaemonCommandInputErrors(t *testing.T) {
	dir := t.TempDir()
	rules := filepath.Join(dir, "rules.json")
	rs := &policy.RuleSet{Version: policy.RuleSetVersion, Policy: policy.Config{Name: "idle-timeout", Params: map[string]float64{"idle_timeout": 600}},
		Cluster: []policy.Group{{Name: "node", Count: 4, Slots: 2, Model: testModel}}, Period: 60}
	if err := policy.WriteRuleSet(rules, rs, false); err != nil {
		t.Fatal(err)
	}
	badMap := filepath.Join(dir, "bad.map")
	if err := os.WriteFile(badMap, []byte("node node[01-04]\nnode node05\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--rules", filepath.Join(dir, "none.json")}, "none.json"},
		{[]string{"--rules", rules, "--nodes-map", badMap}, "bad.map: line 2: group \"node\" already mapped on line 1"},
		{[]string{"--rules", rules, "--exclude", "node[9-1]"}, "--exclude"},
		{[]string{"--rules", rules, "extra"}, "no arguments"},
	} {
		out, err := runApp(t, append([]string{"daemon"}, tt.args...)...)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: error %v, want one with %q (output %q)", tt.args, err, tt.want, out)
		}
	}
}
