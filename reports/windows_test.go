package reports

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/tuner/summary"
)

// TestWriteWindowsText: a header, one row per window, mean and sd when
// present, and the legend; a pick without test scores shows "-".
func TestWriteWindowsText(t *testing.T) {
	sc := map[string]float64{objectives.QoSP90: 0.25, objectives.OffNodeSeconds: 12000, objectives.Reconfigurations: 7}
	win := func(k int, test map[string]float64) summary.Window {
		return summary.Window{K: k, Test: summary.Block{FromJob: 10 * k, ToJob: 10*k + 10}, TestHypervolume: 0.5,
			Presets: []summary.Pick{{Name: "qos0.1", Feasible: test != nil, Test: test}}}
	}
	stats := &summary.WindowStats{TestHypervolume: 0.5, Presets: []summary.PickStats{{Name: "qos0.1", Test: sc}}}
	for _, tc := range []struct {
		name  string
		s     summary.WindowsSummary
		lines int
	}{
		{"finished", summary.WindowsSummary{Presets: []string{"qos0.1"}, PerWindow: []summary.Window{win(1, sc), win(2, nil)}, Mean: stats, SD: stats}, 1 + 2 + 3},
		{"interrupted", summary.WindowsSummary{Presets: []string{"qos0.1"}, PerWindow: []summary.Window{win(1, sc)}, Interrupted: true}, 1 + 1 + 1},
	} {
		var b bytes.Buffer
		if err := WriteWindowsText(&b, &tc.s); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(b.String()), "\n")
		if len(lines) != tc.lines {
			t.Fatalf("%s: %d lines, want %d:\n%s", tc.name, len(lines), tc.lines, b.String())
		}
		if !strings.HasPrefix(lines[0], "k ") || !strings.Contains(lines[1], "0.25 / 1.2e+04 / 7") {
			t.Errorf("%s: header or first row wrong:\n%s", tc.name, b.String())
		}
		if tc.s.Mean != nil && (!strings.HasPrefix(lines[len(lines)-3], "mean ") || !strings.HasPrefix(lines[len(lines)-2], "sd ") || !strings.Contains(lines[2], "(infeasible)")) {
			t.Errorf("%s: mean, sd or infeasible pick missing:\n%s", tc.name, b.String())
		}
	}
}
