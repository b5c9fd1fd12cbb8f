package testtrace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeTB records what Path does with a missing file instead of stopping
// the calling test.
type fakeTB struct {
	testing.TB
	fatal, skip string
}

func (f *fakeTB) Helper()               {}
func (f *fakeTB) Fatal(args ...any)     { f.fatal = args[0].(string); panic(f) }
func (f *fakeTB) Skip(args ...any)      { f.skip = args[0].(string); panic(f) }
func (f *fakeTB) Fatalf(string, ...any) { panic("unexpected Fatalf") }
func (f *fakeTB) Skipf(string, ...any)  { panic("unexpected Skipf") }
func (f *fakeTB) Errorf(string, ...any) { panic("unexpected Errorf") }
func (f *fakeTB) Logf(string, ...any)   {}
func (f *fakeTB) Cleanup(func())        {}
func (f *fakeTB) Name() string          { return "fake" }
func (f *fakeTB) TempDir() string       { return os.TempDir() }
func (f *fakeTB) Setenv(k, v string)    {}

// call runs Path on a fakeTB, returning its result and the fake.
func call(rel string) (path string, f *fakeTB) {
	f = &fakeTB{}
	defer func() {
		if r := recover(); r != nil && r != any(f) {
			panic(r)
		}
	}()
	return Path(f, rel), f
}

// A missing file fails under CI=true and skips otherwise, both naming
// ../shared; a present file is returned, under ECOTUNE_SHARED's directory.
func TestPath(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "traces"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "traces", "x.swf"), []byte("; x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(Env, dir)
	tests := []struct {
		ci, rel             string
		wantFatal, wantSkip bool
	}{
		{"true", "traces/x.swf", false, false},
		{"", "traces/x.swf", false, false},
		{"true", "traces/missing.swf", true, false},
		{"", "traces/missing.swf", false, true},
		{"false", "traces/missing.swf", false, true},
	}
	for _, tc := range tests {
		t.Setenv("CI", tc.ci)
		got, f := call(tc.rel)
		if (f.fatal != "") != tc.wantFatal || (f.skip != "") != tc.wantSkip {
			t.Errorf("CI=%q %s: fatal %q, skip %q", tc.ci, tc.rel, f.fatal, f.skip)
			continue
		}
		if msg := f.fatal + f.skip; msg != "" && !strings.Contains(msg, "../shared/"+tc.rel) {
			t.Errorf("CI=%q %s: message %q does not name ../shared", tc.ci, tc.rel, msg)
		}
		if !tc.wantFatal && !tc.wantSkip && got != filepath.Join(dir, filepath.FromSlash(tc.rel)) {
			t.Errorf("CI=%q %s: path %q", tc.ci, tc.rel, got)
		}
	}
}

// Without ECOTUNE_SHARED, Dir is ../shared beside the directory holding
// go.mod.
func TestDirBesideModule(t *testing.T) {
	t.Setenv(Env, "")
	d, err := Dir()
	if err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.Abs(filepath.Join("..", "..", "..", "shared"))
	if got, _ := filepath.Abs(d); got != want {
		t.Errorf("Dir() = %s, want %s", got, want)
	}
}
