package serve

import (
	"bytes"
	"encoding/json"
	"html"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/tuner/summary"
)

// twoModels is a cluster file for the embedded trace (128 one-slot
// nodes): half the nodes with ESCS's model, half with other numbers.
const twoModels = `name: two-models
groups:
  - {name: a, count: 64, slots: 1, model: escs}
  - name: b
    count: 64
    slots: 1
    model: {off_w: 5, idle_w: 100, busy_slot_w: 50, boot_s: 300, boot_wh: 8, shutdown_s: 200, shutdown_wh: 5}
`

// multipartForm is a form as the pages send it with a file input.
func multipartForm(fields url.Values, fileField, fileName string, content []byte) (*bytes.Buffer, string) {
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for k, vs := range fields {
		for _, v := range vs {
			mw.WriteField(k, v)
		}
	}
	if fileField != "" {
		fw, _ := mw.CreateFormFile(fileField, fileName)
		fw.Write(content)
	}
	mw.Close()
	return &b, mw.FormDataContentType()
}

func (ts *testServer) postMultipart(t *testing.T, path string, body *bytes.Buffer, ctype string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, ts.ts.URL+path, body)
	req.Header.Set("Content-Type", ctype)
	res, err := ts.noRedirect().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out bytes.Buffer
	out.ReadFrom(res.Body)
	return res, out.String()
}

