package run

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/policy"
)

// TestManifestReadsMainRunJSON: a run.json written before this package
// existed (testdata/run-main.json, from `ecotune tune` on main) loads with
// its split typed, and writes back byte for byte.
func TestManifestReadsMainRunJSON(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "run-main.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m.Split != Holdout(0.7) || !m.Split.HasTest() {
		t.Errorf("split %+v, want Holdout(0.7)", m.Split)
	}
	var cl struct {
		Groups []struct{ Count int } `json:"groups"`
	}
	if err := json.Unmarshal(m.Cluster, &cl); err != nil || len(cl.Groups) == 0 || cl.Groups[0].Count != 128 {
		t.Errorf("cluster %s: %v", m.Cluster, err)
	}
	out, err := json.MarshalIndent(&m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if out = append(out, '\n'); !bytes.Equal(out, b) {
		t.Errorf("run.json does not round-trip:\n%s", out)
	}
}

// TestSplitText: every text the tuner wrote reads back to the split that
// prints it again; bad texts are errors naming the problem.
func TestSplitText(t *testing.T) {
	for _, tc := range []struct {
		text string
		want Split
	}{
		{"chronological jobs 0.7", Holdout(0.7)},
		{"chronological jobs 1", Holdout(1)},
		{"chronological jobs 0:1000 train 1000:2000 test", ByJobs(0, 1000, 2000)},
		{"", Split{}},
	} {
		got, err := ParseSplit(tc.text)
		if err != nil || !reflect.DeepEqual(got, tc.want) || got.String() != tc.text {
			t.Errorf("ParseSplit(%q) = %+v (%q), %v; want %+v", tc.text, got, got.String(), err, tc.want)
		}
	}
	if s, err := ParseSplit("none"); err != nil || !s.IsZero() {
		t.Errorf("none: %+v, %v", s, err)
	}
	for bad, want := range map[string]string{
		"chronological jobs 0":                     "not in (0, 1]",
		"chronological jobs x":                     "not in (0, 1]",
		"random 0.7":                               "want",
		"chronological jobs 0:5 train 6:9 test":    "train ends at job 5 but test starts at 6",
		"chronological jobs 0:a train a:9 test":    "job range",
		"chronological jobs 0:5 learn 5:9 predict": "want",
	} {
		if _, err := ParseSplit(bad); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseSplit(%q): %v, want an error containing %q", bad, err, want)
		}
	}
}

// TestSplitApply: the fraction split cuts where datasets.Split does, the
// job split copies its blocks, no holdout returns the trace itself.
func TestSplitApply(t *testing.T) {
	tr := &datasets.Trace{}
	for i := range 10 {
		tr.Jobs = append(tr.Jobs, datasets.Job{ID: int64(i + 1), Submit: int64(10 * i), Run: 5, Procs: 1})
	}
	train, test, err := Holdout(0.7).Apply(tr)
	if err != nil || len(train.Jobs) != 7 || len(test.Jobs) != 3 || test.Jobs[0].ID != 8 {
		t.Fatalf("Holdout(0.7): %v", err)
	}
	train, test, err = ByJobs(2, 5, 9).Apply(tr)
	if err != nil || len(train.Jobs) != 3 || train.Jobs[0].ID != 3 || len(test.Jobs) != 4 || test.Jobs[3].ID != 9 {
		t.Fatalf("ByJobs(2, 5, 9): %v", err)
	}
	for _, s := range []Split{{}, Holdout(1)} {
		if train, test, err := s.Apply(tr); err != nil || train != tr || test != nil {
			t.Errorf("%+v: not the whole trace (%v)", s, err)
		}
	}
	if _, _, err := ByJobs(5, 5, 9).Apply(tr); err == nil {
		t.Error("empty train block: no error")
	}
	if _, _, err := Holdout(0.01).Apply(tr); err == nil {
		t.Error("empty train split: no error")
	}
}

// TestFingerprintAliases: run's names are internal/fingerprint's (whose
// own tests check them).
func TestFingerprintAliases(t *testing.T) {
	a, b := Fingerprint{"seed": "1"}, Fingerprint{"seed": "2"}
	var mm *MismatchError
	if err := Check("ck.json", a, b); !errors.As(err, &mm) {
		t.Errorf("Check: %v, want a *MismatchError", err)
	}
	if FingerprintValue(1) != "1" {
		t.Error("FingerprintValue(1) is not its JSON")
	}
}

// TestSaveLoadNoFollow: Save writes a run that Load reads back, replacing
// (never following) links planted at the run's files; Prepare refuses a
// non-empty directory unless resuming or forced, and removes stale
// temporary files.
func TestSaveLoadNoFollow(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(victim, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{FrontJSON, FrontCSV, FrontParquet, ManifestFile} {
		if err := os.Symlink(victim, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := (Target{Dir: dir}).Prepare(); err == nil {
		t.Error("Prepare accepted a non-empty directory")
	}
	stale := filepath.Join(dir, ".front.json.tmp123")
	if err := os.WriteFile(stale, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := (Target{Dir: dir, Force: true}).Prepare(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("stale temporary file kept (%v)", err)
	}
	sc := objectives.Scores{QoSP90: 0.5, OffNodeSeconds: 100}
	f := &Front{Policy: "idle-timeout", ParamNames: []string{"idle_timeout"},
		Objectives: []Objective{{Name: objectives.QoSP90}, {Name: objectives.OffNodeSeconds, Maximize: true}},
		Solutions:  []Solution{{Config: policy.Config{Name: "idle-timeout", Params: map[string]float64{"idle_timeout": 60}}, Train: sc, Test: &sc}}}
	m := &Manifest{Seed: 4, Policy: "idle-timeout", Split: ByJobs(0, 5, 9), Cluster: json.RawMessage(`{"name":"c"}`)}
	m.SetProvenance(Provenance{Trace: "t", Command: []string{"ecotune"}})
	if err := Save(dir, m, f); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "precious" {
		t.Errorf("Save wrote through a link: victim now %q", b)
	}
	gm, gf, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(gm.Split, m.Split) || gm.Trace != "t" || len(gf.Solutions) != 1 || gf.Solutions[0].Test.OffNodeSeconds != 100 {
		t.Errorf("loaded %+v, %+v", gm, gf)
	}
	if err := (Target{Dir: filepath.Join(dir, "nope"), Resume: true}).Prepare(); err == nil {
		t.Error("resuming a missing directory: no error")
	}
}
