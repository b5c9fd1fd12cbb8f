package daemon

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/ecotune/ecotune/internal/atomicfile"
)

// TestStateFileInRoot: the state file is written 0600 whatever the
// umask, a link planted at it is replaced (its target outside untouched)
// and refused when read, and no temporary file is left.
func TestStateFileInRoot(t *testing.T) {
	tests := []struct {
		name  string
		umask int
		link  bool
	}{
		{"umask 022", 0o022, false},
		{"umask 002", 0o002, false},
		{"link at the state file", 0o022, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir, outside := t.TempDir(), t.TempDir()
			precious := filepath.Join(outside, "precious")
			if err := os.WriteFile(precious, []byte("precious"), 0o644); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, stateFile)
			if tc.link {
				if err := os.Symlink(precious, path); err != nil {
					t.Fatal(err)
				}
				if _, _, err := LoadHistory(dir); err == nil || !strings.Contains(err.Error(), "symbolic link") {
					t.Errorf("load through the link: %v", err)
				}
			}
			h := NewHistory(1000, 0, []string{"a"})
			old := syscall.Umask(tc.umask)
			err := h.Save(dir)
			syscall.Umask(old)
			if err != nil {
				t.Fatal(err)
			}
			fi, err := os.Lstat(path)
			if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
				t.Fatalf("state file %v (%v), want a regular file 0600", fi.Mode(), err)
			}
			if b, _ := os.ReadFile(precious); string(b) != "precious" {
				t.Errorf("the link's target now %q", b)
			}
			if _, ok, err := LoadHistory(dir); !ok || err != nil {
				t.Errorf("load: %v %v", ok, err)
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if atomicfile.IsTemp(e.Name()) {
					t.Errorf("temporary file %s left", e.Name())
				}
			}
		})
	}
}
