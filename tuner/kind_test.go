package tuner_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	rundir "github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/tuner"
	"github.com/ecotune/ecotune/tuner/exchange"
	"github.com/ecotune/ecotune/tuner/search"
)

// kindFiles lay out a run directory of each kind as a run written
// before kind.json left it (what RunKind infers from).
var kindFiles = map[tuner.Kind][]string{
	tuner.KindSingle:   {"checkpoint.json", "checkpoint.cache"},
	tuner.KindWindows:  {"window-1/checkpoint.json", "window-1/checkpoint.cache"},
	tuner.KindPolicies: {"hgfs/checkpoint.json", "hgfs/checkpoint.cache"},
	tuner.KindSeeds:    {"seed-1/hgfs/checkpoint.json", "seed-1/kind.json"},
	tuner.KindIslands:  {"plan.json", "islands/island-0/checkpoint.json"},
}

// kindEvidence is what names each kind when there is no kind.json.
var kindEvidence = map[tuner.Kind]string{
	tuner.KindSingle: "checkpoint.json", tuner.KindWindows: "window-1/", tuner.KindPolicies: "hgfs/",
	tuner.KindSeeds: "seed-1/", tuner.KindIslands: "plan.json",
}

// kindWords are how an error names each kind.
var kindWords = map[tuner.Kind]string{
	tuner.KindSingle: "a single tune", tuner.KindWindows: "a rolling-windows run", tuner.KindPolicies: "a policy comparison",
	tuner.KindSeeds: "a comparison over seeds", tuner.KindIslands: "a distributed (islands) run",
}

func layOut(t *testing.T, dir string, k tuner.Kind, withKind bool) {
	t.Helper()
	for _, f := range kindFiles[k] {
		path := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("{}\n"), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	if withKind {
		if err := os.WriteFile(filepath.Join(dir, tuner.KindJSON), []byte(`{"kind": "`+string(k)+`"}`), 0o666); err != nil {
			t.Fatal(err)
		}
	}
}

// resumeAs resumes dir with the command of kind k (a tune island for
// islands) and returns its error.
func resumeAs(t *testing.T, dir string, k tuner.Kind) error {
	o, tg := smallTune(t, dir)
	tg.Resume = true
	ctx := context.Background()
	var err error
	switch k {
	case tuner.KindSingle:
		_, err = tuner.Tune(ctx, o, tg)
	case tuner.KindWindows:
		o.Method.Islands, o.Method.MigrationEvery = 0, 0
		_, err = tuner.TuneWindows(ctx, o, tg, 3)
	case tuner.KindPolicies:
		_, err = tuner.TunePolicies(ctx, o, tg, []string{"hgfs", "idle-timeout"})
	case tuner.KindSeeds:
		_, err = tuner.TuneSeeds(ctx, o, tg, []string{"hgfs", "idle-timeout"}, []int64{1, 2})
	case tuner.KindIslands:
		_, err = tuner.ReadPlan(dir)
	}
	return err
}

// TestResumeKinds: a run directory of each kind, with and without
// kind.json, is known for its kind (RunKind, naming what says so), and
// resuming it with the command of any other kind is refused before
// anything is written, the error naming both kinds and the directory.
func TestResumeKinds(t *testing.T) {
	for _, withKind := range []bool{false, true} {
		for _, have := range rundir.Kinds {
			for _, resume := range rundir.Kinds {
				name := string(have) + "/" + string(resume)
				if withKind {
					name += "/kind.json"
				}
				t.Run(name, func(t *testing.T) {
					dir := filepath.Join(t.TempDir(), "r")
					layOut(t, dir, have, withKind)
					before := listTree(t, dir)
					if have == resume {
						got, ev, err := rundir.RunKind(dir)
						want := kindEvidence[have]
						if withKind {
							want = tuner.KindJSON
						}
						if err != nil || got != have || ev != want {
							t.Errorf("RunKind = %s (%s), %v; want %s (%s)", got, ev, err, have, want)
						}
						return
					}
					err := resumeAs(t, dir, resume)
					if err == nil {
						t.Fatal("resumed")
					}
					msg := err.Error()
					for _, w := range []string{kindWords[have], "resumes " + kindWords[resume], dir} {
						if !strings.Contains(msg, w) {
							t.Errorf("error %q does not name %q", msg, w)
						}
					}
					if after := listTree(t, dir); after != before {
						t.Errorf("the directory changed:\n%s\nnow\n%s", before, after)
					}
				})
			}
		}
	}
}

// listTree lists every path beneath dir.
func listTree(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		b.WriteString(p + "\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestKindJSONWritten: a run writes kind.json, first.
func TestKindJSONWritten(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "plan")
	o, tg := smallTune(t, dir)
	p, err := tuner.NewPlan(o, tg.Provenance, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if err := tuner.WritePlan(p, tg); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, tuner.KindJSON))
	if err != nil || !strings.Contains(string(b), `"islands"`) {
		t.Errorf("kind.json %q, %v: want kind islands", b, err)
	}
}

// TestNamesAgree: the packages below run that cannot import it name the
// run directory's files as run does.
func TestNamesAgree(t *testing.T) {
	for _, tc := range []struct{ name, got, want string }{
		{"exchange.IslandsDir", exchange.IslandsDir, rundir.IslandsDir},
		{"search.CheckpointJSON", search.CheckpointJSON, rundir.CheckpointJSON},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %q, run's is %q", tc.name, tc.got, tc.want)
		}
	}
}
