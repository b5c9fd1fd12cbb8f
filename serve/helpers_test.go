package serve

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"testing"
	"time"
)

// testServer is a Server behind httptest, with a client that opened the
// token URL (so it holds the cookie) and the page's CSRF token.
type testServer struct {
	*Server
	ts     *httptest.Server
	client *http.Client
	csrf   string
	data   string
}

func newTestServer(t *testing.T, o Options) *testServer {
	t.Helper()
	if o.Data == "" {
		o.Data = t.TempDir()
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	s, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(func() { ts.Close(); s.Close() })
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 60 * time.Second}
	res, err := c.Get(ts.URL + "/?token=" + s.Token())
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("opening the token URL: %s", res.Status)
	}
	body := get(t, c, ts.URL+"/traces", http.StatusOK)
	m := regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`).FindStringSubmatch(body)
	if m == nil {
		t.Fatal("no CSRF token in the traces page")
	}
	return &testServer{Server: s, ts: ts, client: c, csrf: m[1], data: o.Data}
}

// noRedirect is a client that reports redirects instead of following.
func (ts *testServer) noRedirect() *http.Client {
	c := *ts.client
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &c
}

func get(t *testing.T, c *http.Client, u string, want int) string {
	t.Helper()
	res, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != want {
		t.Fatalf("GET %s: %s, want %d: %s", u, res.Status, want, b)
	}
	return string(b)
}

func (ts *testServer) post(t *testing.T, path string, v url.Values) (*http.Response, string) {
	t.Helper()
	res, err := ts.noRedirect().PostForm(ts.ts.URL+path, v)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

// uploadBody is a multipart form as the traces page sends it.
func uploadBody(csrf, fileName string, content []byte) (*bytes.Buffer, string) {
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	if csrf != "" {
		mw.WriteField("csrf", csrf)
	}
	mw.WriteField("format", "auto")
	fw, _ := mw.CreateFormFile("file", fileName)
	fw.Write(content)
	mw.Close()
	return &b, mw.FormDataContentType()
}

func (ts *testServer) upload(t *testing.T, body io.Reader, ctype string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, ts.ts.URL+"/traces", body)
	req.Header.Set("Content-Type", ctype)
	res, err := ts.noRedirect().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}
