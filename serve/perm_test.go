package serve

import (
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestDataPrivate: under umask 022, everything in the data directory is
// its owner's alone: a directory an earlier server left 0755 with a file
// 0644 in it, an uploaded trace, a simulation and a tune (whose files
// the tuner writes by path, with the umask's modes) all end 0700 for
// directories and 0600 for files.
func TestDataPrivate(t *testing.T) {
	if testing.Short() {
		t.Skip("tunes")
	}
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	data := t.TempDir()
	if err := os.MkdirAll(filepath.Join(data, "runs", "old"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, "runs", "old", "left.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	ts := newTestServer(t, Options{Data: data, Workers: 1})
	body, ctype := uploadBody(ts.csrf, "x.swf", []byte("1 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 -1 -1 -1\n2 5 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 -1 -1 -1\n"))
	if res, b := ts.upload(t, body, ctype); res.StatusCode != http.StatusSeeOther {
		t.Fatalf("upload: %s: %s", res.Status, b)
	}
	res, b := ts.post(t, "/simulate", url.Values{"csrf": {ts.csrf}, "policy": {"idle-timeout"}, "param.idle_timeout": {"900"}, "scheduler": {"fcfs"}})
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("POST /simulate: %s: %s", res.Status, b)
	}
	sim := newestRun(t, ts.Server, KindSimulate)
	tune := ts.startTune(t, withSeed(smallTune, "1"))
	ts.wait(t, sim, Done)
	ts.wait(t, tune, Done)
	files, dirs := 0, 0
	err := filepath.WalkDir(data, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		want := fs.FileMode(0o600)
		if fi.IsDir() {
			want = 0o700
			dirs++
		} else {
			files++
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %o, want %o", strings.TrimPrefix(p, data), fi.Mode().Perm(), want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 10 || dirs < 5 {
		t.Errorf("only %d files and %d directories checked", files, dirs)
	}
	t.Logf("%d files 0600, %d directories 0700 under umask 022", files, dirs)
}
