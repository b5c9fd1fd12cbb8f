package serve

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"

	"github.com/ecotune/ecotune/run"
)

// Options configure a Server.
type Options struct {
	// Data is the data directory (traces, runs, uploads); created if
	// missing.
	Data string
	// MaxUpload bounds an uploaded file, in bytes; default DefaultMaxUpload.
	MaxUpload int64
	// Jobs is how many runs go at once (the rest queue); default 1.
	Jobs int
	// Workers is each run's simulation workers; default GOMAXPROCS / Jobs.
	Workers int
	// Token is the access token; "" draws a random one.
	Token string
	// Version is written into run.json as `ecotune tune` does.
	Version string
	// Log receives the server's messages; default os.Stderr.
	Log io.Writer
}

// DefaultMaxUpload is the default bound of an upload: 2 GiB.
const DefaultMaxUpload = 2 << 30

// EmbeddedTrace is the trace ID of the embedded default trace.
const EmbeddedTrace = "embedded"

// Server is the workbench: an http.Handler over a data directory and the
// runs it holds.
type Server struct {
	data      string
	root      *run.Root // data, private: files 0600, directories 0700
	maxUpload int64
	workers   int
	token     string
	csrf      string
	version   string
	log       io.Writer
	jobs      *manager
	stop      context.CancelFunc
	mux       *http.ServeMux
	tmpl      *template.Template
}

//go:embed templates/*.html
var templatesFS embed.FS

//go:embed static
var staticFS embed.FS

// New opens the data directory, lists its runs and restarts the runs an
// earlier server left queued or running (a tune from its checkpoint).
func New(o Options) (*Server, error) {
	if o.Data == "" {
		return nil, errors.New("serve: no data directory")
	}
	if o.MaxUpload <= 0 {
		o.MaxUpload = DefaultMaxUpload
	}
	if o.Jobs <= 0 {
		o.Jobs = 1
	}
	if o.Workers <= 0 {
		o.Workers = max(1, runtime.GOMAXPROCS(0)/o.Jobs)
	}
	if o.Log == nil {
		o.Log = os.Stderr
	}
	data, err := filepath.Abs(o.Data)
	if err != nil {
		return nil, fmt.Errorf("serve: data directory %s: %w", o.Data, err)
	}
	root, err := openData(data)
	if err != nil {
		return nil, err
	}
	// Uploads a stopped server was receiving are incomplete.
	if entries, err := os.ReadDir(filepath.Join(data, "uploads")); err == nil {
		for _, e := range entries {
			os.RemoveAll(filepath.Join(data, "uploads", e.Name()))
		}
	}
	tok := o.Token
	if tok == "" {
		if tok, err = randomHex(24); err != nil {
			return nil, err
		}
	}
	csrf, err := randomHex(24)
	if err != nil {
		return nil, err
	}
	tmpl, err := template.New("").Funcs(funcs).ParseFS(templatesFS, "templates/*.html")
	if err != nil {
		return nil, fmt.Errorf("serve: templates: %w", err)
	}
	ctx, stop := context.WithCancel(context.Background())
	s := &Server{data: data, root: root, maxUpload: o.MaxUpload, workers: o.Workers, token: tok, csrf: csrf, version: o.Version, log: o.Log, stop: stop, tmpl: tmpl}
	s.jobs = &manager{s: s, jobs: map[string]*job{}, sem: make(chan struct{}, o.Jobs), subs: map[chan []byte]struct{}{}, ctx: ctx}
	s.routes()
	if err := s.jobs.load(); err != nil {
		stop()
		return nil, err
	}
	return s, nil
}

// Token is the access token.
func (s *Server) Token() string { return s.token }

// Close stops the running jobs, leaving them to be resumed by the next
// server on the same data directory, and waits for them.
func (s *Server) Close() {
	s.stop()
	s.jobs.wg.Wait()
	s.root.Close()
}

