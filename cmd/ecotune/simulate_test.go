package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/internal/testtrace"
	"github.com/ecotune/ecotune/sim"
)

// testTrace returns the path of ../shared/traces/name; a missing file
// fails the test under CI=true and skips it otherwise (testtrace).
func testTrace(t *testing.T, name string) string {
	t.Helper()
	return testtrace.Trace(t, name)
}

// The simulate tests replay the embedded default trace (NASA-iPSC): no
// --trace flag.
func TestSimulateJSON(t *testing.T) {
	out, err := runApp(t, "simulate", "--policy", "always-on", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	decodeOne(t, out, &m)
	for _, k := range []string{"jobs", "makespan_s", "qos_p90", "off_node_seconds", "reconfigurations", "energy_kwh",
		"mean_wait_s", "max_wait_s", "boots", "shutdowns", "sim_seconds", "policy", "trace", "scheduler", "nodes", "slots"} {
		if _, ok := m[k]; !ok {
			t.Errorf("no key %q", k)
		}
	}
	// ESCS Table 1: 52.93 MWh.
	if e := m["energy_kwh"].(float64); e < 52880 || e > 52990 {
		t.Errorf("energy_kwh %v", e)
	}
}

func TestSimulateErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--policy", "idle-timeout", "--set", "bogus=1"}, "valid: idle_timeout"},
		{[]string{"--policy", "nope"}, "unknown policy"},
		{[]string{"--scheduler", "lottery"}, "unknown scheduler"},
		{[]string{"--nodes", "64"}, "needs 128 slots, cluster has 64"},
		{[]string{"--model", "nope"}, "unknown model"},
	} {
		_, err := runApp(t, append([]string{"simulate"}, tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want %q", tc.args, err, tc.want)
		}
	}
}

func TestSimulateTimeline(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"tl.csv", "tl.parquet"} {
		path := filepath.Join(dir, name)
		args := []string{"simulate", "--policy", "idle-timeout", "--nodes", "128", "--timeline", path, "--json"}
		if _, err := runApp(t, args...); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := runApp(t, args...); !errors.Is(err, sim.ErrExists) {
			t.Errorf("%s rewritten without --force: %v", name, err)
		}
		if _, err := runApp(t, append(args, "--force")...); err != nil {
			t.Errorf("--force: %v", err)
		}
	}
}
