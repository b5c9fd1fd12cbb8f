package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestSymlinkNotFollowed plants a symbolic link at the destination: the
// write replaces the link and leaves its target untouched.
func TestSymlinkNotFollowed(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(dir, "out")
	if err := os.Symlink(target, dst); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(dst, []byte("new"), Options{}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); string(b) != "precious" {
		t.Errorf("target now %q", b)
	}
	fi, err := os.Lstat(dst)
	if err != nil || fi.Mode()&fs.ModeSymlink != 0 {
		t.Fatalf("destination still a link (%v)", err)
	}
	if b, _ := os.ReadFile(dst); string(b) != "new" {
		t.Errorf("destination %q", b)
	}
	if err := WriteFile(dst, []byte("x"), Options{NoReplace: true}); !errors.Is(err, ErrExists) {
		t.Errorf("NoReplace over an existing file: %v", err)
	}
	if _, err := OpenNoFollow(filepath.Join(dir, "link2"), os.O_RDWR|os.O_CREATE, 0o666); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "link2"))
	if err := os.Symlink(target, filepath.Join(dir, "link2")); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenNoFollow(filepath.Join(dir, "link2"), os.O_RDWR|os.O_APPEND, 0); err == nil {
		t.Error("OpenNoFollow followed a link")
	}
}

// TestModeFollowsUmask: 0666 &^ umask, for several umasks.
func TestModeFollowsUmask(t *testing.T) {
	dir := t.TempDir()
	for _, mask := range []int{0o022, 0o077, 0o002} {
		old := syscall.Umask(mask)
		p := filepath.Join(dir, "f")
		err := WriteFile(p, []byte("x"), Options{})
		syscall.Umask(old)
		if err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if want := fs.FileMode(0o666 &^ mask); fi.Mode().Perm() != want {
			t.Errorf("umask %o: mode %o, want %o", mask, fi.Mode().Perm(), want)
		}
	}
}

// TestErrorRemovesTemp: a failing writer leaves no temporary file and the
// old destination whole.
func TestErrorRemovesTemp(t *testing.T) {
	dir := t.TempDir()
	dst := filepath.Join(dir, "out")
	if err := WriteFile(dst, []byte("old"), Options{}); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := Write(dst, Options{}, func(w io.Writer) error {
		w.Write([]byte("half"))
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("%d files left, want 1", len(entries))
	}
	if b, _ := os.ReadFile(dst); string(b) != "old" {
		t.Errorf("destination %q", b)
	}
	f, err := Create(dst, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !IsTemp(filepath.Base(f.Name())) {
		t.Errorf("IsTemp(%s) false", f.Name())
	}
	f.Close() // a crash: the temporary file stays
	if n, err := RemoveStale(dir); err != nil || n != 1 {
		t.Errorf("RemoveStale: %d, %v", n, err)
	}
}

func TestIsTempFor(t *testing.T) {
	tests := []struct {
		name, base string
		want       bool
	}{
		{".t.parquet.tmp2kejc1fd4hr2h", "t.parquet", true},
		{".t.parquet.tmp123", "t.parquet", true},
		{".t.parquet.tmp", "t.parquet", false},
		{".t.parquet.tmpX1", "t.parquet", false},
		{"t.parquet.tmp12", "t.parquet", false},
		{".u.parquet.tmp12", "t.parquet", false},
		{".t.parquet.tmp1.tmp2", "t.parquet", false},
	}
	for _, c := range tests {
		if got := IsTempFor(c.name, c.base); got != c.want {
			t.Errorf("IsTempFor(%q, %q) = %v, want %v", c.name, c.base, got, c.want)
		}
	}
}

// A name Create makes is recognised for its destination.
func TestCreateNameIsTempFor(t *testing.T) {
	dir := t.TempDir()
	f, err := Create(filepath.Join(dir, "out.csv"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if base := filepath.Base(f.Name()); !IsTempFor(base, "out.csv") {
		t.Errorf("IsTempFor(%q, out.csv) = false", base)
	}
}
