package search

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestHypervolumeHandWorked(t *testing.T) {
	tests := []struct {
		name   string
		points [][]float64
		ref    []float64
		want   float64
	}{
		{"empty", nil, []float64{1, 1}, 0},
		// Strips (4−1)(4−3) + (4−2)(3−2) + (4−3)(2−1) = 3 + 2 + 1.
		{"2-D staircase", [][]float64{{3, 1}, {1, 3}, {2, 2}}, []float64{4, 4}, 6},
		// (3,3) is dominated by (2,2); (5,0) and (0,4) are not below ref.
		{"2-D dominated and outside", [][]float64{{1, 3}, {2, 2}, {3, 1}, {3, 3}, {5, 0}, {0, 4}}, []float64{4, 4}, 6},
		{"2-D duplicates", [][]float64{{2, 2}, {2, 2}}, []float64{4, 4}, 4},
		{"1-D", [][]float64{{0.25}, {0.5}}, []float64{1}, 0.75},
		{"3-D one point", [][]float64{{1, 1, 1}}, []float64{2, 2, 2}, 1},
		// Boxes 2·2·1 + 1·1·2 − their intersection 1·1·1.
		{"3-D two points", [][]float64{{0, 0, 1}, {1, 1, 0}}, []float64{2, 2, 2}, 5},
		// Three boxes of 6, pairwise intersections of 2, triple of 1:
		// 18 − 6 + 1.
		{"3-D cyclic", [][]float64{{1, 2, 3}, {2, 3, 1}, {3, 1, 2}}, []float64{4, 4, 4}, 13},
		// A 4-D unit cell.
		{"4-D", [][]float64{{0, 0, 0, 0}, {0.5, 0.5, 0.5, 0.5}}, []float64{1, 1, 1, 1}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Hypervolume(tc.points, tc.ref); math.Abs(got-tc.want) > 1e-12 {
				t.Errorf("Hypervolume = %g, want %g", got, tc.want)
			}
		})
	}
}

// TestHypervolumeInclusionExclusion compares the sweeps with the
// inclusion–exclusion formula over all subsets of random small sets.
func TestHypervolumeInclusionExclusion(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		d := 2 + trial%3
		n := 1 + rng.IntN(9)
		pts := make([][]float64, n)
		for i := range pts {
			pts[i] = make([]float64, d)
			for k := range pts[i] {
				pts[i][k] = math.Round(rng.Float64()*10) / 10 // ties on purpose
			}
		}
		ref := make([]float64, d)
		for k := range ref {
			ref[k] = 1
		}
		want := inclusionExclusion(pts, ref)
		if got := Hypervolume(pts, ref); math.Abs(got-want) > 1e-9 {
			t.Fatalf("%d-D %v: Hypervolume = %g, inclusion–exclusion %g", d, pts, got, want)
		}
		if d == 3 {
			if got := hvSlices(filterBelow(pts, ref), ref, 3); math.Abs(got-want) > 1e-9 {
				t.Fatalf("%v: hvSlices = %g, inclusion–exclusion %g", pts, got, want)
			}
		}
	}
}

func filterBelow(pts [][]float64, ref []float64) [][]float64 {
	var out [][]float64
	for _, p := range pts {
		if below(p, ref) {
			out = append(out, p)
		}
	}
	return out
}

// inclusionExclusion is Σ over non-empty subsets S of (−1)^(|S|+1) times
// the volume of the intersection of their boxes [p, ref].
func inclusionExclusion(pts [][]float64, ref []float64) float64 {
	total := 0.0
	for mask := 1; mask < 1<<len(pts); mask++ {
		vol, sign := 1.0, -1.0
		for k := range ref {
			lo := math.Inf(-1)
			for i, p := range pts {
				if mask&(1<<i) != 0 {
					lo = math.Max(lo, p[k])
				}
			}
			vol *= math.Max(0, ref[k]-lo)
		}
		for i := range pts {
			if mask&(1<<i) != 0 {
				sign = -sign
			}
		}
		total += sign * vol
	}
	return total
}