// TestClusterAndPoliciesFields posts the new fields of the simulation and
// tuning forms, URL-encoded and multipart (an uploaded cluster file): a
// bad value is a 400 whose message names the field (for a cluster file,
// the file's own field or line), never a 5xx; a good one starts a run
// whose command line says it.
func TestClusterAndPoliciesFields(t *testing.T) {
	ts := newTestServer(t, Options{Jobs: 1, Workers: 1})
	bomb := "a: &a [x, x, x, x, x, x, x, x, x]\n"
	for i, prev := 0, "a"; i < 12; i++ {
		name := string(rune('b' + i))
		bomb += name + ": &" + name + " [*" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + "]\n"
		prev = name
	}
	for _, c := range []struct {
		name, path string
		form       url.Values
		upload     string // cluster_upload's content, multipart when set
		status     int
		want       []string // in the message, or in the command line
	}{
		{"file ok", "/simulate", url.Values{"policy": {"always-on"}, "cluster": {"file"}, "cluster_text": {twoModels}}, "", http.StatusSeeOther, []string{"--cluster", clusterFile}},
		{"text alone means file", "/simulate", url.Values{"policy": {"always-on"}, "cluster_text": {twoModels}}, "", http.StatusSeeOther, []string{"--cluster"}},
		{"trace ignores text", "/simulate", url.Values{"policy": {"always-on"}, "cluster": {"trace"}, "cluster_text": {"junk"}}, "", http.StatusSeeOther, nil},
		{"conservative", "/simulate", url.Values{"policy": {"always-on"}, "scheduler": {"conservative"}}, "", http.StatusSeeOther, []string{"--scheduler conservative"}},
		{"scheduler", "/simulate", url.Values{"policy": {"always-on"}, "scheduler": {"sjf"}}, "", http.StatusBadRequest, []string{"scheduler:", "sjf"}},
		{"model escs is the default", "/simulate", url.Values{"policy": {"always-on"}, "model": {"escs"}}, "", http.StatusSeeOther, nil},
		{"upload ok", "/simulate", url.Values{"policy": {"always-on"}, "cluster": {"file"}}, twoModels, http.StatusSeeOther, []string{"--cluster"}},
		{"tune two policies with a file", "/tune", url.Values{"policy": {"idle-timeout", "load"}, "cluster_text": {twoModels}, "generations": {"1"}, "population": {"4"}, "islands": {"1"}}, "", http.StatusSeeOther, []string{"--policies idle-timeout,load", "--cluster"}},

		{"count zero", "/simulate", url.Values{"policy": {"always-on"}, "cluster": {"file"}, "cluster_text": {"groups:\n  - {name: n, count: 0, slots: 1, model: escs}\n"}}, "", http.StatusBadRequest, []string{"cluster file", "groups[0].count"}},
		{"negative boot", "/tune", url.Values{"policy": {"idle-timeout"}, "cluster_text": {"groups:\n  - {name: n, count: 2, slots: 1, model: {boot_s: -5}}\n"}}, "", http.StatusBadRequest, []string{"groups[0].model.boot_s"}},
		{"unknown key", "/simulate", url.Values{"policy": {"always-on"}, "cluster_text": {"groups:\n  - {name: n, count: 2, slots: 1, model: escs, bogus: 1}\n"}}, "", http.StatusBadRequest, []string{"cluster file", "bogus", "line 2"}},
		{"unknown model in file", "/simulate", url.Values{"policy": {"always-on"}, "cluster_text": {"groups:\n  - {name: n, count: 2, slots: 1, model: nope}\n"}}, "", http.StatusBadRequest, []string{"groups[0].model", "nope"}},
		{"not yaml", "/simulate", url.Values{"policy": {"always-on"}, "cluster": {"file"}, "cluster_text": {"{{{ ::"}}, "", http.StatusBadRequest, []string{"cluster file"}},
		{"alias bomb", "/simulate", url.Values{"policy": {"always-on"}, "cluster": {"file"}, "cluster_text": {bomb}}, "", http.StatusBadRequest, []string{"cluster file"}},
		{"too long", "/simulate", url.Values{"policy": {"always-on"}, "cluster": {"file"}, "cluster_text": {"#" + strings.Repeat("x", maxClusterText)}}, "", http.StatusBadRequest, []string{"cluster file", "limit"}},
		{"empty file", "/simulate", url.Values{"policy": {"always-on"}, "cluster": {"file"}}, "", http.StatusBadRequest, []string{"cluster file: empty"}},
		{"bad upload", "/tune", url.Values{"policy": {"idle-timeout"}, "cluster": {"file"}}, "groups: []\n", http.StatusBadRequest, []string{"cluster file", "groups"}},
		{"upload too large", "/simulate", url.Values{"policy": {"always-on"}, "cluster": {"file"}}, "#" + strings.Repeat("x", maxFormBody), http.StatusRequestEntityTooLarge, []string{"larger than"}},
		{"upload over the file limit", "/simulate", url.Values{"policy": {"always-on"}, "cluster": {"file"}}, "#" + strings.Repeat("x", maxClusterText), http.StatusBadRequest, []string{"cluster file", "limit"}},
		{"both upload and text", "/simulate", url.Values{"policy": {"always-on"}, "cluster_text": {twoModels}}, twoModels, http.StatusBadRequest, []string{"cluster file", "both"}},
		{"cluster choice", "/simulate", url.Values{"policy": {"always-on"}, "cluster": {"../etc"}}, "", http.StatusBadRequest, []string{"cluster:", "../etc"}},
		{"unknown model", "/simulate", url.Values{"policy": {"always-on"}, "model": {"nope"}}, "", http.StatusBadRequest, []string{"model:", "nope"}},
		{"tune has no model", "/tune", url.Values{"policy": {"idle-timeout"}, "model": {"other"}}, "", http.StatusBadRequest, []string{"model:", "--model"}},
		{"a reference", "/tune", url.Values{"policy": {"idle-timeout", "always-on"}}, "", http.StatusBadRequest, []string{"policy:", "always-on"}},
		{"twice", "/tune", url.Values{"policy": {"idle-timeout", "load", "idle-timeout"}}, "", http.StatusBadRequest, []string{"policy:", "idle-timeout chosen twice"}},
		{"unknown among several", "/tune", url.Values{"policy": {"idle-timeout", "nope"}}, "", http.StatusBadRequest, []string{"policy:", "nope"}},
		{"no policy", "/tune", url.Values{"generations": {"1"}}, "", http.StatusBadRequest, []string{"policy: choose"}},
		{"simulate one policy", "/simulate", url.Values{"policy": {"always-on", "load"}}, "", http.StatusBadRequest, []string{"policy:", "one policy"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := ts.jobs.list()
			form := url.Values{"csrf": {ts.csrf}}
			for k, v := range c.form {
				form[k] = v
			}
			var res *http.Response
			var body string
			if c.upload != "" {
				b, ctype := multipartForm(form, "cluster_upload", "mine.yaml", []byte(c.upload))
				res, body = ts.postMultipart(t, c.path, b, ctype)
			} else {
				res, body = ts.post(t, c.path, form)
			}
			body = html.UnescapeString(body)
			if res.StatusCode != c.status {
				t.Fatalf("%s, want %d: %.500s", res.Status, c.status, body)
			}
			after := ts.jobs.list()
			if c.status != http.StatusSeeOther {
				if len(after) != len(before) {
					t.Error("a refused form started a run")
				}
				for _, w := range c.want {
					if !strings.Contains(body, w) {
						t.Errorf("the message lacks %q: %.500s", w, body)
					}
				}
				if strings.Contains(body, ts.data) {
					t.Errorf("the message shows the server's paths: %.500s", body)
				}
				return
			}
			if len(after) != len(before)+1 {
				t.Fatalf("%d runs after, %d before", len(after), len(before))
			}
			j := after[0]
			cmd := strings.Join(j.Command, " ")
			for _, w := range c.want {
				if !strings.Contains(cmd, w) {
					t.Errorf("the command line %q lacks %q", cmd, w)
				}
			}
			written, err := os.ReadFile(filepath.Join(ts.jobs.dir(j.ID), clusterFile))
			if j.Request.Cluster == ClusterFile {
				if err != nil || string(written) != twoModels {
					t.Errorf("the run's cluster file: %q, %v", written, err)
				}
				if !slices.Contains(j.Command, filepath.Join(ts.jobs.dir(j.ID), clusterFile)) {
					t.Errorf("the command line %q does not name the run's cluster file", cmd)
				}
			} else if err == nil || strings.Contains(cmd, "--cluster") || strings.Contains(cmd, "--model") {
				t.Errorf("a run on the trace's cluster has a cluster file or %q", cmd)
			}
			ts.jobs.abort(j.ID)
		})
	}
}

