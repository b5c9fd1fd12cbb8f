package search_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/tuner/search"
	"github.com/ecotune/ecotune/tuner/search/testproblems"
)

// forge rewrites dir's checkpoint.json with edit applied and its checksum
// recomputed, as anyone can.
func forge(t *testing.T, dir string, edit func(ck map[string]any)) {
	t.Helper()
	path := filepath.Join(dir, search.CheckpointJSON)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ck search.Checkpoint
	if err := json.Unmarshal(b, &ck); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	if b, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	ck = search.Checkpoint{}
	if err := json.Unmarshal(b, &ck); err != nil {
		t.Fatal(err)
	}
	ck.Checksum = ""
	if b, err = json.Marshal(&ck); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	ck.Checksum = hex.EncodeToString(sum[:])
	if b, err = json.Marshal(&ck); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o666); err != nil {
		t.Fatal(err)
	}
}

// TestForgedCheckpointCounts: a checkpoint whose checksum was recomputed
// after its counts were edited is refused, by ReadCheckpoint before
// anything is allocated for them (cache entries beyond the cache file,
// beyond its evaluations, negative counts) or by the search resuming it
// (a generation beyond the run's, islands or populations that are not
// the settings'); the error names the file and the field. The same
// checkpoint unedited resumes.
func TestForgedCheckpointCounts(t *testing.T) {
	settings := flat{Population: 8, Generations: 3, Islands: 2, MigrationEvery: 2, Seed: 1}
	for _, tc := range []struct {
		name string
		edit func(ck map[string]any)
		read string // refused by ReadCheckpoint
		run  string // refused by Minimize
	}{
		{"unedited", func(map[string]any) {}, "", ""},
		{"cache 2^32", func(ck map[string]any) { ck["cache_entries"], ck["evaluations"] = 1<<32, 1<<32 }, "shorter than the 4294967296 records (cache_entries)", ""},
		{"cache beyond evaluations", func(ck map[string]any) { ck["cache_entries"] = ck["evaluations"].(float64) + 1 }, "cache_entries", ""},
		{"negative cache", func(ck map[string]any) { ck["cache_entries"] = -1 }, "cache_entries -1", ""},
		{"negative evaluations", func(ck map[string]any) { ck["evaluations"] = -3 }, "evaluations -3", ""},
		{"generation -5", func(ck map[string]any) { ck["generation"] = -5 }, "generation -5", ""},
		{"vars 2^40", func(ck map[string]any) { ck["vars"] = 1 << 40 }, "vars 1099511627776", ""},
		{"generation 1e6", func(ck map[string]any) { ck["generation"] = 1000000 }, "", "generation 1000000: not within 0..3"},
		{"three islands", func(ck map[string]any) {
			isl := ck["islands"].([]any)
			ck["islands"] = append(isl, isl[0])
		}, "", "3 islands; the run has 2"},
		{"population 7", func(ck map[string]any) {
			isl := ck["islands"].([]any)
			isl[1] = isl[1].([]any)[1:]
		}, "", "island 1 has 7 members; the run's population is 8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			ckw := &search.CheckpointWriter{Dir: dir}
			s := settings
			s.Recorders = []search.Recorder{ckw}
			if _, err := minimize(context.Background(), testproblems.ZDT1(), s); err != nil {
				t.Fatal(err)
			}
			ckw.Close()
			forge(t, dir, tc.edit)
			ck, err := search.ReadCheckpoint(dir)
			if tc.read != "" {
				if err == nil || !strings.Contains(err.Error(), tc.read) || !strings.Contains(err.Error(), filepath.Join(dir, search.CheckpointJSON)) {
					t.Fatalf("ReadCheckpoint: %v, want %q naming %s", err, tc.read, search.CheckpointJSON)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			s = settings
			s.Resume = ck
			_, err = minimize(context.Background(), testproblems.ZDT1(), s)
			switch {
			case tc.run == "" && err != nil:
				t.Errorf("resume: %v", err)
			case tc.run != "" && (err == nil || !strings.Contains(err.Error(), tc.run)):
				t.Errorf("resume: %v, want %q", err, tc.run)
			}
		})
	}
}

// TestCheckIsland: an island's checkpoint is checked against its plan
// before a merge uses it: generation, islands and population.
func TestCheckIsland(t *testing.T) {
	dir := t.TempDir()
	ckw := &search.CheckpointWriter{Dir: dir}
	s := flat{Population: 8, Generations: 2, Islands: 1, Seed: 1, Recorders: []search.Recorder{ckw}}
	if _, err := minimize(context.Background(), testproblems.ZDT1(), s); err != nil {
		t.Fatal(err)
	}
	ckw.Close()
	for _, tc := range []struct {
		name                    string
		edit                    func(ck map[string]any)
		generations, population int
		want                    string
	}{
		{"as planned", func(map[string]any) {}, 2, 8, ""},
		{"generation beyond", func(ck map[string]any) { ck["generation"] = 1000000 }, 2, 8, "generation 1000000"},
		{"other population", func(map[string]any) {}, 2, 9, "has 8 members; the run's population is 9"},
		{"two islands", func(ck map[string]any) { isl := ck["islands"].([]any); ck["islands"] = append(isl, isl[0]) }, 2, 8, "2 islands"},
	} {
		forge(t, dir, tc.edit)
		ck, err := search.ReadCheckpoint(dir)
		if err != nil {
			t.Fatal(err)
		}
		err = ck.CheckIsland(tc.generations, tc.population)
		if (tc.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
		forge(t, dir, func(ck map[string]any) { // undo
			ck["generation"] = 2
			ck["islands"] = ck["islands"].([]any)[:1]
		})
	}
}
