package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLimitsRefusedAtOnce reproduces the resource defects of issue 22: each
// input used to exhaust memory, overflow or run for days; each is now
// refused within a second with an error naming the file, line and field or
// the flag. --lenient skips the job beyond the limits and simulates the
// rest.
func TestLimitsRefusedAtOnce(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	const job1 = "1 0 0 100 1 -1 -1 1 100 -1 1 1 1 -1 1 -1 -1 -1\n"
	maxProcs := write("maxprocs.swf", "; MaxProcs: 1000000000000\n"+job1)
	run1e18 := write("run1e18.swf", "; MaxNodes: 4\n"+job1+"2 10 0 1000000000000000000 1 -1 -1 1 -1 -1 1 1 1 -1 1 -1 -1 -1\n")
	runMax := write("runmax.swf", "; MaxNodes: 4\n"+job1+"2 10 0 9223372036854775807 1 -1 -1 1 -1 -1 1 1 1 -1 1 -1 -1 -1\n")
	submit1e15 := write("submit.swf", "; MaxNodes: 4\n"+job1+"2 1000000000000000 0 100 1 -1 -1 1 -1 -1 1 1 1 -1 1 -1 -1 -1\n")
	nan := write("nan.swf", "; MaxNodes: 4\n"+strings.Replace(job1, " 100 1 -1", " NaN 1 -1", 1))
	cluster := write("big.yaml", "groups:\n  - {name: n, count: 1000000000, slots: 1, model: escs}\n")
	small := write("small.swf", "; MaxNodes: 4\n"+job1)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"simulate", "-t", maxProcs, "-p", "always-on"}, "maxprocs.swf:1: field MaxProcs"},
		{[]string{"tune", "-t", maxProcs, "-o", filepath.Join(dir, "r1")}, "maxprocs.swf:1: field MaxProcs"},
		{[]string{"simulate", "-t", small, "-p", "always-on", "--nodes", "100000000"}, "--nodes 100000000: more than the limit"},
		{[]string{"simulate", "-t", small, "-p", "always-on", "--nodes", "4", "--slots-per-node", "1000000000000"}, "--slots-per-node 1000000000000: more than the limit"},
		{[]string{"compare", "-t", small, "--nodes", "100000000"}, "--nodes 100000000: more than the limit"},
		{[]string{"simulate", "-t", small, "-p", "always-on", "--cluster", cluster}, "big.yaml: groups[0].count: 1000000000 nodes is more than the limit"},
		{[]string{"tune", "-t", small, "--cluster", cluster, "-o", filepath.Join(dir, "r2")}, "groups[0].count: 1000000000 nodes"},
		{[]string{"tune", "--population", "100000000", "-o", filepath.Join(dir, "r3")}, "population 100000000: more than the limit"},
		{[]string{"tune", "--islands", "100000", "-o", filepath.Join(dir, "r4")}, "islands 100000: more than the limit"},
		{[]string{"simulate", "-t", run1e18, "-p", "always-on"}, "run1e18.swf:3: field run_time"},
		{[]string{"simulate", "-t", runMax, "-p", "always-on"}, "runmax.swf:3: field run_time"},
		{[]string{"simulate", "-t", submit1e15, "-p", "always-on"}, "submit.swf:3: field submit_time"},
		{[]string{"inspect", nan}, "nan.swf:2: field run_time"},
		{[]string{"import", run1e18, "-o", filepath.Join(dir, "x.parquet")}, "run1e18.swf:3: field run_time"},
	} {
		start := time.Now()
		out, err := runApp(t, c.args...)
		took := time.Since(start)
		if err == nil || !strings.Contains(err.Error(), c.want) || took > time.Second {
			t.Errorf("ecotune %s: %v (output %q) after %v; want an error containing %q within a second", strings.Join(c.args, " "), err, out, took, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.parquet")); !os.IsNotExist(err) {
		t.Errorf("refused import left its output: %v", err)
	}
	// --lenient: the job beyond the limits is skipped and counted, the
	// other simulated.
	for _, path := range []string{run1e18, runMax, submit1e15} {
		start := time.Now()
		out, err := runApp(t, "simulate", "-t", path, "--lenient", "-p", "always-on", "--json")
		if err != nil || !strings.Contains(out, `"jobs":1`) || time.Since(start) > time.Second {
			t.Errorf("simulate --lenient %s: %v, %s", path, err, out)
		}
		out, err = runApp(t, "inspect", path, "--lenient")
		if err != nil || !strings.Contains(out, "unreadable_") {
			t.Errorf("inspect --lenient %s: %v, %s: want the skip counted", path, err, out)
		}
	}
}