// ecotune builds the command line into a temporary directory.
func ecotune(t *testing.T) string {
	t.Helper()
	exe := filepath.Join(t.TempDir(), "ecotune")
	if out, err := exec.Command("go", "build", "-o", exe, "../cmd/ecotune").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return exe
}

// partitioned is a cluster file for the embedded trace with two
// partitions: every job goes to the default one.
const partitioned = `name: parts
groups:
  - {name: main, count: 128, slots: 1, model: escs}
  - {name: spare, count: 16, slots: 1, model: escs}
partitions:
  - {name: main, groups: [main], default: true}
  - {name: spare, groups: [spare], queues: [nothing-goes-here]}
`

// TestSimulateClusterFileIsTheCommandLine: a simulation on an uploaded
// cluster file (plain, or with partitions) scores exactly what its
// command line (`ecotune simulate --cluster FILE --json`) prints, and
// differs from the same simulation on the trace header's cluster (so the
// file was used).
func TestSimulateClusterFileIsTheCommandLine(t *testing.T) {
	if testing.Short() || runtime.GOOS == "windows" {
		t.Skip("builds the command line and replays the embedded trace five times")
	}
	ts := newTestServer(t, Options{Jobs: 2, Workers: 1})
	exe := ecotune(t)
	form := url.Values{"csrf": {ts.csrf}, "policy": {"idle-timeout"}, "param.idle_timeout": {"600"}}
	if res, body := ts.post(t, "/simulate", form); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("POST /simulate: %s: %s", res.Status, body)
	}
	plain := newestRun(t, ts.Server, KindSimulate)
	ts.wait(t, plain, Done)
	read := func(id string) SimResult {
		var r SimResult
		if err := run.ReadJSON(filepath.Join(ts.jobs.dir(id), simResultFile), &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	header := read(plain)

	for _, file := range []string{twoModels, partitioned} {
		form.Set("cluster", "file")
		b, ctype := multipartForm(form, "cluster_upload", "mine.yaml", []byte(file))
		if res, body := ts.postMultipart(t, "/simulate", b, ctype); res.StatusCode != http.StatusSeeOther {
			t.Fatalf("POST /simulate: %s: %s", res.Status, body)
		}
		id := newestRun(t, ts.Server, KindSimulate)
		ts.wait(t, id, Done)
		got := read(id)
		if got.EnergyKWh == header.EnergyKWh {
			t.Errorf("the cluster file's simulation used %g kWh, as much as the trace header's", got.EnergyKWh)
		}
		page := get(t, ts.client, ts.ts.URL+"/runs/"+id, http.StatusOK)
		if !strings.Contains(page, `id="cluster-file"`) {
			t.Error("the simulation's page does not link its cluster file")
		}
		j, _ := ts.jobs.get(id)
		out, err := exec.Command(exe, append(j.Command[1:], "--json")...).Output()
		if err != nil {
			t.Fatalf("%v: %v", j.Command, err)
		}
		var want SimResult
		if err := json.Unmarshal(out, &want); err != nil {
			t.Fatal(err)
		}
		// The replay's wall time is the one field that may differ.
		got.SimSeconds, want.SimSeconds = 0, 0
		x, _ := json.Marshal(got)
		y, _ := json.Marshal(want)
		if !bytes.Equal(x, y) {
			t.Errorf("the page's simulation and `%s --json` differ:\npage %s\ncli  %s", strings.Join(j.Command, " "), x, y)
		}
	}
}

// TestTunePoliciesIsTheCommandLine: a tuning of two policies on a cluster
// file writes the summary and fronts `ecotune tune --policies a,b
// --cluster FILE` writes; its page shows the comparison and each
// policy's front, holdout table and exports; compare plots both.
func TestTunePoliciesIsTheCommandLine(t *testing.T) {
	if testing.Short() || runtime.GOOS == "windows" {
		t.Skip("tunes two policies twice")
	}
	ts := newTestServer(t, Options{Jobs: 1, Workers: 1})
	form := withSeed(smallTune, "3")
	form["policy"] = []string{"idle-timeout", "load"}
	form.Set("generations", "2")
	form.Set("cluster_text", twoModels)
	id := ts.startTune(t, form)
	ts.wait(t, id, Done)
	j, _ := ts.jobs.get(id)
	if j.Steps != 2 || j.Policy != "load" || j.Step != 1 {
		t.Errorf("the last progress: policy %q, step %d of %d, want load, 1 of 2", j.Policy, j.Step, j.Steps)
	}

	page := get(t, ts.client, ts.ts.URL+"/runs/"+id, http.StatusOK)
	for _, want := range []string{`id="policies"`, `id="policies-front"`, `id="front-idle-timeout-0"`, `id="front-load-0"`, `id="holdout-load"`,
		"policy=load&pick=knee", "--policies idle-timeout,load"} {
		if !strings.Contains(page, want) {
			t.Errorf("the results page lacks %q", want)
		}
	}
	for _, p := range []string{"idle-timeout", "load"} {
		if svg := get(t, ts.client, ts.ts.URL+"/runs/"+id+"/front/0.svg?policy="+p, http.StatusOK); !strings.Contains(svg, "<svg") {
			t.Errorf("%s's front 0 is not SVG", p)
		}
		js := get(t, ts.client, ts.ts.URL+"/runs/"+id+"/export?policy="+p+"&pick=knee", http.StatusOK)
		if !strings.Contains(js, `"`+p+`"`) {
			t.Errorf("the export of %s's knee does not name it", p)
		}
	}
	get(t, ts.client, ts.ts.URL+"/files/run/policies-front.svg", http.StatusNotFound)
	get(t, ts.client, ts.ts.URL+"/runs/"+id+"/files/run/policies-front.svg", http.StatusOK)
	get(t, ts.client, ts.ts.URL+"/runs/"+id+"/export?pick=knee", http.StatusBadRequest)
	get(t, ts.client, ts.ts.URL+"/runs/"+id+"/export?policy=hgfs&pick=knee", http.StatusBadRequest)
	get(t, ts.client, ts.ts.URL+"/runs/"+id+"/front/0.svg?policy=../x", http.StatusNotFound)
	svg := get(t, ts.client, ts.ts.URL+"/compare/front.svg?run="+id, http.StatusOK)
	if !strings.Contains(svg, id+" idle-timeout") || !strings.Contains(svg, id+" load") {
		t.Error("the comparison's legend does not name both policies")
	}

	dir := filepath.Join(t.TempDir(), "cli")
	args := append([]string{"--quiet"}, j.Command[1:len(j.Command)-1]...) // "ecotune" … "-o" DIR
	args = append(args, dir, "--workers", "1")
	if out, err := exec.Command(ecotune(t), args...).CombinedOutput(); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, out)
	}
	mine := filepath.Join(ts.jobs.dir(id), runSubdir)
	for _, f := range []string{summary.SummaryJSON, "idle-timeout/front.json", "load/front.json", "policies.md"} {
		want, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(mine, f))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the page's run and `%s` differ", f, strings.Join(j.Command, " "))
		}
	}
	var m map[string]any
	if err := run.ReadJSON(filepath.Join(mine, "load", run.ManifestFile), &m); err != nil {
		t.Fatal(err)
	}
	if c, _ := json.Marshal(m["cluster"]); !strings.Contains(string(c), "two-models") {
		t.Errorf("run.json's cluster is %s, not the file's", c)
	}
}

