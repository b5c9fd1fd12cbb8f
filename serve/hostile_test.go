package serve

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/run"
)

func TestTokenRequired(t *testing.T) {
	ts := newTestServer(t, Options{})
	plain := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, p := range []string{"/", "/runs", "/traces", "/events", "/static/htmx.min.js", "/runs/0123456789abcdef", "/nope", "/?token=wrong", "/?token="} {
		res, err := plain.Get(ts.ts.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusUnauthorized {
			t.Errorf("GET %s without the token: %s, want 401", p, res.Status)
		}
		if strings.Contains(string(b), "goroutine") {
			t.Errorf("GET %s: a stack trace in the answer: %s", p, b)
		}
	}
	// POST without the token: 401 before any CSRF check.
	res, err := plain.PostForm(ts.ts.URL+"/tune", url.Values{"csrf": {ts.csrf}, "policy": {"idle-timeout"}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Errorf("POST /tune without the token: %s, want 401", res.Status)
	}
	// The token as a bearer header works (scripts), as does the cookie.
	req, _ := http.NewRequest(http.MethodGet, ts.ts.URL+"/runs", nil)
	req.Header.Set("Authorization", "Bearer "+ts.Token())
	if res, err = plain.Do(req); err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("bearer token: %s, want 200", res.Status)
	}
	get(t, ts.client, ts.ts.URL+"/runs", http.StatusOK)
	if len(ts.jobs.list()) != 0 {
		t.Error("a request without the token started a run")
	}
}

func TestCSRFRequired(t *testing.T) {
	ts := newTestServer(t, Options{})
	id := fakeRun(t, ts.data)
	ts2 := newTestServer(t, Options{Data: ts.data}) // lists the fake run
	form := url.Values{"policy": {"idle-timeout"}, "evaluations": {"10"}}
	for _, csrf := range []string{"", "wrong", ts2.csrf + "0", ts.csrf /* another server's */} {
		for _, p := range []string{"/tune", "/simulate", "/runs/" + id + "/abort", "/runs/" + id + "/delete"} {
			v := url.Values{}
			for k, x := range form {
				v[k] = x
			}
			if csrf != "" {
				v.Set("csrf", csrf)
			}
			res, body := ts2.post(t, p, v)
			if res.StatusCode != http.StatusForbidden {
				t.Errorf("POST %s with CSRF %q: %s, want 403", p, csrf, res.Status)
			}
			if !strings.Contains(body, "CSRF") {
				t.Errorf("POST %s: the answer does not say why: %s", p, body)
			}
		}
		body, ctype := uploadBody(csrf, "x.swf", []byte("1 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 -1 -1 -1\n"))
		if res, _ := ts2.upload(t, body, ctype); res.StatusCode != http.StatusForbidden {
			t.Errorf("upload with CSRF %q: %s, want 403", csrf, res.Status)
		}
	}
	if n := len(ts2.jobs.list()); n != 1 {
		t.Errorf("%d runs after the refused requests, want the one fake run", n)
	}
	if _, err := os.Stat(filepath.Join(ts.data, "runs", id)); err != nil {
		t.Errorf("a refused delete removed the run: %v", err)
	}
	assertEmpty(t, filepath.Join(ts.data, "traces"))
	// With the right token the same requests go through.
	if res, _ := ts2.post(t, "/runs/"+id+"/delete", url.Values{"csrf": {ts2.csrf}}); res.StatusCode != http.StatusSeeOther {
		t.Errorf("delete with the right CSRF token: %s", res.Status)
	}
	if _, err := os.Stat(filepath.Join(ts.data, "runs", id)); err == nil {
		t.Error("the run is still there after delete")
	}
}

func TestUploadTooLarge(t *testing.T) {
	const limit = 4096
	ts := newTestServer(t, Options{MaxUpload: limit})
	big := bytes.Repeat([]byte("1 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 -1 -1 -1\n"), 2*limit/45)
	for _, chunked := range []bool{false, true} {
		body, ctype := uploadBody(ts.csrf, "big.swf", big)
		var r io.Reader = body
		if chunked { // no Content-Length: the limit is found while streaming
			r = io.MultiReader(body)
		}
		res, msg := ts.upload(t, r, ctype)
		if res.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("chunked=%v: %s, want 413: %s", chunked, res.Status, msg)
		}
		if !strings.Contains(msg, "limit") {
			t.Errorf("chunked=%v: the message does not say the limit: %s", chunked, msg)
		}
		assertEmpty(t, filepath.Join(ts.data, "uploads"))
		assertEmpty(t, filepath.Join(ts.data, "traces"))
	}
	// Just under the limit goes through.
	small := big[:limit-1000]
	small = small[:bytes.LastIndexByte(small, '\n')+1]
	body, ctype := uploadBody(ts.csrf, "small.swf", small)
	if res, msg := ts.upload(t, body, ctype); res.StatusCode != http.StatusSeeOther {
		t.Errorf("an upload under the limit: %s: %s", res.Status, msg)
	}
	assertEmpty(t, filepath.Join(ts.data, "uploads"))
}

