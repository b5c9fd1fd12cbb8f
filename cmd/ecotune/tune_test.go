package main

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/reports"
	"github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/tuner"
	"github.com/ecotune/ecotune/tuner/search"
	"github.com/ecotune/ecotune/tuner/summary"
)

// tinyTune is the command line of a tune of idle-timeout on trace that
// takes a second: one island of 4, one generation, into dir; extra
// follows.
func tinyTune(trace, dir string, extra ...string) []string {
	return append([]string{"tune", "--trace", trace, "--policy", "idle-timeout", "--population", "4", "--islands", "1",
		"--generations", "1", "-o", dir}, extra...)
}

// TestTuneJSON runs a tiny tune and checks that --json prints exactly one
// JSON object (run.json) and that the run directory is complete.
func TestTuneJSON(t *testing.T) {
	trace := testTrace(t, "NASA-iPSC-1993-3.1-cln.swf.gz")
	dir := filepath.Join(t.TempDir(), "run")
	args := tinyTune(trace, dir, "--train", "0.9", "--json")
	out, err := runApp(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	var meta tuner.RunMeta
	decodeOne(t, out, &meta)
	if meta.Policy != "idle-timeout" || meta.Generations != 1 || meta.Evaluations == 0 {
		t.Errorf("run.json: policy %q, %d generations, %d evaluations", meta.Policy, meta.Generations, meta.Evaluations)
	}
	for _, f := range []string{tuner.FrontJSON, tuner.FrontCSV, tuner.FrontParquet, tuner.RunJSON, tuner.CheckpointJSON, search.CheckpointCache,
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

// TestTuneReportOwnTrace tunes on a site's own log (not the embedded
// trace's name) from another directory, so the report must find the file
// through run.json's trace_file; after the file changes, `report` refuses
// to describe the run with it.
func TestTuneReportOwnTrace(t *testing.T) {
	src, err := filepath.Abs(testTrace(t, "NASA-iPSC-1993-3.1-cln.swf.gz"))
	if err != nil {
		t.Fatal(err)
	}
	site := filepath.Join(t.TempDir(), "site.swf")
	writeHead(t, src, site, 2500)
	t.Chdir(t.TempDir())
	dir := filepath.Join(t.TempDir(), "run")
	if _, err := runApp(t, tinyTune(site, dir)...); err != nil {
		t.Fatal(err)
	}
	meta, _, err := tuner.LoadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	if meta.Trace != "site" || meta.TraceFile != site {
		t.Errorf("run.json: trace %q, trace_file %q; want \"site\" and %q", meta.Trace, meta.TraceFile, site)
	}
	if _, err := os.Stat(filepath.Join(dir, "report", reports.ReportHTML)); err != nil {
		t.Fatal(err)
	}
	writeHead(t, src, site, 2400)
	if _, err := runApp(t, "report", dir); err == nil || !strings.Contains(err.Error(), "has changed since the run") {
		t.Errorf("report after the trace changed: %v, want a refusal", err)
	}
}

// decodeOne decodes out, a command's stdout, into v and fails the test
// unless it holds exactly one JSON value.
func decodeOne(t *testing.T, out string, v any) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(v); err != nil {
		t.Fatalf("stdout is not one JSON object: %v\n%s", err, out)
	}
	if dec.More() {
		t.Fatalf("stdout holds more than one JSON object:\n%s", out)
	}
}

// writeHead writes the header and first n jobs of the gzipped SWF log src
// to dst.
func writeHead(t *testing.T, src, dst string, n int) {
	t.Helper()
	f, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	sc := bufio.NewScanner(zr)
	for sc.Scan() && n > 0 {
		line := sc.Text()
		if !strings.HasPrefix(line, ";") {
			n--
		}
		b.WriteString(line + "\n")
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// tune --policies writes summary.json (its contract is tuner's test),
// policies.md with every preset and both references, and refuses
// --policy beside it.
func TestTunePoliciesCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cmp")
	out, err := runApp(t, "--quiet", "tune", "--policies", "hgfs,idle-timeout", "--generations", "1", "--population", "8", "--islands", "1", "--no-report", "-o", dir, "--json")
	if err != nil {
		t.Fatalf("tune --policies: %v\n%s", err, out)
	}
	var s summary.PoliciesSummary
	decodeOne(t, out, &s)
	if len(s.Policies) != 2 || s.Policies[1].Policy != "idle-timeout" {
		t.Fatalf("summary policies %+v", s.Policies)
	}
	if _, err := os.Stat(filepath.Join(dir, "summary.json")); err != nil {
		t.Fatal(err)
	}
	md := reports.PoliciesText(&s)
	for _, want := range []string{"| hgfs | test |", "| idle-timeout | train |", "## Preset rel10", "| oracle | test |", "max wait (s)", "drain searched",
		"| hgfs | test, hindsight |", "| idle-timeout | test, hindsight |"} {
		if !strings.Contains(md, want) {
			t.Errorf("policies.md lacks %q", want)
		}
	}
	if out, err := runApp(t, "tune", "--policies", "hgfs", "--policy", "escs", "-o", filepath.Join(t.TempDir(), "x")); err == nil || !strings.Contains(err.Error(), "leave out --policy") {
		t.Errorf("--policies with --policy: %v\n%s", err, out)
	}
}

// tune --policies --seeds writes seeds.json and seeds.md over a comparison
// per seed (seed-S/summary.json, seed-S/policies.md), and refuses --seeds
// without --policies, beside --seed, and a seed that is not a number.
func TestTuneSeedsCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cmp")
	out, err := runApp(t, "--quiet", "tune", "--policies", "idle-timeout,escs", "--seeds", "1, 2", "--generations", "1", "--population", "8", "--islands", "1", "-o", dir)
	if err != nil {
		t.Fatalf("tune --seeds: %v\n%s", err, out)
	}
	if want := filepath.Join(dir, summary.SeedsJSON) + "\n" + filepath.Join(dir, reports.SeedsMarkdown) + "\n"; out != want {
		t.Errorf("printed %q, want %q", out, want)
	}
	for _, name := range []string{"seed-1/summary.json", "seed-2/summary.json", "seed-1/policies.md", "seed-2/escs/report/report.html"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
	}
	var s summary.SeedsSummary
	if err := run.ReadJSON(filepath.Join(dir, summary.SeedsJSON), &s); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Seeds, []int64{1, 2}) || len(s.Policies) != 2 {
		t.Errorf("seeds.json: seeds %v, %d policies", s.Seeds, len(s.Policies))
	}
	md, err := os.ReadFile(filepath.Join(dir, reports.SeedsMarkdown))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "seeds 1, 2") || !strings.Contains(string(md), "## Preset rel10") {
		t.Errorf("seeds.md:\n%s", md)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--seeds", "1,2"}, "give --policies too"},
		{[]string{"--policies", "escs", "--seeds", "1,2", "--seed", "3"}, "exclude each other"},
		{[]string{"--policies", "escs", "--seeds", "1,x"}, `"x" is not a whole number`},
		{[]string{"--policies", "escs", "--seeds", ","}, "no seed"},
	} {
		args := append([]string{"tune", "-o", filepath.Join(t.TempDir(), "x")}, tc.args...)
		if out, err := runApp(t, args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q\n%s", tc.args, err, tc.want, out)
		}
	}
}