// TestTunePoliciesSurvivesRestart stops a server while the second of two
// policies is tuned; the next server on the same data directory keeps
// the first policy's run, resumes the second from its checkpoint, and
// ends with the summary and fronts of an uninterrupted run.
func TestTunePoliciesSurvivesRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("tunes two policies twice")
	}
	form := withSeed(smallTune, "4")
	form["policy"] = []string{"idle-timeout", "load"}
	form.Set("generations", "12")

	ref := newTestServer(t, Options{Workers: 1})
	refID := ref.startTune(t, form)
	ref.wait(t, refID, Done)

	data := t.TempDir()
	first := newTestServer(t, Options{Data: data, Workers: 1})
	id := first.startTune(t, form)
	deadline := time.Now().Add(3 * time.Minute)
	for {
		j, _ := first.jobs.get(id)
		if j.State == Running && j.Step == 1 && j.Generation >= 2 {
			break
		}
		if j.State != Queued && j.State != Running || time.Now().After(deadline) {
			t.Fatalf("the run is %s at policy %q, step %d, generation %d", j.State, j.Policy, j.Step, j.Generation)
		}
		time.Sleep(10 * time.Millisecond)
	}
	first.Close()
	if _, err := os.Stat(filepath.Join(data, "runs", id, runSubdir, "load", "front.json")); err == nil {
		t.Fatal("the second policy had finished before the stop")
	}

	again := newTestServer(t, Options{Data: data, Workers: 1})
	again.wait(t, id, Done)
	j, _ := again.jobs.get(id)
	if j.ResumedAt < 2 || j.Policy != "load" || j.Step != 1 || j.Percent() != 100 {
		t.Errorf("the resumed run: resumed at %d, policy %q, step %d/%d, %d %%", j.ResumedAt, j.Policy, j.Step, j.Steps, j.Percent())
	}
	for _, f := range []string{summary.SummaryJSON, "idle-timeout/front.json", "load/front.json"} {
		want, err := os.ReadFile(filepath.Join(ref.data, "runs", refID, runSubdir, f))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(data, "runs", id, runSubdir, f))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the resumed run's differs from the uninterrupted one's", f)
		}
	}
}
