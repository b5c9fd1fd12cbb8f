package run

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
)

// Kind is what a run directory holds: which command made it (the tuner's
// Tune, TuneWindows, TunePolicies, TuneSeeds, or a distributed plan) and
// so which command may resume it.
type Kind string

// The kinds of run directory.
const (
	KindSingle   Kind = "single"   // Tune: checkpoint.json, front, run.json
	KindWindows  Kind = "windows"  // TuneWindows: window-K/, windows.json
	KindPolicies Kind = "policies" // TunePolicies: POLICY/, summary.json
	KindSeeds    Kind = "seeds"    // TuneSeeds: seed-S/, seeds.json
	KindIslands  Kind = "islands"  // WritePlan, TuneIsland, Merge: plan.json, islands/
)

// KindJSON is the file a run directory's kind is written to when the run
// starts.
const KindJSON = "kind.json"

// kindFile is KindJSON's content.
type kindFile struct {
	Kind Kind `json:"kind"`
}

// Kinds are every kind, in a fixed order.
var Kinds = []Kind{KindSingle, KindWindows, KindPolicies, KindSeeds, KindIslands}

// describe is the kind in a sentence: "a single tune".
func (k Kind) describe() string {
	switch k {
	case KindSingle:
		return "a single tune"
	case KindWindows:
		return "a rolling-windows run"
	case KindPolicies:
		return "a policy comparison"
	case KindSeeds:
		return "a comparison over seeds"
	case KindIslands:
		return "a distributed (islands) run"
	}
	return fmt.Sprintf("a run of unknown kind %q", string(k))
}

// RunKind says what the run directory dir holds and what says so:
// kind.json, or for a run written before it the files present
// (plan.json: islands; window-K/: windows; seed-S/ or seeds.json: seeds;
// summary.json or a subdirectory holding a run: policies;
// checkpoint.json or run.json: single). An empty or missing directory
// has no kind ("" and no error). Nothing is read through a symbolic link.
func RunKind(dir string) (kind Kind, evidence string, err error) {
	r, err := OpenRoot(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return "", "", nil
	}
	if err != nil {
		return "", "", err
	}
	defer r.Close()
	var kf kindFile
	switch err := r.ReadJSON(KindJSON, &kf); {
	case err == nil:
		for _, k := range Kinds {
			if kf.Kind == k {
				return k, KindJSON, nil
			}
		}
		return "", "", fmt.Errorf("run: %s: kind %q is none of %s", r.Join(KindJSON), kf.Kind, kindList())
	case !errors.Is(err, fs.ErrNotExist):
		return "", "", err
	}
	return inferKind(r)
}

func kindList() string {
	s := make([]string, len(Kinds))
	for i, k := range Kinds {
		s[i] = string(k)
	}
	return strings.Join(s, ", ")
}

// inferKind is the kind of a run written before kind.json, from its files.
func inferKind(r *Root) (Kind, string, error) {
	entries, err := r.ReadDir()
	if err != nil {
		return "", "", err
	}
	has := map[string]bool{}
	var windows, seeds, runs string
	for _, e := range entries {
		name := e.Name()
		has[name] = true
		if !e.IsDir() {
			continue
		}
		switch {
		case strings.HasPrefix(name, "window-"):
			windows = name + "/"
		case strings.HasPrefix(name, "seed-"):
			seeds = name + "/"
		case name == IslandsDir || name == ReportDir:
		case runs == "" && holdsRun(r, name):
			runs = name + "/"
		}
	}
	switch {
	case has[PlanJSON]:
		return KindIslands, PlanJSON, nil
	case windows != "":
		return KindWindows, windows, nil
	case has[WindowsJSON]:
		return KindWindows, WindowsJSON, nil
	case seeds != "":
		return KindSeeds, seeds, nil
	case has[SeedsJSON]:
		return KindSeeds, SeedsJSON, nil
	case has[SummaryJSON]:
		return KindPolicies, SummaryJSON, nil
	case runs != "":
		return KindPolicies, runs, nil
	case has[CheckpointJSON]:
		return KindSingle, CheckpointJSON, nil
	case has[ManifestFile]:
		return KindSingle, ManifestFile, nil
	}
	return "", "", nil
}

// holdsRun reports whether the subdirectory name of r holds a tune's
// checkpoint or run.json (a policy of a comparison).
func holdsRun(r *Root, name string) bool {
	sub, err := r.Sub(name)
	if err != nil {
		return false
	}
	defer sub.Close()
	for _, f := range []string{CheckpointJSON, ManifestFile} {
		if _, err := sub.Lstat(f); err == nil {
			return true
		}
	}
	return false
}

// CheckKind refuses to resume dir with a command of kind want when dir
// holds a run of another kind, naming both and what says so; the error
// starts with what (the flag or command resuming).
func CheckKind(what, dir string, want Kind) error {
	got, evidence, err := RunKind(dir)
	if err != nil {
		return err
	}
	if got == "" || got == want {
		return nil
	}
	return fmt.Errorf("%s: %s holds %s (%s); this command resumes %s", what, dir, got.describe(), evidence, want.describe())
}

// Start prepares t.Dir (t.Prepare) for a run of kind k and writes
// kind.json into it, first; when resuming it first refuses a directory of
// another kind (CheckKind).
func (t Target) Start(k Kind) error {
	if t.Resume {
		if err := CheckKind("--resume", t.Dir, k); err != nil {
			return err
		}
	}
	if err := t.Prepare(); err != nil {
		return err
	}
	r, err := t.OpenRoot()
	if err != nil {
		return err
	}
	defer r.Close()
	return r.WriteJSON(KindJSON, kindFile{Kind: k})
}
