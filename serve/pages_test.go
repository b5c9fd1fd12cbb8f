package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/reports"
	"github.com/ecotune/ecotune/run"
)

var smallTune = url.Values{"trace": {EmbeddedTrace}, "policy": {"idle-timeout"}, "evaluations": {"0"}, "generations": {"3"},
	"population": {"8"}, "islands": {"2"}, "scheduler": {"easy"}}

func withSeed(v url.Values, seed string) url.Values {
	out := url.Values{"seed": {seed}}
	for k, x := range v {
		out[k] = x
	}
	return out
}

// TestResultsCompareExport runs two small tunings and a simulation
// through the forms and reads every result page.
func TestResultsCompareExport(t *testing.T) {
	if testing.Short() {
		t.Skip("tunes twice")
	}
	ts := newTestServer(t, Options{Jobs: 2, Workers: 1})
	// Presets replacing the defaults, one no solution meets.
	withPresets := withSeed(smallTune, "1")
	withPresets.Set("presets", "knee\nq=qos_p90<=0.1\nimpossible=off_node_seconds>=1e15")
	a := ts.startTune(t, withPresets)
	b := ts.startTune(t, withSeed(smallTune, "2"))
	res, body := ts.post(t, "/simulate", url.Values{"csrf": {ts.csrf}, "policy": {"idle-timeout"}, "param.idle_timeout": {"900"}, "scheduler": {"fcfs"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("POST /simulate: %s: %s", res.Status, body)
	}
	sim := newestRun(t, ts.Server, KindSimulate)
	for _, id := range []string{a, b, sim} {
		ts.wait(t, id, Done)
	}

	page := get(t, ts.client, ts.ts.URL+"/runs/"+a, http.StatusOK)
	resultsPage := page
	for _, want := range []string{`id="holdout"`, `id="front-0"`, "timeline-slots.svg", "knee", "SuspendTime=", "ecotune tune --policy idle-timeout"} {
		if !strings.Contains(page, want) {
			t.Errorf("the results page lacks %q", want)
		}
	}
	if svg := get(t, ts.client, ts.ts.URL+"/runs/"+a+"/front/0.svg", http.StatusOK); !strings.Contains(svg, "<svg") {
		t.Error("front 0 is not SVG")
	}
	get(t, ts.client, ts.ts.URL+"/runs/"+a+"/files/run/report/timeline-slots.svg", http.StatusOK)
	page = get(t, ts.client, ts.ts.URL+"/runs/"+sim, http.StatusOK)
	if !strings.Contains(page, `id="scores"`) || !strings.Contains(page, "qos_p90") {
		t.Error("the simulation's page shows no scores")
	}

	// Export: the same file `ecotune export --pick` writes; an infeasible
	// preset only with force=1, marked.
	rr, err := reports.LoadRun(filepath.Join(ts.data, "runs", a, runSubdir))
	if err != nil {
		t.Fatal(err)
	}
	// Each preset's hindsight member, as run.json records it, in the
	// holdout table's order (the presets'); a member that misses its
	// bound on test says so (the impossible preset's does).
	cells := strings.Split(resultsPage, `<td class="hindsight">`)[1:]
	if len(cells) != len(rr.Meta.Presets) {
		t.Fatalf("%d hindsight cells for %d presets", len(cells), len(rr.Meta.Presets))
	}
	missed := 0
	for k, p := range rr.Meta.Presets {
		cell := cells[k][:strings.Index(cells[k], "</td>")]
		if p.HindsightRow == nil || p.HindsightFeasible == nil {
			t.Errorf("preset %s records no hindsight member", p.Name)
			continue
		}
		if !strings.HasPrefix(cell, fmt.Sprintf("row %d:", *p.HindsightRow)) || strings.Contains(cell, "(bound missed)") == *p.HindsightFeasible {
			t.Errorf("preset %s: hindsight row %d feasible %v, but its cell reads %q", p.Name, *p.HindsightRow, *p.HindsightFeasible, cell)
		}
		if !*p.HindsightFeasible {
			missed++
		}
	}
	if missed == 0 {
		t.Error("no hindsight member misses its bound: the impossible preset's should")
	}
	for _, pick := range []string{"knee", "q", "impossible", "0"} {
		p, err := rr.Pick(pick)
		if err != nil {
			t.Fatal(err)
		}
		u := ts.ts.URL + "/runs/" + a + "/export?pick=" + pick
		if (p.Infeasible() != "") != (pick == "impossible") {
			t.Errorf("pick %s: infeasible %q", pick, p.Infeasible())
		}
		if p.Infeasible() != "" {
			if msg := get(t, ts.client, u, http.StatusBadRequest); !strings.Contains(msg, "infeasible") {
				t.Errorf("export %s: %s", pick, msg)
			}
			u += "&force=1"
		}
		js := get(t, ts.client, u, http.StatusOK)
		rs, err := policy.ParseRuleSet([]byte(js))
		if err != nil {
			t.Fatalf("export %s: %v", pick, err)
		}
		if rs.Policy.Name != "idle-timeout" {
			t.Errorf("export %s: policy %s", pick, rs.Policy.Name)
		}
		if f := rs.Provenance.Feasibility; (f != nil && f.Forced) != (p.Infeasible() != "") {
			t.Errorf("export %s: feasibility %+v, infeasible %q", pick, f, p.Infeasible())
		}
	}
	get(t, ts.client, ts.ts.URL+"/runs/"+a+"/export?pick=nope", http.StatusBadRequest)
	get(t, ts.client, ts.ts.URL+"/runs/"+a+"/export?pick=99999", http.StatusBadRequest)
	get(t, ts.client, ts.ts.URL+"/runs/"+sim+"/export?pick=knee", http.StatusNotFound)

	// Compare: both fronts on one plot; bad selections are messages.
	page = get(t, ts.client, ts.ts.URL+"/compare?run="+a+"&run="+b, http.StatusOK)
	if !strings.Contains(page, `id="compare-front"`) {
		t.Error("the compare page shows no plot")
	}
	svg := get(t, ts.client, ts.ts.URL+"/compare/front.svg?run="+a+"&run="+b, http.StatusOK)
	if !strings.Contains(svg, a) || !strings.Contains(svg, b) {
		t.Error("the comparison's legend does not name both runs")
	}
	for _, q := range []string{"run=" + sim, "run=0123456789abcdef", "run=../x", "", strings.Repeat("run="+a+"&", 9)} {
		get(t, ts.client, ts.ts.URL+"/compare/front.svg?"+q, http.StatusBadRequest)
	}

	// What the page ran is what its command line runs.
	if runtime.GOOS == "windows" {
		return
	}
	j, _ := ts.jobs.get(a)
	exe := filepath.Join(t.TempDir(), "ecotune")
	if out, err := exec.Command("go", "build", "-o", exe, "../cmd/ecotune").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dir := filepath.Join(t.TempDir(), "cli")
	args := append([]string{"--quiet"}, j.Command[1:len(j.Command)-1]...) // "ecotune" … "-o" DIR
	args = append(args, dir, "--no-report", "--workers", "1")
	if out, err := exec.Command(exe, args...).CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v\n%s", exe, args, err, out)
	}
	want, err := os.ReadFile(filepath.Join(dir, "front.json"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(ts.data, "runs", a, runSubdir, "front.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the page's run and `%s` wrote different fronts", strings.Join(j.Command, " "))
	}
	// The page's export and slurm.conf lines are `ecotune export --slurm`'s.
	runDir := filepath.Join(ts.data, "runs", a, runSubdir)
	rules := filepath.Join(t.TempDir(), "rules.json")
	out, err := exec.Command(exe, "export", runDir, "--pick", "knee", "-o", rules, "--slurm").Output()
	if err != nil {
		t.Fatalf("ecotune export: %v", err)
	}
	if page := get(t, ts.client, ts.ts.URL+"/runs/"+a+"/export?pick=knee&slurm=1", http.StatusOK); page != string(out) {
		t.Errorf("the page's slurm.conf block:\n%s\n`ecotune export --slurm` prints:\n%s", page, out)
	}
	cli, err := os.ReadFile(rules)
	if err != nil {
		t.Fatal(err)
	}
	if page := get(t, ts.client, ts.ts.URL+"/runs/"+a+"/export?pick=knee", http.StatusOK); page != string(cli) {
		t.Errorf("the page's rules.json differs from `ecotune export`'s:\n%s\n%s", page, cli)
	}
	var m1, m2 map[string]any
	if err := run.ReadJSON(filepath.Join(dir, run.ManifestFile), &m1); err != nil {
		t.Fatal(err)
	}
	if err := run.ReadJSON(filepath.Join(ts.data, "runs", a, runSubdir, run.ManifestFile), &m2); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"objectives", "presets", "split", "seed", "cluster", "scheduler", "policy", "trace_sha256", "evaluations", "generations", "population", "islands", "hypervolume", "references", "normalizers"} {
		if _, ok := m1[k]; !ok {
			t.Errorf("run.json has no %s", k)
		}
		x, _ := json.Marshal(m1[k])
		y, _ := json.Marshal(m2[k])
		if !bytes.Equal(x, y) {
			t.Errorf("run.json %s: command line %s, page %s", k, x, y)
		}
	}
}

// TestQueueAbortDelete: with one job at a time the second tuning queues;
// aborting the running one lets the queued one run; a queued run can be
// aborted too; delete removes a run and its files; a failed run shows its
// error.
func TestQueueAbortDelete(t *testing.T) {
	data := t.TempDir()
	failed := fakeRun(t, data)
	ts := newTestServer(t, Options{Data: data, Jobs: 1, Workers: 1})
	long := withSeed(smallTune, "5")
	long.Set("generations", "100000")
	a := ts.startTune(t, long)
	b := ts.startTune(t, long)
	c := ts.startTune(t, long)
	ts.wait(t, a, Running)
	if j, _ := ts.jobs.get(b); j.State != Queued {
		t.Fatalf("the second run is %s while the first runs, want queued", j.State)
	}
	page := get(t, ts.client, ts.ts.URL+"/runs", http.StatusOK)
	for _, want := range []string{`id="progress-` + a, `id="state-` + b + `">queued`, "failed: boom"} {
		if !strings.Contains(page, want) {
			t.Errorf("the runs page lacks %q", want)
		}
	}
	if res, _ := ts.post(t, "/runs/"+c+"/abort", url.Values{"csrf": {ts.csrf}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("abort: %s", res.Status)
	}
	ts.wait(t, c, Aborted)
	if res, _ := ts.post(t, "/runs/"+a+"/abort", url.Values{"csrf": {ts.csrf}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("abort: %s", res.Status)
	}
	ts.wait(t, a, Aborted)
	ts.wait(t, b, Running)
	if res, _ := ts.post(t, "/runs/"+b+"/delete", url.Values{"csrf": {ts.csrf}}); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("delete: %s", res.Status)
	}
	if _, err := os.Stat(filepath.Join(data, "runs", b)); !os.IsNotExist(err) {
		t.Errorf("the deleted run's directory: %v", err)
	}
	get(t, ts.client, ts.ts.URL+"/runs/"+b, http.StatusNotFound)
	if body := get(t, ts.client, ts.ts.URL+"/runs/"+failed, http.StatusOK); !strings.Contains(body, `id="error">boom`) {
		t.Error("the failed run's page does not show its error")
	}
	// Aborted runs stay aborted after a restart.
	ts.Close()
	again := newTestServer(t, Options{Data: data, Jobs: 1, Workers: 1})
	for _, id := range []string{a, c} {
		if j, _ := again.jobs.get(id); j.State != Aborted {
			t.Errorf("run %s is %s after a restart, want aborted", id, j.State)
		}
	}
}

// TestUploadErrorIsAMessage: a log no reader reads is a clear message
// naming the client's file, not the server's paths; nothing is kept.
func TestUploadErrorIsAMessage(t *testing.T) {
	ts := newTestServer(t, Options{})
	body, ctype := uploadBody(ts.csrf, "notes.txt", []byte("this is not an accounting log\nat all\n"))
	res, msg := ts.upload(t, body, ctype)
	if res.StatusCode != http.StatusBadRequest {
		t.Fatalf("%s, want 400: %s", res.Status, msg)
	}
	if !strings.Contains(msg, "notes.txt") || !strings.Contains(msg, "swf") || strings.Contains(msg, ts.data) || strings.Contains(msg, ".upload") {
		t.Errorf("the message: %s", msg)
	}
	assertEmpty(t, filepath.Join(ts.data, "uploads"))
	assertEmpty(t, filepath.Join(ts.data, "traces"))
}
