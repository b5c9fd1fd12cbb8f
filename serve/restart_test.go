package serve

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ecotune/ecotune/run"
)

// restartTune is the tuning of the restart test: small, several
// generations, so the kill falls inside the search.
var restartTune = url.Values{"trace": {EmbeddedTrace}, "policy": {"idle-timeout"}, "evaluations": {"0"}, "generations": {"10"},
	"population": {"8"}, "islands": {"2"}, "seed": {"3"}, "scheduler": {"easy"}}

// TestMain runs the server the restart test kills when the test binary
// is started as its child (ECOTUNE_SERVE_CHILD names the data
// directory), and the tests otherwise.
func TestMain(m *testing.M) {
	if data := os.Getenv("ECOTUNE_SERVE_CHILD"); data != "" {
		if err := serveChild(data); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// serveChild serves the data directory on a free loopback port until
// killed, printing the access URL first.
func serveChild(data string) error {
	s, err := New(Options{Data: data, Workers: 1})
	if err != nil {
		return err
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	fmt.Printf("http://%s/?token=%s\n", l.Addr(), s.Token())
	return http.Serve(l, s)
}

// TestRestartResumes kills a server (SIGKILL) during a tune, starts
// another on the same data directory, and checks the run resumes from its
// checkpoint and ends with the front of an uninterrupted run.
func TestRestartResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("tunes twice")
	}
	// The uninterrupted run.
	ref := newTestServer(t, Options{Workers: 1})
	refID := ref.startTune(t, restartTune)
	ref.wait(t, refID, Done)
	want, err := os.ReadFile(filepath.Join(ref.data, "runs", refID, runSubdir, "front.json"))
	if err != nil {
		t.Fatal(err)
	}

	// The killed one.
	data := t.TempDir()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), "ECOTUNE_SERVE_CHILD="+data)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	sc := bufio.NewScanner(out)
	var base, token string
	for sc.Scan() {
		if m := regexp.MustCompile(`^(http://[0-9.:]+)/\?token=([0-9a-f]+)$`).FindStringSubmatch(sc.Text()); m != nil {
			base, token = m[1], m[2]
			break
		}
	}
	if base == "" {
		t.Fatal("the child server printed no URL line")
	}
	go func() {
		for sc.Scan() {
		}
	}()
	id := startTuneAt(t, base, token, restartTune)
	jobPath := filepath.Join(data, "runs", id, jobFile)
	deadline := time.Now().Add(3 * time.Minute)
	for {
		var j Job
		if err := run.ReadJSON(jobPath, &j); err == nil && j.State == Running && j.Generation >= 2 {
			if j.Generation >= j.Generations {
				t.Fatalf("the run got to generation %d/%d before the kill", j.Generation, j.Generations)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the child's tune made no progress")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if _, err := os.Stat(run.Dir(filepath.Join(data, "runs", id, runSubdir)).Checkpoint()); err != nil {
		t.Fatalf("no checkpoint after the kill: %v", err)
	}
	if _, err := os.Stat(filepath.Join(data, "runs", id, runSubdir, "front.json")); err == nil {
		t.Fatal("the run had finished before the kill")
	}

	// A new server resumes it.
	again := newTestServer(t, Options{Data: data, Workers: 1})
	again.wait(t, id, Done)
	got, err := os.ReadFile(filepath.Join(data, "runs", id, runSubdir, "front.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the resumed run's front.json differs from the uninterrupted run's (%d vs %d bytes)", len(got), len(want))
	}
	j, _ := again.jobs.get(id)
	if j.ResumedAt < 2 {
		t.Errorf("the run resumed at generation %d, want the checkpoint's (2 or later)", j.ResumedAt)
	}
	if j.Generation != j.Generations {
		t.Errorf("resumed run ended at generation %d/%d", j.Generation, j.Generations)
	}
	body := get(t, again.client, again.ts.URL+"/runs/"+id, http.StatusOK)
	if !strings.Contains(body, `id="holdout"`) {
		t.Error("the resumed run's page has no holdout table")
	}
}

// startTune posts the tuning form and returns the new run's ID.
func (ts *testServer) startTune(t *testing.T, v url.Values) string {
	t.Helper()
	return startTuneAt(t, ts.ts.URL, ts.Token(), v)
}

func startTuneAt(t *testing.T, base, token string, v url.Values) string {
	t.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }, Timeout: time.Minute}
	do := func(method, path, body string) (*http.Response, string) {
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		if body != "" {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var b bytes.Buffer
		b.ReadFrom(res.Body)
		return res, b.String()
	}
	_, page := do(http.MethodGet, "/runs", "")
	m := regexp.MustCompile(`"X-CSRF-Token": "([0-9a-f]+)"`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no CSRF token on the runs page")
	}
	before := regexp.MustCompile(`id="run-([0-9a-f]{16})"`).FindAllStringSubmatch(page, -1)
	f := url.Values{"csrf": {m[1]}}
	for k, x := range v {
		f[k] = x
	}
	if res, body := do(http.MethodPost, "/tune", f.Encode()); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("POST /tune: %s: %s", res.Status, body)
	}
	_, page = do(http.MethodGet, "/runs", "")
	seen := map[string]bool{}
	for _, b := range before {
		seen[b[1]] = true
	}
	for _, a := range regexp.MustCompile(`id="run-([0-9a-f]{16})"`).FindAllStringSubmatch(page, -1) {
		if !seen[a[1]] {
			return a[1]
		}
	}
	t.Fatal("the new run is not on the runs page")
	return ""
}

// wait waits until run id is in state want; another final state fails.
func (ts *testServer) wait(t *testing.T, id, want string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Minute)
	for time.Now().Before(deadline) {
		j, ok := ts.jobs.get(id)
		if !ok {
			t.Fatalf("no run %s", id)
		}
		switch j.State {
		case want:
			return
		case Done, Failed, Aborted:
			t.Fatalf("run %s is %s (%s), want %s", id, j.State, j.Error, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("run %s not %s after 5 minutes", id, want)
}