func TestUploadClientNameStaysInside(t *testing.T) {
	parent := t.TempDir()
	data := filepath.Join(parent, "data")
	ts := newTestServer(t, Options{Data: data})
	swf := []byte("; MaxNodes: 4\n; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 -1 -1 -1\n2 5 0 20 2 -1 -1 2 20 -1 1 1 1 1 1 -1 -1 -1\n")
	for _, name := range []string{"../../../evil.swf", "../evil.swf", "/tmp/evil.swf", `..\..\evil.swf`, "a/../../evil.swf", "..", "evil\x00.swf"} {
		body, ctype := uploadBody(ts.csrf, name, swf)
		res, msg := ts.upload(t, body, ctype)
		// Go's multipart reader refuses a NUL in a header: a 400 message.
		if want := map[bool]int{false: http.StatusSeeOther, true: http.StatusBadRequest}[strings.ContainsRune(name, 0)]; res.StatusCode != want {
			t.Fatalf("upload named %q: %s, want %d: %s", name, res.Status, want, msg)
		}
	}
	// Nothing outside the data directory; inside only generated names.
	err := filepath.WalkDir(parent, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(data, p)
		if p != parent && strings.HasPrefix(rel, "..") {
			t.Errorf("%s is outside the data directory", p)
		}
		if strings.Contains(d.Name(), "evil") {
			t.Errorf("%s: a client's file name became a path", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat("/tmp/evil.swf"); err == nil {
		t.Error("/tmp/evil.swf exists")
	}
	traces := ts.traces()
	if len(traces) != 6 {
		t.Fatalf("%d traces, want 6", len(traces))
	}
	for _, tr := range traces {
		if strings.ContainsAny(tr.Name, `/\`) || strings.ContainsRune(tr.Name, 0) {
			t.Errorf("shown name %q keeps a path", tr.Name)
		}
	}
}

// gzipBomb is a gzip stream of n bytes of zeros as repeated members of
// 64 MiB (gzip readers read multi-member streams whole).
func gzipBomb(t *testing.T, n int64) []byte {
	const member = 64 << 20
	var one bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&one, gzip.BestCompression)
	if _, err := io.CopyN(zw, zeros{}, member); err != nil {
		t.Fatal(err)
	}
	zw.Close()
	return bytes.Repeat(one.Bytes(), int(n/member))
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

func TestUploadGzipBomb(t *testing.T) {
	ts := newTestServer(t, Options{})
	bomb := gzipBomb(t, 2<<30) // 2 GiB uncompressed
	if len(bomb) > 4<<20 {
		t.Fatalf("the bomb is %d bytes compressed", len(bomb))
	}
	body, ctype := uploadBody(ts.csrf, "bomb.swf.gz", bomb)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res, msg := ts.upload(t, body, ctype)
	runtime.ReadMemStats(&after)
	if res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("gzip bomb: %s, want 413: %s", res.Status, msg)
	}
	if !strings.Contains(msg, "gzip bomb") || !strings.Contains(msg, "decompresses to more than") {
		t.Errorf("the message does not say why: %s", msg)
	}
	// Reading stops at the bound (256 MiB of the 2 GiB) and never holds it.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Errorf("refusing the bomb allocated %d MiB", alloc>>20)
	}
	assertEmpty(t, filepath.Join(ts.data, "uploads"))
	assertEmpty(t, filepath.Join(ts.data, "traces"))
}

func TestInflateBound(t *testing.T) {
	for _, c := range []struct{ size, max, want int64 }{
		{1 << 20, 2 << 30, MinInflate},          // small files may expand to 256 MiB
		{100 << 20, 2 << 30, 6400 << 20},        // 64 ×
		{2 << 30, 2 << 30, 16 << 30},            // capped at 8 × the upload limit
		{1 << 10, 1 << 10, MinInflate},          // never below the minimum
		{2 << 20, DefaultMaxUpload, MinInflate}, // a 2 GiB-of-zeros bomb is ~2 MiB
	} {
		if got := InflateBound(c.size, c.max); got != c.want {
			t.Errorf("InflateBound(%d, %d) = %d, want %d", c.size, c.max, got, c.want)
		}
	}
}

func TestUnknownRun404(t *testing.T) {
	ts := newTestServer(t, Options{})
	id := fakeRun(t, ts.data)
	ts = newTestServer(t, Options{Data: ts.data})
	for _, p := range []string{"/runs/0123456789abcdef", "/runs/nothex", "/runs/..%2f..%2fetc", "/runs/0123456789abcdef/front/0.svg",
		"/runs/0123456789abcdef/export?pick=knee", "/runs/0123456789abcdef/files/job.json", "/traces/0123456789abcdef", "/traces/.%2e", "/traces/x%2f..",
		"/runs/" + id + "/files/../../traces", "/runs/" + id + "/files/%2e%2e/%2e%2e/x", "/runs/" + id + "/front/7.svg", "/no/such/page"} {
		body := get(t, ts.client, ts.ts.URL+p, http.StatusNotFound)
		if strings.Contains(body, "goroutine") || strings.Contains(body, ts.data) {
			t.Errorf("GET %s: the answer shows a stack or a path: %s", p, body)
		}
	}
	for _, p := range []string{"/runs/0123456789abcdef/abort", "/runs/0123456789abcdef/delete"} {
		if res, _ := ts.post(t, p, url.Values{"csrf": {ts.csrf}}); res.StatusCode != http.StatusNotFound {
			t.Errorf("POST %s: %s, want 404", p, res.Status)
		}
	}
	// A run's own files are served.
	if body := get(t, ts.client, ts.ts.URL+"/runs/"+id+"/files/job.json", http.StatusOK); !strings.Contains(body, id) {
		t.Errorf("job.json: %s", body)
	}
}

func TestBadFormsAreMessages(t *testing.T) {
	ts := newTestServer(t, Options{})
	for _, c := range []struct {
		path string
		v    url.Values
		want string
	}{
		{"/tune", url.Values{"policy": {"nope"}}, "policy"},
		{"/tune", url.Values{"policy": {"idle-timeout"}, "evaluations": {"-3"}}, "evaluations"},
		{"/tune", url.Values{"policy": {"idle-timeout"}, "presets": {"x=qos_p90<"}}, "presets"},
		{"/tune", url.Values{"policy": {"idle-timeout"}, "trace": {"../../etc"}}, "trace"},
		{"/tune", url.Values{"policy": {"idle-timeout"}, "trace": {"0123456789abcdef"}}, "no trace"},
		{"/simulate", url.Values{"policy": {"idle-timeout"}, "param.idle_timeout": {"1e99"}}, "idle_timeout"},
		{"/simulate", url.Values{"policy": {"idle-timeout"}, "scheduler": {"lottery"}}, "scheduler"},
	} {
		c.v.Set("csrf", ts.csrf)
		res, body := ts.post(t, c.path, c.v)
		if res.StatusCode != http.StatusBadRequest || !strings.Contains(body, c.want) {
			t.Errorf("POST %s %v: %s, want 400 naming %q: %s", c.path, c.v, res.Status, c.want, body)
		}
	}
	if n := len(ts.jobs.list()); n != 0 {
		t.Errorf("%d runs started by bad forms", n)
	}
}

// fakeRun writes a finished simulation's job.json, as a server would.
func fakeRun(t *testing.T, data string) string { return fakeRunTB(t, data) }

func fakeRunTB(t testing.TB, data string) string {
	t.Helper()
	id := "00000000000000aa"
	j := Job{ID: id, Request: Request{Kind: KindSimulate, Trace: EmbeddedTrace, Policy: "always-on", Scheduler: "fcfs"}, State: Failed, Error: "boom", Command: []string{"ecotune", "simulate"}}
	if err := os.MkdirAll(filepath.Join(data, "runs", id), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := run.WriteJSON(filepath.Join(data, "runs", id, jobFile), &j); err != nil {
		t.Fatal(err)
	}
	return id
}

func assertEmpty(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("%s holds %s", dir, e.Name())
	}
}

func TestParseSize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
	}{
		{"2GiB", 2 << 30}, {"2G", 2 << 30}, {"512MiB", 512 << 20}, {"10", 10}, {"10B", 10}, {"1KiB", 1024}, {"3 MB", 3 << 20}, {"1TiB", 1 << 40},
		{"", 0}, {"GiB", 0}, {"-1GiB", 0}, {"0", 0}, {"1.5GiB", 0}, {"1PiB", 0}, {"9999999999999GiB", 0}, {"1 GiB x", 0},
	} {
		got, err := ParseSize(c.in)
		if c.want == 0 {
			if err == nil {
				t.Errorf("ParseSize(%q) = %d, want an error", c.in, got)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
}
