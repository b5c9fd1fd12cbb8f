package scoring

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/ecotune/ecotune/tuner/search"
)

func TestNormalizer(t *testing.T) {
	objs := []Objective{{Name: "qos_p90"}, {Name: "off_node_seconds", Maximize: true}, {Name: "reconfigurations"}}
	alwaysOn := []float64{0.02, 0, 0}
	oracle := []float64{0.02, 1000, 50}
	n := NewNormalizer(objs, alwaysOn, oracle)
	tests := []struct {
		raw, want []float64
	}{
		// qos ties: span max(1, 0.02) = 1; off: oracle best (0), always-on
		// 1/1.1 (the nadir is 10 % beyond it); reconfigurations: always-on
		// best.
		{alwaysOn, []float64{0, 1 / 1.1, 0}},
		{oracle, []float64{0, 0, 1 / 1.1}},
		{[]float64{0.57, 450, 27.5}, []float64{0.5, 0.5, 0.5}},
		// Outside the box: clamped (qos below always-on's is the ideal,
		// more reconfigurations than the nadir the nadir).
		{[]float64{0.01, 2000, 1000}, []float64{0, 0, 1}},
		{[]float64{5, -200, -3}, []float64{1, 1, 0}},
	}
	for _, tc := range tests {
		got := n.Normalize(tc.raw)
		for k := range got {
			if math.Abs(got[k]-tc.want[k]) > 1e-12 {
				t.Errorf("Normalize(%v) = %v, want %v", tc.raw, got, tc.want)
				break
			}
		}
	}
	// The oracle alone: 1 × 1 × (1 − 1/1.1) of the unit box.
	if got, want := n.Hypervolume([][]float64{oracle}), 1-1/1.1; math.Abs(got-want) > 1e-12 {
		t.Errorf("oracle HV = %g, want %g", got, want)
	}
	// The ideal point fills the box; anything lies in [0, 1].
	if got := n.Hypervolume([][]float64{{0, 1e9, 0}, oracle}); got != 1 {
		t.Errorf("HV of a point beyond the ideal = %g, want 1", got)
	}
}

// TestProgressNeverFalls feeds Progress random fronts (each a random
// subset, as a population's first front that loses members): its value
// never decreases, stays in [0, 1], and equals the hypervolume of the
// union of everything fed.
func TestProgressNeverFalls(t *testing.T) {
	objs := []Objective{{Name: "a"}, {Name: "b", Maximize: true}, {Name: "c"}}
	norm := NewNormalizer(objs, []float64{0, 0, 0}, []float64{1, 10, 5})
	rng := rand.New(rand.NewPCG(7, 8))
	p := NewProgress(norm)
	var all [][]float64
	prev := 0.0
	for gen := range 50 {
		var ms []search.Member
		for range 1 + rng.IntN(6) {
			f := []float64{rng.Float64() * 1.3, rng.Float64() * 12, rng.Float64() * 6}
			v := 0.0
			if rng.IntN(5) == 0 {
				v = 1 // infeasible: not counted
			} else {
				all = append(all, f)
			}
			ms = append(ms, search.Member{F: f, Violation: v})
		}
		hv := p.Add(ms)
		if hv < prev || hv < 0 || hv > 1 {
			t.Fatalf("generation %d: progress %g after %g", gen, hv, prev)
		}
		if want := norm.Hypervolume(all); math.Abs(hv-want) > 1e-12 {
			t.Fatalf("generation %d: progress %g, union's hypervolume %g", gen, hv, want)
		}
		prev = hv
	}
}

