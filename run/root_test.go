package run

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/internal/atomicfile"
)

// layoutDirs and layoutFiles are a run directory's layout as the tools
// write it: the run's files, its report, a --policies run's POLICY/ and
// a --windows run's window-K/ with their own files and reports.
var (
	layoutDirs  = []string{ReportDir, "easy", "easy/" + ReportDir, "window-0", "window-0/" + ReportDir}
	layoutFiles = map[string][]string{
		"":                      {ManifestFile, FrontJSON, FrontCSV, CheckpointJSON},
		ReportDir:               {"report.html", "report.md"},
		"easy":                  {ManifestFile, FrontJSON},
		"easy/" + ReportDir:     {"report.html"},
		"window-0":              {ManifestFile, CheckpointJSON},
		"window-0/" + ReportDir: {"report.csv"},
	}
)

// writeLayout writes every file of the layout beneath r, each directory
// through MkSub, and returns the first error.
func writeLayout(r *Root) error {
	dirs := append([]string{""}, layoutDirs...)
	for _, d := range dirs {
		sub := r
		if d != "" {
			var err error
			if sub, err = r.MkSub(d); err != nil {
				return err
			}
		}
		for _, f := range layoutFiles[d] {
			if err := sub.WriteFile(f, []byte("new "+f+"\n"), atomicfile.Options{}); err != nil {
				return err
			}
		}
		if sub != r {
			sub.Close()
		}
	}
	return nil
}

// readLayout reads every file of the layout beneath r.
func readLayout(r *Root) error {
	for d, files := range layoutFiles {
		sub := r
		if d != "" {
			var err error
			if sub, err = r.Sub(d); err != nil {
				return err
			}
		}
		for _, f := range files {
			if _, err := sub.ReadFile(f); err != nil {
				return err
			}
		}
		if sub != r {
			sub.Close()
		}
	}
	return nil
}

// snapshot lists every entry beneath dir with its content or link target.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case e.Type()&fs.ModeSymlink != 0:
			l, _ := os.Readlink(p)
			m[rel] = "-> " + l
		case e.Type().IsRegular():
			b, _ := os.ReadFile(p)
			m[rel] = string(b)
		default:
			m[rel] = "dir"
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestLinkAnywhereRefused plants one symbolic link at every position of
// the layout, every directory and every file, pointing outside the run
// directory (to a directory, to a file) or inside it (to a sibling
// directory), and writes then reads the whole layout: a link at a
// directory is refused with an error naming it, a link at a file is
// replaced by the write and refused by the read, and nothing outside
// ever changes.
func TestLinkAnywhereRefused(t *testing.T) {
	type placement struct{ at, target string }
	var places []placement
	positions := slices.Clone(layoutDirs)
	for d, files := range layoutFiles {
		for _, f := range files {
			positions = append(positions, filepath.Join(d, f))
		}
	}
	sort.Strings(positions)
	for _, p := range positions {
		for _, target := range []string{"outside-dir", "outside-file", "inside-dir"} {
			places = append(places, placement{p, target})
		}
	}
	refusedDirs, replacedFiles := 0, 0
	for _, pl := range places {
		t.Run(strings.ReplaceAll(pl.at, "/", "_")+"->"+pl.target, func(t *testing.T) {
			base := t.TempDir()
			outside := filepath.Join(base, "outside")
			if err := os.MkdirAll(filepath.Join(outside, ReportDir), 0o777); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(outside, "precious"), []byte("precious"), 0o666); err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(base, "R")
			if err := os.MkdirAll(filepath.Join(dir, "elsewhere"), 0o777); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, pl.at)), 0o777); err != nil {
				t.Fatal(err)
			}
			target := map[string]string{
				"outside-dir":  outside,
				"outside-file": filepath.Join(outside, "precious"),
				"inside-dir":   filepath.Join(dir, "elsewhere"),
			}[pl.target]
			if err := os.Symlink(target, filepath.Join(dir, pl.at)); err != nil {
				t.Fatal(err)
			}
			before := snapshot(t, outside)
			r, err := OpenRoot(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			werr := writeLayout(r)
			if slices.Contains(layoutDirs, pl.at) {
				want := filepath.Join(dir, pl.at) + " is a symbolic link, not a directory: refusing to use it"
				if werr == nil || !strings.Contains(werr.Error(), want) {
					t.Errorf("write: %v, want %q", werr, want)
				}
				refusedDirs++
			} else {
				if werr != nil {
					t.Errorf("write: %v", werr)
				}
				if fi, err := os.Lstat(filepath.Join(dir, pl.at)); err != nil || !fi.Mode().IsRegular() {
					t.Errorf("%s not replaced by a regular file (%v)", pl.at, err)
				}
				replacedFiles++
			}
			if got := snapshot(t, outside); !equalMaps(got, before) {
				t.Errorf("outside changed: %v, was %v", got, before)
			}
			if entries, _ := os.ReadDir(filepath.Join(dir, "elsewhere")); len(entries) != 0 {
				t.Errorf("%d files written through the link inside", len(entries))
			}
			// Read: a whole layout with the link planted again in it.
			clean := filepath.Join(base, "clean")
			c, err := CreateRoot(clean)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if err := writeLayout(c); err != nil {
				t.Fatal(err)
			}
			if err := os.RemoveAll(filepath.Join(clean, pl.at)); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, filepath.Join(clean, pl.at)); err != nil {
				t.Fatal(err)
			}
			if err := readLayout(c); err == nil || !strings.Contains(err.Error(), filepath.Join(clean, pl.at)+" is a symbolic link") {
				t.Errorf("read through the link: %v", err)
			}
		})
	}
	t.Logf("%d placements (%d positions × 3 targets): %d refused at a directory, %d replaced at a file", len(places), len(positions), refusedDirs, replacedFiles)
	if refusedDirs == 0 || replacedFiles == 0 || len(places) < 50 {
		t.Errorf("placements: %d, %d dirs, %d files", len(places), refusedDirs, replacedFiles)
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestRootNames: names that leave or skip a component are refused; files
// are one component.
func TestRootNames(t *testing.T) {
	r, err := OpenRoot(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, name := range []string{"", ".", "..", "../x", "a/../b", "/etc", "a//b"} {
		if _, err := r.MkSub(name); err == nil {
			t.Errorf("MkSub(%q) succeeded", name)
		}
		if err := r.WriteFile(name, nil, atomicfile.Options{}); err == nil {
			t.Errorf("WriteFile(%q) succeeded", name)
		}
	}
	if _, err := r.MkSub("a/b"); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteFile("a/b/f", nil, atomicfile.Options{}); err == nil {
		t.Error("WriteFile(a/b/f) succeeded: files are one component")
	}
	if _, err := r.Sub("missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Sub(missing): %v", err)
	}
}
