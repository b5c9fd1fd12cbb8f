package summary

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/tuner/scoring"
)

// twoWindows is a finished summary of two windows with one preset and
// one reference, worked by hand.
func twoWindows() *WindowsSummary {
	s := &WindowsSummary{Windows: 2, Scores: []string{"qos_p90"}, Presets: []string{"rel10"}}
	for k, hv := range []float64{0.5, 0.7} {
		s.PerWindow = append(s.PerWindow, Window{K: k + 1, TestHypervolume: hv,
			Presets:    []Pick{{Name: "rel10", Row: k, Feasible: k == 0, Test: map[string]float64{"qos_p90": float64(2 + 2*k)}}},
			References: map[string]map[string]float64{"always-on": {"qos_p90": 1}}})
	}
	s.Mean, s.SD = windowStats(s.PerWindow, s.Presets)
	return s
}

func TestWindowStats(t *testing.T) {
	s := twoWindows()
	// mean of 0.5 and 0.7 is 0.6, of 2 and 4 is 3; sample SDs √0.02 and √2.
	if got := s.Mean.TestHypervolume; got < 0.6-1e-12 || got > 0.6+1e-12 {
		t.Errorf("mean test hypervolume %g, want 0.6", got)
	}
	if got := s.Mean.Presets[0].Test["qos_p90"]; got != 3 {
		t.Errorf("mean rel10 qos_p90 %g, want 3", got)
	}
	if got := s.SD.Presets[0].Test["qos_p90"]; got*got < 2-1e-12 || got*got > 2+1e-12 {
		t.Errorf("sd rel10 qos_p90 %g, want √2", got)
	}
}

func TestWindowsTable(t *testing.T) {
	s := twoWindows()
	rows := s.Table()
	if len(rows) != 1+2+2 {
		t.Fatalf("%d rows, want header, 2 windows, mean and sd", len(rows))
	}
	head := rows[0]
	want := append(slices.Clone(windowColumns), "rel10.row", "rel10.feasible", "rel10.qos_p90", "always-on.qos_p90")
	if !slices.Equal(head, want) {
		t.Errorf("header %v, want %v", head, want)
	}
	for _, r := range rows {
		if len(r) != len(head) {
			t.Errorf("row %v has %d cells, header %d", r, len(r), len(head))
		}
	}
	if got := rows[2][len(windowColumns):]; !slices.Equal(got, []string{"1", "false", "4", "1"}) {
		t.Errorf("window 2's preset and reference cells %v", got)
	}
	if rows[3][0] != "mean" || rows[3][len(windowColumns)+2] != "3" || rows[4][0] != "sd" {
		t.Errorf("statistics rows %v, %v", rows[3], rows[4])
	}
	s.Mean, s.SD = nil, nil // interrupted: no statistics rows
	if n := len(s.Table()); n != 3 {
		t.Errorf("interrupted summary: %d rows, want 3", n)
	}
}

func TestWriteWindows(t *testing.T) {
	dir := t.TempDir()
	if err := WriteWindows(dir, twoWindows()); err != nil {
		t.Fatal(err)
	}
	var back WindowsSummary
	b, err := os.ReadFile(filepath.Join(dir, WindowsJSON))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &back); err != nil || len(back.PerWindow) != 2 || back.Mean == nil {
		t.Errorf("windows.json read back: %+v, %v", back, err)
	}
	csv, err := os.ReadFile(filepath.Join(dir, WindowsCSV))
	if err != nil || !strings.HasPrefix(string(csv), "k,train_from_job,") || strings.Count(string(csv), "\n") != 5 {
		t.Errorf("windows.csv: %q, %v", csv, err)
	}
}

func TestSpreadOf(t *testing.T) {
	for _, c := range []struct {
		xs             []float64
		mean, min, max float64
	}{
		{[]float64{3}, 3, 3, 3},
		{[]float64{1, 5, 3}, 3, 1, 5},
		{[]float64{-2, 2}, 0, -2, 2},
	} {
		s := spreadOf(c.xs)
		if s.Mean != c.mean || s.Min != c.min || s.Max != c.max || len(s.PerSeed) != len(c.xs) {
			t.Errorf("spreadOf(%v) = %+v, want mean %g min %g max %g", c.xs, s, c.mean, c.min, c.max)
		}
	}
}

// comparison is a one-policy summary of seed with hypervolume hv and an
// rel10 pick keeping off seconds of the oracle's 100.
func comparison(seed int64, hv float64, off int64, feasible bool) *PoliciesSummary {
	return &PoliciesSummary{Seed: seed, Presets: []string{"rel10"},
		References: map[string]Pair{scoring.Oracle: {Test: &objectives.Scores{OffNodeSeconds: 100}}},
		Policies: []PolicySummary{{Policy: "idle-timeout", Hypervolume: map[string]float64{"train": hv, "test": hv},
			Picks: map[string]PresetPick{"rel10": {FeasibleTrain: true, FeasibleTest: &feasible, Test: &objectives.Scores{OffNodeSeconds: off, QoSP90: 1}}}}}}
}

func TestSeeds(t *testing.T) {
	s := Seeds([]*PoliciesSummary{comparison(1, 0.4, 50, true), comparison(2, 0.6, 70, false)}, []string{"idle-timeout", "hgfs"}, nil)
	if !slices.Equal(s.Seeds, []int64{1, 2}) || !slices.Equal(s.Dirs, []string{"seed-1", "seed-2"}) || s.Interrupted {
		t.Fatalf("seeds %v dirs %v interrupted %v", s.Seeds, s.Dirs, s.Interrupted)
	}
	if len(s.Policies) != 1 {
		t.Fatalf("%d policies, want idle-timeout alone (hgfs has no run)", len(s.Policies))
	}
	p := s.Policies[0].Picks["rel10"]
	if p.Seeds != 2 || p.FeasibleTrain != 2 || p.FeasibleTest != 1 {
		t.Errorf("pick counts %+v", p)
	}
	if p.TestOffShare == nil || p.TestOffShare.Mean != 0.6 || p.TestOffShare.Min != 0.5 || p.TestOffShare.Max != 0.7 {
		t.Errorf("off share %+v, want mean 0.6 of 0.5 and 0.7", p.TestOffShare)
	}
	if p.HindsightFeasible != nil {
		t.Errorf("hindsight counted without hindsight members: %v", *p.HindsightFeasible)
	}
	cut := Seeds(nil, []string{"idle-timeout"}, comparison(3, 0.5, 10, true))
	if !cut.Interrupted || len(cut.Seeds) != 0 || cut.Trace != "" || len(cut.Presets) != 1 {
		t.Errorf("interrupted at the first seed: %+v", cut)
	}
}

func TestParseSeeds(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    []int64
		wantErr string
	}{
		{"1", []int64{1}, ""},
		{"1, 2,,3 ", []int64{1, 2, 3}, ""},
		{"-4", []int64{-4}, ""},
		{"1,x", nil, `"x" is not a whole number`},
		{"1.5", nil, `"1.5" is not a whole number`},
		{" , ", nil, "no seed"},
	} {
		got, err := ParseSeeds(tc.in)
		switch {
		case tc.wantErr != "" && (err == nil || err.Error() != tc.wantErr):
			t.Errorf("ParseSeeds(%q) error %v, want %q", tc.in, err, tc.wantErr)
		case tc.wantErr == "" && (err != nil || !slices.Equal(got, tc.want)):
			t.Errorf("ParseSeeds(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}
