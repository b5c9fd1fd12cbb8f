package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/reports"
	"github.com/ecotune/ecotune/tuner/summary"
)

// TestTuneWindowsJSON runs two tiny windows: --json prints exactly one
// JSON object, windows.json's content, and each window's run directory has
// its report.
func TestTuneWindowsJSON(t *testing.T) {
	trace := testTrace(t, "NASA-iPSC-1993-3.1-cln.swf.gz")
	dir := filepath.Join(t.TempDir(), "rolling")
	args := tinyTune(trace, dir, "--windows", "2", "--json")
	out, err := runApp(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	var s summary.WindowsSummary
	decodeOne(t, out, &s)
	file, err := os.ReadFile(filepath.Join(dir, summary.WindowsJSON))
	if err != nil {
		t.Fatal(err)
	}
	var want summary.WindowsSummary
	if err := json.Unmarshal(file, &want); err != nil {
		t.Fatal(err)
	}
	if got, _ := json.Marshal(s); string(got) != string(mustJSON(t, want)) {
		t.Errorf("--json printed\n%s\nwant windows.json\n%s", out, file)
	}
	// 18,239 jobs in 3 blocks: ⌊18239/3⌋ = 6079, ⌊2·18239/3⌋ = 12159.
	if s.Windows != 2 || len(s.PerWindow) != 2 || s.PerWindow[1].Test.FromJob != 12159 || s.PerWindow[1].Test.ToJob != 18239 {
		t.Fatalf("summary: %d windows, %+v", s.Windows, s.PerWindow)
	}
	for _, w := range s.PerWindow {
		if _, err := os.Stat(filepath.Join(dir, w.Dir, "report", reports.ReportHTML)); err != nil {
			t.Error(err)
		}
	}
	if _, err := runApp(t, args...); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Errorf("second run into %s: error %v, want a refusal naming --force", dir, err)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestTuneWindowsText prints the table: a header naming the presets, one
// line per window, the mean and sd lines, then the run directory.
func TestTuneWindowsText(t *testing.T) {
	trace := testTrace(t, "NASA-iPSC-1993-3.1-cln.swf.gz")
	dir := filepath.Join(t.TempDir(), "rolling")
	out, err := runApp(t, append([]string{"--quiet"}, tinyTune(trace, dir, "--windows", "2", "--no-report")...)...)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 7 || !strings.HasPrefix(lines[0], "k ") || !strings.Contains(lines[0], "knee") ||
		!strings.HasPrefix(lines[1], "1 ") || !strings.HasPrefix(lines[2], "2 ") || !strings.HasPrefix(lines[3], "mean ") ||
		!strings.HasPrefix(lines[4], "sd ") || lines[6] != dir {
		t.Errorf("output:\n%s\nwant header, windows 1 and 2, mean, sd, legend, run directory", out)
	}
}

func TestTuneWindowsErrors(t *testing.T) {
	trace := testTrace(t, "NASA-iPSC-1993-3.1-cln.swf.gz")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--windows", "1"}, "at least 2 windows"},
		{[]string{"--windows", "-3"}, "at least 2 windows"},
		{[]string{"--windows", "3", "--train", "0.7"}, "--train and --windows 3 exclude each other"},
	}
	for _, tc := range tests {
		dir := filepath.Join(t.TempDir(), "r")
		args := append([]string{"tune", "--trace", trace, "-o", dir, "--json"}, tc.args...)
		if _, err := runApp(t, args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want one containing %q", tc.args, err, tc.want)
		}
		if _, err := os.Stat(dir); err == nil {
			t.Errorf("%v: the rejected run created %s", tc.args, dir)
		}
	}
}
