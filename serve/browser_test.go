package serve

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/ecotune/ecotune/internal/testtrace"
	"github.com/ecotune/ecotune/policy"
)

// chromium finds Debian's headless Chromium; under CI=true a missing one
// fails the test.
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if testtrace.CI() {
		t.Fatal("chromium missing (apt-get install -y chromium): the browser test needs it under CI=true")
	}
	t.Skip("chromium missing (apt-get install -y chromium)")
	return ""
}

// TestBrowser drives the workbench in headless Chromium as an
// administrator would: open the token URL, upload a real log, start two
// tunings and a simulation, watch two progress bars advance, abort one
// tuning, wait for the others, read the results (front plot, holdout
// table) and export a pick as rules.json. Screenshots of each step go to
// $ECOTUNE_SCREENSHOTS (default: a temporary directory).
func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser and three runs")
	}
	exe := chromium(t)
	log, err := filepath.Abs(testtrace.Path(t, "traces/synthetic/lublin_256.swf"))
	if err != nil {
		t.Fatal(err)
	}
	shots := os.Getenv("ECOTUNE_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	if err := os.MkdirAll(shots, 0o777); err != nil {
		t.Fatal(err)
	}

	// The server on a free loopback port, as `ecotune serve --listen
	// 127.0.0.1:0 --jobs 3` runs it.
	s, err := New(Options{Data: t.TempDir(), Jobs: 3, Workers: 1, Log: testLog{t}})
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: s}
	go srv.Serve(l)
	defer func() { srv.Close(); s.Close() }()
	base := "http://" + l.Addr().String()

	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 900),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelA()
	ctx, cancelC := chromedp.NewContext(actx)
	defer cancelC()
	ctx, cancelT := context.WithTimeout(ctx, 8*time.Minute)
	defer cancelT()

	step := 0
	// The runs page reloads itself 300 ms after a run ends (runs.html): an
	// action that meets that reload is aborted, or finds no page attached
	// for a moment, and is tried again.
	reloading := func(err error) bool {
		return err != nil && (strings.Contains(err.Error(), "ERR_ABORTED") || strings.Contains(err.Error(), "Not attached to an active page") ||
			strings.Contains(err.Error(), "navigated or closed"))
	}
	shot := func(name string) {
		t.Helper()
		step++
		var b []byte
		var err error
		for try := 0; try < 3; try++ {
			if b, err = chromedp.Run(ctx, chromedp.FullScreenshot(100)); !reloading(err) {
				break
			}
			time.Sleep(500 * time.Millisecond)
		}
		if err != nil {
			t.Fatalf("screenshot %s: %v", name, err)
		}
		if err := os.WriteFile(filepath.Join(shots, fmt.Sprintf("%02d-%s.png", step, name)), b, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	do := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		var err error
		for try := 0; try < 3; try++ {
			if err = chromedp.Do(ctx, steps...); !reloading(err) {
				break
			}
			time.Sleep(500 * time.Millisecond)
		}
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	eval := func(js string) string {
		t.Helper()
		var v string
		var err error
		for try := 0; try < 3; try++ {
			if v, err = chromedp.Run(ctx, chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise)); !reloading(err) {
				break
			}
			time.Sleep(500 * time.Millisecond)
		}
		if err != nil {
			t.Fatalf("%s: %v", js, err)
		}
		return v
	}
	location := func() string {
		u, err := chromedp.Run(ctx, chromedp.Location())
		if err != nil {
			t.Fatal(err)
		}
		return u
	}

	// Every value a page sets on a progress bar (the runs page's
	// server-sent events do) is kept in the tab's session storage, which
	// outlives the runs page's reloads: a bar that advances between two
	// looks of the test, or while the page reloads for another run, is
	// seen advancing all the same.
	do("record progress", chromedp.Func(func(ctx context.Context, tgt *chromedp.Target) error {
		_, err := cdp.Call(ctx, tgt, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: recordProgress})
		return err
	}))

	// 1. Open with the token: the cookie is set, the token leaves the URL.
	do("open", chromedp.Navigate(base+"/?token="+s.Token()), chromedp.WaitVisible(chromedp.CSS("#runs")))
	if u := location(); strings.Contains(u, "token") || !strings.HasSuffix(u, "/runs") {
		t.Fatalf("after the token URL the browser is at %s", u)
	}
	shot("runs-empty")

	// 2. Upload the log; it is imported and inspected.
	do("upload", chromedp.Navigate(base+"/traces"), chromedp.WaitVisible(chromedp.CSS("#file")),
		chromedp.SetUploadFiles(chromedp.CSS("#file"), []string{log}),
		chromedp.Click(chromedp.CSS("#upload-btn")),
		chromedp.WaitVisible(chromedp.CSS("#inspect")))
	m := regexp.MustCompile(`/traces/([0-9a-f]{16})$`).FindStringSubmatch(location())
	if m == nil {
		t.Fatalf("after the upload the browser is at %s", location())
	}
	traceID := m[1]
	if txt := eval(`document.getElementById('inspect').textContent`); !strings.Contains(txt, "10000") || !strings.Contains(txt, "lublin_256") {
		t.Errorf("inspect does not show the log's 10000 jobs and name: %s", txt)
	}
	shot("trace-inspect")

	// 3. Two tunings (one long, to abort) and a simulation.
	tune := func(gens, seed string) string {
		do("tune form", chromedp.Navigate(base+"/tune?trace="+traceID+"&policy=idle-timeout"), chromedp.WaitVisible(chromedp.CSS("#tune-btn")),
			chromedp.SetValue(chromedp.CSS(`input[name=evaluations]`), "0"),
			chromedp.SetValue(chromedp.CSS(`input[name=generations]`), gens),
			chromedp.SetValue(chromedp.CSS(`input[name=population]`), "8"),
			chromedp.SetValue(chromedp.CSS(`input[name=seed]`), seed))
		if seed == "1" {
			shot("tune-form")
		}
		do("start tuning", chromedp.Click(chromedp.CSS("#tune-btn")), chromedp.WaitVisible(chromedp.CSS("#runs")))
		return newestRun(t, s, KindTune)
	}
	long := tune("400", "7")
	// The simulation on an uploaded cluster file: the log's 256 nodes in
	// two groups. The short tuning starts last, so that the runs page is
	// open from its start to its end.
	clusterPath := filepath.Join(t.TempDir(), "lublin.yaml")
	if err := os.WriteFile(clusterPath, []byte("name: lublin\ngroups:\n  - {name: a, count: 128, slots: 1, model: escs}\n  - {name: b, count: 128, slots: 1, model: escs}\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	do("simulate", chromedp.Navigate(base+"/simulate?trace="+traceID+"&policy=idle-timeout"), chromedp.WaitVisible(chromedp.CSS("#simulate-btn")),
		chromedp.SetValue(chromedp.CSS(`input[name="param.idle_timeout"]`), "900"),
		chromedp.SetUploadFiles(chromedp.CSS("#cluster-upload"), []string{clusterPath}),
		chromedp.Click(chromedp.CSS("#cluster-file")))
	shot("simulate-form")
	do("start simulation", chromedp.Click(chromedp.CSS("#simulate-btn")), chromedp.WaitVisible(chromedp.CSS("#runs")))
	simID := newestRun(t, s, KindSimulate)
	if j, _ := s.jobs.get(simID); j.Request.Cluster != ClusterFile || !strings.Contains(strings.Join(j.Command, " "), "--cluster") {
		t.Errorf("the simulation's cluster is %q, its command line %q", j.Request.Cluster, j.Command)
	}
	short := tune("12", "1")

	// 4. Both progress bars advance on the page (server-sent events).
	seen := map[string]map[string]bool{long: {}, short: {}}
	deadline := time.Now().Add(4 * time.Minute)
	// The short tuning may end within a few looks on an idle machine: its
	// bar counts as advancing once seen part-way and then done.
	shortDone := func() bool { j, _ := s.jobs.get(short); return j.State == Done && len(seen[short]) >= 1 }
	for len(seen[long]) < 3 || (len(seen[short]) < 3 && !shortDone()) {
		if time.Now().After(deadline) {
			t.Fatalf("progress bars seen: %v", seen)
		}
		for _, id := range []string{long, short} {
			shown := eval(fmt.Sprintf(`(function(){var p=document.getElementById('progress-%s');return p?String(p.value):''})()`, id))
			set := eval(fmt.Sprintf(`sessionStorage.getItem('progress-%s')||''`, id))
			for _, v := range append(strings.Split(set, " "), shown) {
				if v != "" && v != "0" && v != "100" {
					seen[id][v] = true
				}
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("part-way progress values seen: %d of the long tuning, %d of the short one", len(seen[long]), len(seen[short]))
	shot("progress")

	// 5. Abort the long tuning.
	do("abort", chromedp.Click(chromedp.CSS("#run-"+long+" button.abort")))
	waitText(t, ctx, "#state-"+long, "aborted")
	shot("aborted")

	// 6. Wait for the others.
	waitText(t, ctx, "#state-"+short, "done")
	waitText(t, ctx, "#state-"+simID, "done")
	shot("runs-done")

	// 7. The results: front plot and holdout table.
	do("results", chromedp.Navigate(base+"/runs/"+short), chromedp.WaitVisible(chromedp.CSS("#holdout")), chromedp.WaitVisible(chromedp.CSS("#front-0")))
	if w := eval(`new Promise(function(ok){var i=document.getElementById('front-0');function r(){ok(String(i.naturalWidth))}if(i.complete){r()}else{i.onload=r;i.onerror=r}})`); w == "0" {
		t.Error("the front plot did not load")
	}
	if rows := eval(`String(document.querySelectorAll('#holdout tr').length)`); rows < "2" {
		t.Errorf("the holdout table has %s rows", rows)
	}
	shot("results")
	do("simulation", chromedp.Navigate(base+"/runs/"+simID), chromedp.WaitVisible(chromedp.CSS("#scores")), chromedp.WaitVisible(chromedp.CSS("#cluster-file")))
	shot("simulation")

	// 8. Export a pick: a valid rules.json.
	do("results again", chromedp.Navigate(base+"/runs/"+short), chromedp.WaitVisible(chromedp.CSS("a.export")))
	href := eval(`document.querySelector('a.export').getAttribute('href')`)
	body := eval(fmt.Sprintf(`fetch(%q).then(function(r){if(!r.ok){throw new Error(r.status)}return r.text()})`, href))
	rs, err := policy.ParseRuleSet([]byte(body))
	if err != nil {
		t.Fatalf("the exported rules.json (%s): %v\n%s", href, err, body)
	}
	if rs.Policy.Name != "idle-timeout" {
		t.Errorf("the exported rule set's policy is %s", rs.Policy.Name)
	}
	t.Logf("screenshots in %s", shots)
}

// recordProgress, run in every page before its own scripts, appends each
// value set on a progress bar to the session storage item of the bar's
// id, separated by spaces.
const recordProgress = `(function(){
 var d=Object.getOwnPropertyDescriptor(HTMLProgressElement.prototype,'value');
 Object.defineProperty(HTMLProgressElement.prototype,'value',{configurable:true,enumerable:d.enumerable,get:d.get,
  set:function(v){d.set.call(this,v);
   try{var k=this.id;sessionStorage.setItem(k,(sessionStorage.getItem(k)||'')+' '+String(this.value))}catch(e){}}});
})();`

// newestRun is the newest run of a kind.
func newestRun(t *testing.T, s *Server, kind string) string {
	t.Helper()
	for _, j := range s.jobs.list() {
		if j.Request.Kind == kind {
			return j.ID
		}
	}
	t.Fatalf("no %s run", kind)
	return ""
}

// waitText waits until the element's text starts with want (the runs
// page reloads itself when a run ends).
func waitText(t *testing.T, ctx context.Context, sel, want string) {
	t.Helper()
	deadline := time.Now().Add(4 * time.Minute)
	for time.Now().Before(deadline) {
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`(function(){var e=document.querySelector(%q);return e?e.textContent:''})()`, sel)))
		if err == nil && strings.HasPrefix(strings.TrimSpace(v), want) {
			return
		}
		if err == nil && (strings.HasPrefix(v, Failed) || strings.HasPrefix(v, Aborted) && want != Aborted) {
			t.Fatalf("%s: %s, want %s", sel, v, want)
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("%s never showed %s", sel, want)
}

type testLog struct{ t *testing.T }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}
