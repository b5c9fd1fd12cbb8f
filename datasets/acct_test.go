package datasets

import (
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/internal/testtrace"
)

// acctTraces is the shared traces directory (../shared/traces), failing
// or skipping the test as testtrace does when it is missing.
func acctTraces(t testing.TB) string {
	t.Helper()
	return filepath.Dir(testtrace.Trace(t, "SOURCES.md"))
}

// acctSample returns the path of a file under the traces directory; a
// missing file fails the test under CI=true and skips it otherwise.
func acctSample(t testing.TB, rel string) string {
	t.Helper()
	return testtrace.Trace(t, rel)
}

// acctOpen opens a file, decompressing .gz.
func acctOpen(t testing.TB, path string) io.Reader {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	if !strings.HasSuffix(path, ".gz") {
		return f
	}
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	return z
}

// acctFormat returns the registered format called name.
func acctFormat(t testing.TB, name string) Format {
	t.Helper()
	for _, f := range Formats() {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("no format %q", name)
	return Format{}
}

// acctReadAll reads every job of r with the named format's reader.
func acctReadAll(t testing.TB, name string, r io.Reader, file string, lenient bool) ([]Job, Meta, error) {
	t.Helper()
	rd, err := acctFormat(t, name).NewReader(r, file, ReadOptions{Format: name, Lenient: lenient})
	if err != nil {
		return nil, Meta{}, err
	}
	var jobs []Job
	for {
		j, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return jobs, rd.Meta(), nil
		}
		if err != nil {
			return jobs, rd.Meta(), err
		}
		jobs = append(jobs, j)
	}
}

// acctReadFile reads a sample file under the traces directory.
func acctReadFile(t testing.TB, name, rel string, lenient bool) ([]Job, Meta, error) {
	t.Helper()
	p := acctSample(t, rel)
	return acctReadAll(t, name, acctOpen(t, p), filepath.Base(p), lenient)
}

// acctReadString reads a log given as text.
func acctReadString(t testing.TB, name, text string, lenient bool) ([]Job, Meta, error) {
	t.Helper()
	return acctReadAll(t, name, strings.NewReader(text), "test.log", lenient)
}

// acctWantError checks that err is a *ParseError at file:line naming field
// (when field is not empty) and matching sentinel.
func acctWantError(t *testing.T, err error, fileLine, field string, sentinel error) {
	t.Helper()
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T), want a *ParseError", err, err)
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, fileLine+":") && !strings.HasPrefix(msg, fileLine+" ") {
		t.Errorf("error %q does not start with %q", msg, fileLine)
	}
	if field != "" && (pe.Field != field || !strings.Contains(msg, "field "+field)) {
		t.Errorf("error %q: field %q, want %q", msg, pe.Field, field)
	}
	if !errors.Is(err, sentinel) {
		t.Errorf("error %q does not wrap %v", msg, sentinel)
	}
}

// acctCheckBadRecord checks how the reader of format takes text whose
// record at line is bad: strict mode fails there naming field (when not
// empty) and wrapping sentinel; lenient mode keeps wantJobs jobs and counts
// the record once under reason.
func acctCheckBadRecord(t *testing.T, format, text string, line int, field, reason string, sentinel error, wantJobs int) {
	t.Helper()
	_, _, err := acctReadString(t, format, text, false)
	acctWantError(t, err, "test.log:"+itoa(line), field, sentinel)
	jobs, meta, err := acctReadString(t, format, text, true)
	if err != nil || len(jobs) != wantJobs || meta.Skipped[reason] != 1 {
		t.Errorf("lenient: %d jobs, skipped %v, err %v; want %d jobs, %s: 1", len(jobs), meta.Skipped, err, wantJobs, reason)
	}
}

// acctBadLine is a case of a reader's error table: the record at line made
// bad by replacing old with new once, the field named and the skip reason.
type acctBadLine struct {
	name          string
	line          int
	old, new      string
	field, reason string
	sentinel      error
}

// acctCheckBadLines runs acctCheckBadRecord on text made bad by each case.
func acctCheckBadLines(t *testing.T, format, text string, wantJobs int, cases []acctBadLine) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bad := acctReplaceLine(t, text, c.line, c.old, c.new)
			acctCheckBadRecord(t, format, bad, c.line, c.field, c.reason, c.sentinel, wantJobs)
		})
	}
}

// acctReplaceLine returns text with its 1-based line n replaced by
// applying old→new once.
func acctReplaceLine(t *testing.T, text string, n int, old, new string) string {
	t.Helper()
	lines := strings.Split(text, "\n")
	if !strings.Contains(lines[n-1], old) {
		t.Fatalf("line %d has no %q: %q", n, old, lines[n-1])
	}
	lines[n-1] = strings.Replace(lines[n-1], old, new, 1)
	return strings.Join(lines, "\n")
}

// acctReadText reads the text of a file under testdata or the traces.
func acctReadText(t testing.TB, path string) string {
	t.Helper()
	b, err := io.ReadAll(acctOpen(t, path))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func stringsReader(s string) io.Reader { return strings.NewReader(s) }

func itoa(n int) string { return strconv.Itoa(n) }

func TestAcctNumbers(t *testing.T) {
	ints := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"0", 0, true}, {"-1", -1, true}, {"+7", 7, true}, {"9223372036854775807", 9223372036854775807, true},
		{"9223372036854775808", 0, false}, {"9999999999999999999", 0, false}, {"", 0, false}, {"-", 0, false},
		{"1.5", 0, false}, {"1e3", 0, false}, {" 1", 0, false},
	}
	for _, c := range ints {
		got, ok := acctInt([]byte(c.in))
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("acctInt(%q) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
	numbers := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"60.0", 60, true}, {"57.5", 58, true}, {"-2.5", -3, true}, {"12", 12, true},
		{"1e3", 0, false}, {"NaN", 0, false}, {"1.2.3", 0, false}, {"9e99", 0, false},
	}
	for _, c := range numbers {
		got, ok := acctNumber([]byte(c.in))
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("acctNumber(%q) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
	if _, ok := acctDigits([]byte("-5")); ok {
		t.Error("acctDigits accepted a sign")
	}
}
