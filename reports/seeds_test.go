package reports

import (
	"strings"
	"testing"

	"github.com/ecotune/ecotune/tuner/summary"
)

// seedsPolicy is a policy with the given test hypervolumes per seed (train
// 0.5 on each) and a rel10 pick met on test on feasible of them.
func seedsPolicy(name string, feasible int, test ...float64) summary.SeedsPolicy {
	spread := func(xs []float64) summary.Spread {
		s := summary.Spread{Min: xs[0], Max: xs[0], PerSeed: xs}
		for _, x := range xs {
			s.Mean += x / float64(len(xs))
			s.Min, s.Max = min(s.Min, x), max(s.Max, x)
		}
		return s
	}
	train := make([]float64, len(test))
	for i := range train {
		train[i] = 0.5
	}
	share, hind, seeds := spread([]float64{0.5, 0.7}), spread([]float64{0.8, 0.9}), len(test)
	return summary.SeedsPolicy{Policy: name,
		Hypervolume: map[string]summary.Spread{"train": spread(train), "test": spread(test)},
		Picks: map[string]summary.SeedsPick{"rel10": {Seeds: len(test), FeasibleTrain: len(test), FeasibleTest: feasible, TestOffShare: &share,
			HindsightOffShare: &hind, HindsightFeasible: &seeds}}}
}

// SeedsText ranks the policies by mean test hypervolume and tells a pair
// apart only when the better one's lowest seed is above the other's
// highest: a (0.70, 0.72) is ahead of b (0.60, 0.68); b (0.60, 0.68) and c
// (0.62, 0.65) overlap, although b's mean is higher.
func TestSeedsText(t *testing.T) {
	s := &summary.SeedsSummary{Trace: "T", Split: "chronological jobs 0.7", Scheduler: "easy", Seeds: []int64{1, 2},
		Dirs: []string{"seed-1", "seed-2"}, Presets: []string{"rel10"},
		Policies: []summary.SeedsPolicy{seedsPolicy("c", 1, 0.62, 0.65), seedsPolicy("a", 2, 0.70, 0.72), seedsPolicy("b", 2, 0.60, 0.68)}}
	text := SeedsText(s)
	for _, want := range []string{
		"| a | 0.71 | 0.7–0.72 | 0.7, 0.72 | 0.5 |",
		"- a is ahead of b on every seed: its lowest test HV 0.7 is above the other's highest 0.68",
		"- b and c are not told apart by these seeds: their means are 0.005 apart",
		"| c | 2 of 2 | 1 of 2 |  | 60.0 % (50.0 %–70.0 %) | 85.0 % (80.0 %–90.0 %) | 2 of 2 |",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	if ia, ib, ic := strings.Index(text, "| a |"), strings.Index(text, "| b |"), strings.Index(text, "| c |"); !(ia < ib && ib < ic) {
		t.Errorf("policies not ranked a, b, c by mean test hypervolume:\n%s", text)
	}
	if strings.Contains(text, "Interrupted") {
		t.Errorf("a finished comparison is marked interrupted:\n%s", text)
	}
	s.Interrupted = true
	if text := SeedsText(s); !strings.Contains(text, "those finished before the interruption") {
		t.Errorf("an interrupted comparison does not say so:\n%s", text)
	}
}
