package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/reports"
	"github.com/ecotune/ecotune/tuner"
)

// TestTuneJSON runs a tiny tune and checks that --json prints exactly one
// JSON object (run.json) and that the run directory is complete.
func TestTuneJSON(t *testing.T) {
	trace := testTrace(t, "NASA-iPSC-1993-3.1-cln.swf.gz")
	dir := filepath.Join(t.TempDir(), "run")
	args := []string{"tune", "--trace", trace, "--policy", "idle-timeout", "--population", "4", "--islands", "1",
		"--generations", "1", "--train", "0.9", "-o", dir, "--json"}
	out, err := runApp(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(strings.NewReader(out))
	var meta tuner.RunMeta
	if err := dec.Decode(&meta); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, out)
	}
	if dec.More() {
		t.Errorf("stdout holds more than one JSON object:\n%s", out)
	}
	if meta.Policy != "idle-timeout" || meta.Generations != 1 || meta.Evaluations == 0 {
		t.Errorf("run.json: policy %q, %d generations, %d evaluations", meta.Policy, meta.Generations, meta.Evaluations)
	}
	for _, f := range []string{tuner.FrontJSON, tuner.FrontCSV, tuner.FrontParquet, tuner.RunJSON, tuner.CheckpointJSON, tuner.CheckpointCache,
		filepath.Join("report", reports.ReportHTML)} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	if _, err := runApp(t, args...); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Errorf("second run into %s: error %v, want a refusal naming --force", dir, err)
	}
}

func TestTuneErrors(t *testing.T) {
	trace := testTrace(t, "NASA-iPSC-1993-3.1-cln.swf.gz")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--constraint", "qos_p90=0.1"}, "constraint"},
		{[]string{"--objectives", "watts"}, "watts"},
		{[]string{"--preset", "x"}, "preset"},
		{[]string{"--policy", "nope"}, "nope"},
	}
	for _, tc := range tests {
		args := append([]string{"tune", "--trace", trace, "-o", filepath.Join(t.TempDir(), "r"), "--json"}, tc.args...)
		if _, err := runApp(t, args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want one mentioning %q", tc.args, err, tc.want)
		}
	}
}
