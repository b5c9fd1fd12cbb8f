package reports

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/tuner/summary"
)

// outsideState lists the names and contents beneath dir.
func outsideState(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		c, _ := os.ReadFile(p)
		b.WriteString(p + "=" + string(c) + "\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestReportLinkAnywhere plants a symbolic link at each position of a
// run's report layout (report/ itself, to a directory outside, to a file
// outside and to a directory inside the run; each file of the report, to
// a file outside) and writes the report (--force): a link at report/ is
// refused with an error naming it, a link at a file is replaced, never
// followed, and nothing outside changes. A --policies directory whose
// POLICY/ is a link (outside or inside) is refused likewise.
func TestReportLinkAnywhere(t *testing.T) {
	clean := writeTestRun(t)
	if _, err := Write(clean, Options{NoTimeline: true}); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(filepath.Join(clean, "report"))
	if err != nil {
		t.Fatal(err)
	}
	type placement struct{ at, target string }
	places := []placement{{"report", "outside-dir"}, {"report", "outside-file"}, {"report", "inside-dir"}}
	for _, e := range entries {
		places = append(places, placement{filepath.Join("report", e.Name()), "outside-file"})
	}
	refused, replaced := 0, 0
	for _, pl := range places {
		dir := writeTestRun(t)
		if pl.at != "report" {
			if _, err := Write(dir, Options{NoTimeline: true}); err != nil {
				t.Fatal(err)
			}
			os.Remove(filepath.Join(dir, pl.at))
		}
		outside := t.TempDir()
		precious := filepath.Join(outside, "precious")
		if err := os.WriteFile(precious, []byte("precious"), 0o644); err != nil {
			t.Fatal(err)
		}
		inside := filepath.Join(dir, "elsewhere")
		if err := os.Mkdir(inside, 0o777); err != nil {
			t.Fatal(err)
		}
		target := map[string]string{"outside-dir": outside, "outside-file": precious, "inside-dir": inside}[pl.target]
		if err := os.Symlink(target, filepath.Join(dir, pl.at)); err != nil {
			t.Fatal(err)
		}
		before := outsideState(t, outside)
		_, err := Write(dir, Options{NoTimeline: true, Force: true})
		if pl.at == "report" {
			want := filepath.Join(dir, "report") + " is a symbolic link, not a directory: refusing to use it"
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s -> %s: %v, want %q", pl.at, pl.target, err, want)
			}
			refused++
		} else {
			if err != nil {
				t.Errorf("%s -> %s: %v", pl.at, pl.target, err)
			}
			if fi, err := os.Lstat(filepath.Join(dir, pl.at)); err != nil || !fi.Mode().IsRegular() {
				t.Errorf("%s not replaced by a regular file (%v)", pl.at, err)
			}
			replaced++
		}
		if got := outsideState(t, outside); got != before {
			t.Errorf("%s -> %s: outside changed:\n%s", pl.at, pl.target, got)
		}
		if e, _ := os.ReadDir(inside); len(e) != 0 {
			t.Errorf("%s -> %s: %d files written inside through the link", pl.at, pl.target, len(e))
		}
	}
	// A --policies directory whose POLICY/ is a link to a whole run.
	for _, target := range []string{"outside", "inside"} {
		dir := t.TempDir()
		run := writeTestRun(t)
		if target == "inside" {
			if err := os.Rename(run, filepath.Join(dir, "elsewhere")); err != nil {
				t.Fatal(err)
			}
			run = filepath.Join(dir, "elsewhere")
		}
		if err := os.Symlink(run, filepath.Join(dir, "hgfs")); err != nil {
			t.Fatal(err)
		}
		before := outsideState(t, run)
		s := &summary.PoliciesSummary{Policies: []summary.PolicySummary{{Policy: "hgfs", Dir: "hgfs"}}}
		_, err := WritePoliciesRun(dir, s, true)
		want := filepath.Join(dir, "hgfs") + " is a symbolic link, not a directory: refusing to use it"
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("POLICY -> %s: %v, want %q", target, err, want)
		}
		if got := outsideState(t, run); got != before {
			t.Errorf("POLICY -> %s: the linked run changed", target)
		}
		names, _ := os.ReadDir(dir)
		if i := slices.IndexFunc(names, func(e os.DirEntry) bool { return strings.HasPrefix(e.Name(), "policies") }); i >= 0 {
			t.Errorf("POLICY -> %s: %s written after the refusal", target, names[i].Name())
		}
		refused++
	}
	t.Logf("%d placements: %d refused, %d replaced; nothing outside changed", len(places)+2, refused, replaced)
}

// TestWriteSubRefusesLink: a window-K linked to another run is refused by
// WriteSub, and nothing is written in the run it points to; a real one is
// written.
func TestWriteSubRefusesLink(t *testing.T) {
	parent := t.TempDir()
	other := writeTestRun(t)
	if err := os.Symlink(other, filepath.Join(parent, "window-0")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(writeTestRun(t), filepath.Join(parent, "window-1")); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteSub(parent, "window-0", Options{NoTimeline: true}); err == nil || !strings.Contains(err.Error(), "window-0 is a symbolic link") {
		t.Errorf("WriteSub through a link: %v", err)
	}
	if _, err := os.Stat(filepath.Join(other, "report")); err == nil {
		t.Error("a report was written in the linked run")
	}
	html, err := WriteSub(parent, "window-1", Options{NoTimeline: true})
	if err != nil || html != filepath.Join(parent, "window-1", "report", ReportHTML) {
		t.Errorf("WriteSub: %s, %v", html, err)
	}
}