// openData creates and opens the data directory as a private run.Root
// (files 0600, directories 0700, whatever the umask) with its traces/,
// runs/ and uploads/, and restricts what an earlier server left there.
func openData(data string) (*run.Root, error) {
	r, err := run.CreateRoot(data)
	if err != nil {
		return nil, fmt.Errorf("serve: data directory: %w", err)
	}
	root, err := r.Private()
	if err == nil {
		for _, d := range []string{"traces", "runs", "uploads"} {
			var sub *run.Root
			if sub, err = root.MkSub(d); err != nil {
				break
			}
			err = sub.Restrict()
			sub.Close()
			if err != nil {
				break
			}
		}
	}
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("serve: data directory: %w", err)
	}
	return root, nil
}

// sub opens the directory name (slash-separated) beneath the data
// directory, creating it (0700) if missing; a link on the way is refused.
func (s *Server) sub(name string) (*run.Root, error) {
	r, err := s.root.MkSub(name)
	if err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	return r, nil
}

// restrict makes the files code writing by path (the tuner, the
// importer) added beneath the data directory's name 0600 and its
// directories 0700.
func (s *Server) restrict(name string) error {
	r, err := s.root.Sub(name)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	defer r.Close()
	return r.Restrict()
}

// ServeHTTP implements http.Handler: every request needs the access
// token, every state-changing one the CSRF token too.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			fmt.Fprintf(s.log, "serve: %s %s: panic: %v\n", r.Method, r.URL.Path, v)
			s.fail(w, r, http.StatusInternalServerError, "internal error (the server's log says more)")
		}
	}()
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("X-Frame-Options", "DENY")
	w.Header().Set("Referrer-Policy", "no-referrer")
	if q := r.URL.Query().Get("token"); q != "" {
		if !s.tokenOK(q) {
			s.fail(w, r, http.StatusUnauthorized, "wrong access token: open the URL that `ecotune serve` printed")
			return
		}
		http.SetCookie(w, &http.Cookie{Name: s.cookieName(), Value: s.token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		u := *r.URL
		v := u.Query()
		v.Del("token")
		u.RawQuery = v.Encode()
		http.Redirect(w, r, u.RequestURI(), http.StatusSeeOther)
		return
	}
	if !s.authorized(r) {
		s.fail(w, r, http.StatusUnauthorized, "access token missing or wrong: open the URL that `ecotune serve` printed (http://HOST:PORT/?token=...)")
		return
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead:
	default:
		if err := parseFormWithFile(r); err != nil {
			status := http.StatusBadRequest
			var mb *http.MaxBytesError
			if errors.As(err, &mb) {
				status = http.StatusRequestEntityTooLarge
			}
			s.fail(w, r, status, strings.TrimPrefix(r.URL.Path, "/")+": "+err.Error())
			return
		}
		if !s.csrfOK(r) {
			s.fail(w, r, http.StatusForbidden, "missing or wrong CSRF token: reload the page and try again")
			return
		}
	}
	s.mux.ServeHTTP(w, r)
}

// cookieName is the access cookie's name, one per token: cookies do not
// keep ports apart, so two servers on one host keep their own.
func (s *Server) cookieName() string {
	h := sha256.Sum256([]byte("ecotune cookie " + s.token))
	return "ecotune_" + hex.EncodeToString(h[:6])
}

func (s *Server) tokenOK(t string) bool {
	return subtle.ConstantTimeCompare([]byte(t), []byte(s.token)) == 1
}

func (s *Server) authorized(r *http.Request) bool {
	if c, err := r.Cookie(s.cookieName()); err == nil && s.tokenOK(c.Value) {
		return true
	}
	if a, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && s.tokenOK(a) {
		return true
	}
	return false
}

// csrfOK checks the X-CSRF-Token header, else the csrf form field of a
// URL-encoded body (a multipart upload checks its first part itself).
func (s *Server) csrfOK(r *http.Request) bool {
	if h := r.Header.Get("X-CSRF-Token"); h != "" {
		return subtle.ConstantTimeCompare([]byte(h), []byte(s.csrf)) == 1
	}
	if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data") {
		switch r.URL.Path {
		case "/traces":
			return true // checked by upload: the first part must be the token
		case "/simulate", "/tune": // parsed by parseFormWithFile
			return r.MultipartForm != nil && subtle.ConstantTimeCompare([]byte(r.PostForm.Get("csrf")), []byte(s.csrf)) == 1
		}
	}
	r.Body = http.MaxBytesReader(nil, r.Body, 1<<20)
	if err := r.ParseForm(); err != nil {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(r.PostForm.Get("csrf")), []byte(s.csrf)) == 1
}

