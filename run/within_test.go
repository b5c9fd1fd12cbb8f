package run

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBeneathRefusesLateLinks: a target made Beneath the user's directory
// (a window, a policy, a seed and a policy in it) is made and opened
// through that directory's root, so a symbolic link planted at any
// component after Beneath checked it (the race a check alone leaves) is
// refused by Prepare, OpenRoot and Start, and nothing is written outside.
func TestBeneathRefusesLateLinks(t *testing.T) {
	for _, tc := range []struct {
		names []string // Beneath, in turn
		link  string   // the component replaced by a link
	}{
		{[]string{"window-1"}, "window-1"},
		{[]string{"seed-1", "hgfs"}, "seed-1"},
		{[]string{"seed-1", "hgfs"}, "seed-1/hgfs"},
	} {
		t.Run(tc.link, func(t *testing.T) {
			top, outside := t.TempDir(), t.TempDir()
			tg := Target{Dir: top}
			var err error
			for _, n := range tc.names {
				if tg, err = tg.Beneath(n); err != nil {
					t.Fatal(err)
				}
			}
			if tg.Within != top || tg.Dir != filepath.Join(append([]string{top}, tc.names...)...) {
				t.Fatalf("Beneath: %+v", tg)
			}
			link := filepath.Join(top, tc.link)
			if err := os.MkdirAll(filepath.Dir(link), 0o777); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, link); err != nil {
				t.Fatal(err)
			}
			if err := tg.Prepare(); err == nil || !strings.Contains(err.Error(), link+" is a symbolic link") {
				t.Errorf("Prepare: %v, want the link refused", err)
			}
			if r, err := tg.OpenRoot(); err == nil || !strings.Contains(err.Error(), link+" is a symbolic link") {
				if r != nil {
					r.Close()
				}
				t.Errorf("OpenRoot: %v, want the link refused", err)
			}
			if err := tg.Start(KindSingle); err == nil {
				t.Error("Start: no error")
			}
			if entries, _ := os.ReadDir(outside); len(entries) != 0 {
				t.Errorf("%d entries written outside", len(entries))
			}
		})
	}
}

// TestBeneathPrepares: without links, Prepare makes the nested directory,
// Start records its kind there, and a non-empty one is refused unless
// resuming or forced, as for the user's own directory.
func TestBeneathPrepares(t *testing.T) {
	top := t.TempDir()
	tg, err := Target{Dir: top}.Beneath("seed-1")
	if err == nil {
		tg, err = tg.Beneath("hgfs")
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := tg.Start(KindSingle); err != nil {
		t.Fatal(err)
	}
	if k, ev, err := RunKind(tg.Dir); err != nil || k != KindSingle || ev != KindJSON {
		t.Errorf("RunKind = %s, %s, %v", k, ev, err)
	}
	if err := tg.Prepare(); err == nil || !strings.Contains(err.Error(), "is not empty") {
		t.Errorf("Prepare of a non-empty directory: %v", err)
	}
	tg.Force = true
	if err := tg.Prepare(); err != nil {
		t.Errorf("forced: %v", err)
	}
	if _, err := (Target{Dir: filepath.Join(top, "elsewhere"), Within: filepath.Join(top, "seed-1")}).OpenRoot(); err == nil {
		t.Error("a Dir not beneath Within opened")
	}
}