// TestNormalizerNearTie: references within 1 % of each other tie, so a
// near tie does not stretch the box: energy 485,000 and 489,000 kWh are
// 4,000 apart, under 1 % of 485,000, so the span is 485,000 and 2.1 ×
// 485,000 kWh normalises to 1 (the nadir). A fifth apart does not tie.
func TestNormalizerNearTie(t *testing.T) {
	objs := []Objective{{Name: "energy_kwh"}, {Name: "reconfigurations"}}
	n := NewNormalizer(objs, []float64{485000, 0}, []float64{489000, 37000})
	if n.Best[0] != 485000 || n.Span[0] != 485000 {
		t.Errorf("energy_kwh: best %g span %g, want 485000 and 485000", n.Best[0], n.Span[0])
	}
	if n.Best[1] != 0 || n.Span[1] != 37000 {
		t.Errorf("reconfigurations: best %g span %g, want 0 and 37000", n.Best[1], n.Span[1])
	}
	if got := n.Normalize([]float64{2.1 * 485000, 0.55 * 37000}); math.Abs(got[0]-1) > 1e-12 || math.Abs(got[1]-0.5) > 1e-12 {
		t.Errorf("Normalize = %v, want [1 0.5]", got)
	}
	// Just outside the tolerance the references bound the box as usual.
	lo, hi := 400000.0, 485000.0
	n = NewNormalizer(objs[:1], []float64{hi}, []float64{lo})
	if n.Best[0] != lo || n.Span[0] != hi-lo {
		t.Errorf("energy a fifth apart: best %g span %g, want %g and %g", n.Best[0], n.Span[0], lo, hi-lo)
	}
}

// TestNormalizerService: the service scores take their box from always-on
// alone, however far the oracle's value lies (its waits differ from
// always-on's only by what backfilling moves). The splits are real:
// SDSC-DS's train split under EASY (always-on's qos_p90 1065.55, the
// oracle's 401.04), SDSC-BLUE's test split (144.62 and 146.11: 1 % apart,
// which once made a box 1.5 wide), and a light log's (0.02 both).
func TestNormalizerService(t *testing.T) {
	objs := []Objective{{Name: "qos_p90"}, {Name: "mean_wait_s"}, {Name: "energy_kwh"}}
	tests := []struct {
		name              string
		alwaysOn, oracle  float64
		best, span, nadir float64
	}{
		{"SDSC-DS train", 1065.55, 401.04, 1065.55, 1065.55, 2.1 * 1065.55},
		{"SDSC-BLUE test", 144.62, 146.11, 144.62, 144.62, 2.1 * 144.62},
		{"light", 0.02, 0.02, 0.02, 1, 1.12},
	}
	for _, tc := range tests {
		n := NewNormalizer(objs, []float64{tc.alwaysOn, 100 * tc.alwaysOn, 1000}, []float64{tc.oracle, 100 * tc.oracle, 900})
		if n.Best[0] != tc.best || n.Span[0] != tc.span {
			t.Errorf("%s: qos_p90 best %g span %g, want %g and %g", tc.name, n.Best[0], n.Span[0], tc.best, tc.span)
		}
		if n.Best[1] != 100*tc.alwaysOn {
			t.Errorf("%s: mean_wait_s best %g, want always-on's %g", tc.name, n.Best[1], 100*tc.alwaysOn)
		}
		if n.Best[2] != 900 || n.Span[2] != 100 {
			t.Errorf("%s: energy_kwh best %g span %g, want the oracle's 900 and 100", tc.name, n.Best[2], n.Span[2])
		}
		half := tc.best + (tc.nadir-tc.best)/2
		got := n.Normalize([]float64{tc.oracle, 0, 900})[0]
		if want := 0.0; tc.oracle <= tc.alwaysOn && got != want {
			t.Errorf("%s: the oracle's better qos_p90 normalises to %g, want the ideal 0", tc.name, got)
		}
		for _, c := range []struct{ raw, want float64 }{{tc.alwaysOn, 0}, {half, 0.5}, {tc.nadir, 1}, {3 * tc.nadir, 1}} {
			if got := n.Normalize([]float64{c.raw, 0, 900})[0]; math.Abs(got-c.want) > 1e-12 {
				t.Errorf("%s: qos_p90 %g normalises to %g, want %g", tc.name, c.raw, got, c.want)
			}
		}
	}
	// Maximised against its nature, a service score is bounded by both
	// references like any other objective.
	n := NewNormalizer([]Objective{{Name: "qos_p90", Maximize: true}}, []float64{1065.55}, []float64{401.04})
	if n.Best[0] != 1065.55 || math.Abs(n.Span[0]-(1065.55-401.04)) > 1e-9 {
		t.Errorf("max:qos_p90: best %g span %g, want 1065.55 and %g", n.Best[0], n.Span[0], 1065.55-401.04)
	}
}
