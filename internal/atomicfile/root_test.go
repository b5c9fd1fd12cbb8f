package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestWriteIn: inside a root, a link at the destination is replaced (its
// target outside untouched), names that are not one component are
// refused, NoReplace and Mode hold, and a stale temporary file is found.
func TestWriteIn(t *testing.T) {
	outside := t.TempDir()
	precious := filepath.Join(outside, "precious")
	if err := os.WriteFile(precious, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(precious, filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "sub")); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if err := WriteFileIn(root, "out", []byte("new"), Options{}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(precious); string(b) != "precious" {
		t.Errorf("target outside now %q", b)
	}
	if fi, err := os.Lstat(filepath.Join(dir, "out")); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("destination not a regular file (%v)", err)
	}
	for _, name := range []string{"sub/x", "../x", "", ".", ".."} {
		if err := WriteFileIn(root, name, []byte("x"), Options{}); err == nil {
			t.Errorf("WriteFileIn(%q) succeeded", name)
		}
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 1 {
		t.Errorf("%d entries outside, want 1", len(entries))
	}
	if err := WriteFileIn(root, "out", []byte("x"), Options{NoReplace: true}); !errors.Is(err, ErrExists) {
		t.Errorf("NoReplace over an existing file: %v", err)
	}
	old := syscall.Umask(0o022)
	err = WriteFileIn(root, "private", []byte("x"), Options{Mode: 0o600})
	syscall.Umask(old)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := root.Stat("private"); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v (%v), want 0600", fi.Mode().Perm(), err)
	}
	f, err := CreateIn(root, "crash", Options{})
	if err != nil {
		t.Fatal(err)
	}
	f.Close() // a crash: the temporary file stays
	if n, err := RemoveStaleIn(root); err != nil || n != 1 {
		t.Errorf("RemoveStaleIn: %d, %v", n, err)
	}
	if _, err := root.Lstat("crash"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("crash exists: %v", err)
	}
}
