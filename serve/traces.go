package serve

import (
	"bytes"
	"compress/gzip"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"math"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/internal/atomicfile"
	"github.com/ecotune/ecotune/run"
)

// TraceInfo is an imported trace (traces/ID/trace.json).
type TraceInfo struct {
	ID       string    `json:"id"`
	Name     string    `json:"name"` // shown only: from the client's file name
	Format   string    `json:"format"`
	Jobs     int       `json:"jobs"`
	Imported time.Time `json:"imported"`
}

const (
	traceFile   = "trace.parquet"
	traceInfo   = "trace.json"
	inspectFile = "inspect.txt"
)

// Decompression bound: a gzip upload may expand to at most
// max(MinInflate, InflateRatio × its compressed size) bytes, and never
// more than 8 × the upload limit; more is refused as a possible gzip bomb.
// Real logs compress 5–20 times.
const (
	MinInflate   = 256 << 20
	InflateRatio = 64
)

func (s *Server) traceInfo(id string) (TraceInfo, error) {
	var t TraceInfo
	if err := run.ReadJSON(filepath.Join(s.data, "traces", id, traceInfo), &t); err != nil {
		return t, fmt.Errorf("no trace %s", id)
	}
	return t, nil
}

// traces lists the imported traces, newest first.
func (s *Server) traces() []TraceInfo {
	entries, _ := os.ReadDir(filepath.Join(s.data, "traces"))
	var out []TraceInfo
	for _, e := range entries {
		if !validID(e.Name()) {
			continue
		}
		if t, err := s.traceInfo(e.Name()); err == nil {
			out = append(out, t)
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Imported.After(out[b].Imported) })
	return out
}

