package tuner_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/tuner"
)

// plantLink makes dir/name a symbolic link to a new empty directory
// outside dir, and returns that directory.
func plantLink(t *testing.T, dir, name string) string {
	t.Helper()
	outside := t.TempDir()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, path); err != nil {
		t.Fatal(err)
	}
	return outside
}

// checkRefused checks that err refuses the link at path and that nothing
// was written in outside.
func checkRefused(t *testing.T, err error, path, outside string) {
	t.Helper()
	if err == nil || !strings.Contains(err.Error(), path+" is a symbolic link") {
		t.Errorf("error %v: want the link %s refused", err, path)
	}
	if entries, err := os.ReadDir(outside); err != nil || len(entries) > 0 {
		t.Errorf("%d files written outside the run (%v)", len(entries), err)
	}
}

// TestResumeRefusesLinkedSubdir: a run's window-K/, POLICY/ or seed-S/
// replaced by a link to a directory outside it is refused on resume, the
// link named, and nothing is written outside.
func TestResumeRefusesLinkedSubdir(t *testing.T) {
	for _, tc := range []struct {
		kind tuner.Kind
		sub  string
	}{
		{tuner.KindWindows, "window-1"},
		{tuner.KindPolicies, "hgfs"},
		{tuner.KindSeeds, "seed-1"},
	} {
		t.Run(tc.sub, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "r")
			layOut(t, dir, tc.kind, true)
			outside := plantLink(t, dir, tc.sub)
			err := resumeLinked(t, dir, tc.kind)
			checkRefused(t, err, filepath.Join(dir, tc.sub), outside)
		})
	}
}

// resumeLinked resumes dir with the command of kind k.
func resumeLinked(t *testing.T, dir string, k tuner.Kind) error {
	o, tg := smallTune(t, dir)
	tg.Resume = true
	ctx := context.Background()
	var err error
	switch k {
	case tuner.KindWindows:
		o.Method.Islands, o.Method.MigrationEvery = 0, 0
		_, err = tuner.TuneWindows(ctx, o, tg, 3)
	case tuner.KindPolicies:
		_, err = tuner.TunePolicies(ctx, o, tg, []string{"hgfs", "idle-timeout"})
	case tuner.KindSeeds:
		_, err = tuner.TuneSeeds(ctx, o, tg, []string{"hgfs", "idle-timeout"}, []int64{1, 2})
	}
	return err
}

// TestIslandRefusesLinks: a distributed run's islands/, islands/island-I
// or islands/epoch-K (the migrants' exchange) replaced by a link outside
// it is refused by the island and by the merge, the link named, and
// nothing is written outside.
func TestIslandRefusesLinks(t *testing.T) {
	for _, sub := range []string{"islands", "islands/island-0", "islands/epoch-1"} {
		t.Run(sub, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "dist")
			o, tg := smallTune(t, dir)
			p := writeReadPlan(t, o, tg, dir)
			po, err := p.Options(o.Trace, 1)
			if err != nil {
				t.Fatal(err)
			}
			outside := plantLink(t, dir, sub)
			_, err = tuner.TuneIsland(context.Background(), p, po, dir, 0, nil)
			checkRefused(t, err, filepath.Join(dir, sub), outside)
			if sub == "islands/epoch-1" {
				return // the merge reads no migrants
			}
			_, err = tuner.Merge(context.Background(), p, po, dir)
			checkRefused(t, err, filepath.Join(dir, sub), outside)
		})
	}
}
