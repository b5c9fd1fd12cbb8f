package run

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/policy"
)

// TestFrontSum: Save records front.json's SHA-256 in run.json;
// CheckFrontSum accepts the front Save wrote, refuses it edited (naming
// the file) and says a run.json without the checksum recorded none.
func TestFrontSum(t *testing.T) {
	dir := t.TempDir()
	sc := objectives.Scores{QoSP90: 0.5, OffNodeSeconds: 100}
	f := &Front{Policy: "idle-timeout", ParamNames: []string{"idle_timeout"},
		Objectives: []Objective{{Name: objectives.QoSP90}, {Name: objectives.OffNodeSeconds, Maximize: true}},
		Solutions:  []Solution{{Config: policy.Config{Name: "idle-timeout", Params: map[string]float64{"idle_timeout": 60}}, Train: sc, Test: &sc}}}
	m := &Manifest{Seed: 4, Policy: "idle-timeout", Split: ByJobs(0, 5, 9), Cluster: json.RawMessage(`{"name":"c"}`)}
	if err := Save(dir, m, f); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, FrontJSON))
	if err != nil {
		t.Fatal(err)
	}
	got, err := LoadManifest(dir)
	if err != nil || got.FrontSHA256 != frontSum(b) || len(got.FrontSHA256) != 64 {
		t.Fatalf("run.json front_sha256 %q (%v), want %s", got.FrontSHA256, err, frontSum(b))
	}
	if rec, err := CheckFrontSum(dir); !rec || err != nil {
		t.Errorf("unedited: recorded %v, %v", rec, err)
	}
	edited := strings.Replace(string(b), `"idle_timeout": 60`, `"idle_timeout": 61`, 1)
	if edited == string(b) {
		t.Fatal("nothing edited")
	}
	if err := os.WriteFile(filepath.Join(dir, FrontJSON), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if rec, err := CheckFrontSum(dir); !rec || err == nil || !strings.Contains(err.Error(), filepath.Join(dir, FrontJSON)) {
		t.Errorf("edited: recorded %v, %v: want an error naming %s", rec, err, FrontJSON)
	}
	got.FrontSHA256 = ""
	if err := WriteJSON(filepath.Join(dir, ManifestFile), got); err != nil {
		t.Fatal(err)
	}
	if rec, err := CheckFrontSum(dir); rec || err != nil {
		t.Errorf("without front_sha256: recorded %v, %v; want false, nil", rec, err)
	}
}