// displayName keeps a client's file name for display only: its base name,
// printable characters, at most 80.
func displayName(name string) string {
	name = name[strings.LastIndexAny(name, `/\`)+1:]
	name = strings.Map(func(r rune) rune {
		if unicode.IsPrint(r) {
			return r
		}
		return -1
	}, name)
	if len([]rune(name)) > 80 {
		name = string([]rune(name)[:80])
	}
	if name == "" || name == "." || name == ".." {
		name = "upload"
	}
	return name
}

// traceBase is a file name without the extensions of logs.
func traceBase(name string) string {
	for _, ext := range []string{".gz", ".swf", ".parquet", ".gwf", ".log", ".txt", ".json", ".csv"} {
		name = strings.TrimSuffix(name, ext)
	}
	if name == "" {
		return "trace"
	}
	return name
}

// httpError is an error with the status it answers.
type httpError struct {
	status int
	msg    string
}

func (e *httpError) Error() string { return e.msg }

// upload receives a log (multipart: csrf first, then format, lenient and
// file), streams it to disk under a generated name, bounds its
// decompression and imports it as `ecotune import` does.
func (s *Server) upload(w http.ResponseWriter, r *http.Request) {
	id, err := s.receive(w, r)
	if err != nil {
		status := http.StatusBadRequest
		var he *httpError
		if errors.As(err, &he) {
			status = he.status
		}
		s.fail(w, r, status, "upload: "+err.Error())
		return
	}
	if r.Header.Get("HX-Request") != "" {
		w.Header().Set("HX-Redirect", "/traces/"+id)
		w.WriteHeader(http.StatusOK)
		return
	}
	http.Redirect(w, r, "/traces/"+id, http.StatusSeeOther)
}

// multipartSlack is what a multipart body may hold besides the file.
const multipartSlack = 1 << 20

func (s *Server) receive(w http.ResponseWriter, r *http.Request) (string, error) {
	tooLarge := &httpError{http.StatusRequestEntityTooLarge, fmt.Sprintf("the file is larger than the limit of %s (ecotune serve --max-upload)", bytesText(s.maxUpload))}
	if r.ContentLength > s.maxUpload+multipartSlack {
		return "", tooLarge
	}
	r.Body = http.MaxBytesReader(w, r.Body, s.maxUpload+multipartSlack)
	mr, err := r.MultipartReader()
	if err != nil {
		return "", fmt.Errorf("want a multipart form: %w", err)
	}
	csrfChecked := r.Header.Get("X-CSRF-Token") != "" // ServeHTTP checked it
	var opt datasets.ReadOptions
	for {
		p, err := mr.NextPart()
		if err != nil {
			return "", partError(err, tooLarge)
		}
		name := p.FormName()
		if !csrfChecked {
			if err := s.checkCSRFPart(p); err != nil {
				return "", err
			}
			csrfChecked = true
			continue
		}
		switch name {
		case "format":
			f, err := readFormat(p)
			if err != nil {
				return "", err
			}
			if f != "" {
				opt.Format = f
			}
		case "lenient":
			opt.Lenient = true
		case "file":
			return s.store(p, p.FileName(), opt, tooLarge)
		}
	}
}

// partError is the error of reading the next part of an upload form:
// the end of the form before a file, or tooLarge past the size limit.
func partError(err, tooLarge error) error {
	if err == io.EOF {
		return errors.New("no file in the form")
	}
	var mb *http.MaxBytesError
	if errors.As(err, &mb) {
		return tooLarge
	}
	return fmt.Errorf("reading the form: %w", err)
}

// checkCSRFPart checks that form part p, the first, is the page's CSRF
// token.
func (s *Server) checkCSRFPart(p *multipart.Part) error {
	v, _ := io.ReadAll(io.LimitReader(p, 256))
	if p.FormName() != "csrf" || subtle.ConstantTimeCompare(v, []byte(s.csrf)) != 1 {
		return &httpError{http.StatusForbidden, "missing or wrong CSRF token: reload the page and try again"}
	}
	return nil
}

// readFormat reads the format part of an upload form: a supported
// format's name, or "" for detection (empty or auto).
func readFormat(p io.Reader) (string, error) {
	v, _ := io.ReadAll(io.LimitReader(p, 64))
	f := strings.TrimSpace(string(v))
	if f == "" || f == "auto" {
		return "", nil
	}
	for _, k := range datasets.Formats() {
		if k.Name == f {
			return f, nil
		}
	}
	return "", fmt.Errorf("format %q: not one of the supported formats", f)
}

// store streams a file part to uploads/, then imports it into traces/ID;
// nothing is left of a refused upload.
func (s *Server) store(src io.Reader, clientName string, opt datasets.ReadOptions, tooLarge error) (string, error) {
	id, err := newID()
	if err != nil {
		return "", err
	}
	up := filepath.Join(s.data, "uploads", id+".upload")
	f, err := s.createUpload(id)
	if err != nil {
		return "", fmt.Errorf("storing the upload: %w", err)
	}
	defer os.Remove(up)
	if err := s.copyUpload(f, up, src, tooLarge); err != nil {
		return "", err
	}
	return s.importUpload(id, up, displayName(clientName), opt)
}

// createUpload creates uploads/ID.upload, which must not exist.
func (s *Server) createUpload(id string) (*os.File, error) {
	ups, err := s.sub("uploads")
	if err != nil {
		return nil, err
	}
	defer ups.Close()
	return ups.CreateExcl(id + ".upload")
}

// copyUpload copies src into f, the upload at path up, and closes f; it
// refuses a file larger than the limit (tooLarge) before or after
// decompression, and an empty one.
func (s *Server) copyUpload(f *os.File, up string, src io.Reader, tooLarge error) error {
	n, err := io.Copy(f, io.LimitReader(src, s.maxUpload+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	var mb *http.MaxBytesError
	switch {
	case errors.As(err, &mb) || n > s.maxUpload:
		return tooLarge
	case err != nil:
		return fmt.Errorf("receiving the file: %w", err)
	case n == 0:
		return errors.New("the file is empty")
	}
	return s.checkInflate(up, n)
}

// importUpload imports the upload at path up, the client's file name,
// into traces/ID with its inspection and TraceInfo; nothing is left of
// the trace's directory when it fails.
func (s *Server) importUpload(id, up, name string, opt datasets.ReadOptions) (string, error) {
	dir := filepath.Join(s.data, "traces", id)
	td, err := s.sub("traces/" + id)
	if err != nil {
		return "", fmt.Errorf("storing the trace: %w", err)
	}
	defer td.Close()
	ok := false
	defer func() {
		if !ok {
			os.RemoveAll(dir)
		}
	}()
	// Errors name the file as the client did, never the upload's path.
	meta, err := datasets.Import([]string{up}, filepath.Join(dir, traceFile), datasets.ImportOptions{ReadOptions: opt, TempDir: dir})
	if err != nil {
		return "", importError(name, up, err)
	}
	tr, err := datasets.ReadParquetFile(filepath.Join(dir, traceFile))
	if err != nil {
		return "", fmt.Errorf("importing %s: %w", name, err)
	}
	// The trace is named as the client named its file, not as the upload.
	tr.Meta.Name = traceBase(name)
	if err := datasets.WriteParquetFile(filepath.Join(dir, traceFile), tr, true); err != nil {
		return "", fmt.Errorf("importing %s: %w", name, err)
	}
	var b bytes.Buffer
	if err := datasets.Inspect(tr).WriteText(&b); err != nil {
		return "", err
	}
	if err := td.WriteFile(inspectFile, b.Bytes(), atomicfile.Options{}); err != nil {
		return "", err
	}
	info := TraceInfo{ID: id, Name: name, Format: meta.Format, Jobs: len(tr.Jobs), Imported: time.Now().UTC()}
	if err := td.WriteJSON(traceInfo, &info); err != nil {
		return "", err
	}
	// The importer writes by path, with the umask's modes.
	if err := td.Restrict(); err != nil {
		return "", err
	}
	ok = true
	return id, nil
}

// importError is the error of importing the upload at path up, named
// name by the client: the importer's error with the upload's path
// replaced by name, and the supported formats.
func importError(name, up string, err error) error {
	var names []string
	for _, f := range datasets.Formats() {
		names = append(names, f.Name)
	}
	return fmt.Errorf("importing %s: %s (supported formats: %s; choose the format when detection fails, lenient to skip unreadable records)",
		name, strings.ReplaceAll(err.Error(), up, name), strings.Join(names, ", "))
}

// checkInflate refuses a gzip file that decompresses to more than the
// bound, reading it through once with constant memory.
func (s *Server) checkInflate(path string, size int64) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	var magic [2]byte
	if _, err := io.ReadFull(f, magic[:]); err != nil || magic != [2]byte{0x1f, 0x8b} {
		return nil
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	limit := InflateBound(size, s.maxUpload)
	zr, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("gzip: %w", err)
	}
	n, err := io.Copy(io.Discard, io.LimitReader(zr, limit+1))
	if err != nil {
		return fmt.Errorf("gzip: %w", err)
	}
	if n > limit {
		return &httpError{http.StatusRequestEntityTooLarge, fmt.Sprintf("the file decompresses to more than %s (%d times its compressed size of %s): refused as a possible gzip bomb", bytesText(limit), limit/size, bytesText(size))}
	}
	return nil
}

// ParseSize reads a byte count such as 2GiB: a whole number with an
// optional unit B, KiB, MiB, GiB, TiB (K, M, G, T, KB, MB, GB, TB are the
// same powers of 1024).
func ParseSize(s string) (int64, error) {
	i := strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' })
	num, unit := s, ""
	if i >= 0 {
		num, unit = s[:i], strings.TrimSpace(s[i:])
	}
	n, err := strconv.ParseInt(num, 10, 64)
	shift, ok := map[string]uint{"": 0, "B": 0, "K": 10, "KB": 10, "KiB": 10, "M": 20, "MB": 20, "MiB": 20, "G": 30, "GB": 30, "GiB": 30, "T": 40, "TB": 40, "TiB": 40}[unit]
	if err != nil || !ok || n <= 0 || n > math.MaxInt64>>shift {
		return 0, fmt.Errorf("%q is not a size such as 2GiB (a whole number of B, KiB, MiB, GiB or TiB)", s)
	}
	return n << shift, nil
}

// InflateBound is the most a gzip upload of size bytes may decompress to.
func InflateBound(size, maxUpload int64) int64 {
	b := max(MinInflate, InflateRatio*size)
	return min(b, max(MinInflate, 8*maxUpload))
}

func bytesText(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

func (s *Server) tracesPage(w http.ResponseWriter, r *http.Request) {
	var formats []string
	for _, f := range datasets.Formats() {
		formats = append(formats, f.Name)
	}
	s.render(w, http.StatusOK, "traces", "Traces", map[string]any{"Traces": s.traces(), "Formats": formats, "MaxUpload": bytesText(s.maxUpload)})
}

func (s *Server) tracePage(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	var info TraceInfo
	var text []byte
	var err error
	if id == EmbeddedTrace {
		tr, e := datasets.Default()
		if e != nil {
			s.fail(w, r, http.StatusInternalServerError, e.Error())
			return
		}
		var b bytes.Buffer
		err = datasets.Inspect(tr).WriteText(&b)
		text, info = b.Bytes(), TraceInfo{ID: EmbeddedTrace, Name: tr.Meta.Name + " (embedded)", Jobs: len(tr.Jobs)}
	} else {
		if !validID(id) {
			s.fail(w, r, http.StatusNotFound, "no trace "+id)
			return
		}
		if info, err = s.traceInfo(id); err != nil {
			s.fail(w, r, http.StatusNotFound, err.Error())
			return
		}
		text, err = os.ReadFile(filepath.Join(s.data, "traces", id, inspectFile))
	}
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, err.Error())
		return
	}
	s.render(w, http.StatusOK, "trace", info.Name, map[string]any{"Info": info, "Inspect": string(text)})
}