// maxFormBody bounds a multipart simulation or tuning form (a cluster
// file and the fields).
const maxFormBody = 2 * maxClusterText

// parseFormWithFile reads the multipart form of a simulation or a tuning
// (one with a cluster file), at most maxFormBody bytes; other requests
// are left as they are.
func parseFormWithFile(r *http.Request) error {
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data") || (r.URL.Path != "/simulate" && r.URL.Path != "/tune") {
		return nil
	}
	r.Body = http.MaxBytesReader(nil, r.Body, maxFormBody)
	if err := r.ParseMultipartForm(maxFormBody); err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			return fmt.Errorf("the form is larger than %d bytes (a cluster file may have %d): %w", maxFormBody, maxClusterText, err)
		}
		return fmt.Errorf("reading the form: %w", err)
	}
	return nil
}

var idPattern = regexp.MustCompile(`^[0-9a-f]{16}$`)

func validID(id string) bool { return idPattern.MatchString(id) }

func newID() (string, error) { return randomHex(8) }

func randomHex(n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("serve: random: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// page is what every template gets.
type page struct {
	Title string
	CSRF  string
	Nav   string
	Data  any
}

func (s *Server) render(w http.ResponseWriter, status int, name, title string, data any) {
	var b strings.Builder
	if err := s.tmpl.ExecuteTemplate(&b, name, page{Title: title, CSRF: s.csrf, Nav: name, Data: data}); err != nil {
		fmt.Fprintf(s.log, "serve: template %s: %v\n", name, err)
		http.Error(w, "internal error (the server's log says more)", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	io.WriteString(w, b.String())
}

// fail shows msg as the page, with the status code.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, status int, msg string) {
	if status == http.StatusUnauthorized || r.Header.Get("HX-Request") != "" {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(status)
		io.WriteString(w, msg+"\n")
		return
	}
	s.render(w, status, "error", http.StatusText(status), msg)
}

func (s *Server) routes() {
	m := http.NewServeMux()
	static, _ := fs.Sub(staticFS, "static")
	m.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	m.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/runs", http.StatusSeeOther) })
	m.HandleFunc("GET /traces", s.tracesPage)
	m.HandleFunc("POST /traces", s.upload)
	m.HandleFunc("GET /traces/{id}", s.tracePage)
	m.HandleFunc("GET /simulate", s.simulateForm)
	m.HandleFunc("POST /simulate", s.simulateStart)
	m.HandleFunc("GET /tune", s.tuneForm)
	m.HandleFunc("POST /tune", s.tuneStart)
	m.HandleFunc("GET /runs", s.runsPage)
	m.HandleFunc("GET /events", s.events)
	m.HandleFunc("GET /runs/{id}", s.runPage)
	m.HandleFunc("POST /runs/{id}/abort", s.abortRun)
	m.HandleFunc("POST /runs/{id}/delete", s.deleteRun)
	m.HandleFunc("GET /runs/{id}/front/{n}", s.frontSVG)
	m.HandleFunc("GET /runs/{id}/export", s.exportPick)
	m.HandleFunc("GET /runs/{id}/files/{path...}", s.runFile)
	m.HandleFunc("GET /compare", s.comparePage)
	m.HandleFunc("GET /compare/front.svg", s.compareSVG)
	m.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.fail(w, r, http.StatusNotFound, "no such page: "+r.URL.Path)
	})
	s.mux = m
}
