package search

import (
	"fmt"
	"math"
	"slices"
)

// Hypervolume returns the volume of objective space that points dominate
// and ref bounds, all objectives minimised. It is exact: a sweep in two
// dimensions and slicing along the last objective above (O(n² log n) in
// three, O(n²) at worst and O(n log n) on typical fronts). Points not strictly better than ref in every objective add
// nothing. It panics if a point and ref differ in dimension.
func Hypervolume(points [][]float64, ref []float64) float64 {
	in := make([][]float64, 0, len(points))
	for _, p := range points {
		if len(p) != len(ref) {
			panic(fmt.Sprintf("tuner: Hypervolume: point of %d objectives, reference of %d", len(p), len(ref)))
		}
		if below(p, ref) {
			in = append(in, p)
		}
	}
	return hv(in, ref, len(ref))
}

// below reports whether p is strictly better than ref in every objective.
func below(p, ref []float64) bool {
	for k := range ref {
		if !(p[k] < ref[k]) {
			return false
		}
	}
	return true
}

// hv is the hypervolume of points (all below ref) in the first d objectives.
func hv(points [][]float64, ref []float64, d int) float64 {
	switch {
	case len(points) == 0:
		return 0
	case d == 1:
		lo := ref[0]
		for _, p := range points {
			lo = math.Min(lo, p[0])
		}
		return ref[0] - lo
	case d == 2:
		return hv2(points, ref)
	case d == 3:
		return hv3(points, ref)
	}
	return hvSlices(points, ref, d)
}

// hvSlices slices along objective d−1: each slab between consecutive values
// adds its height times the hypervolume, in d−1 objectives, of the points
// below it.
func hvSlices(points [][]float64, ref []float64, d int) float64 {
	k := d - 1
	sorted := slices.Clone(points)
	slices.SortFunc(sorted, func(a, b []float64) int { return cmpFloat(a[k], b[k]) })
	var vol float64
	for i := range sorted {
		top := ref[k]
		if i+1 < len(sorted) {
			top = sorted[i+1][k]
		}
		if h := top - sorted[i][k]; h > 0 {
			vol += h * hv(sorted[:i+1], ref, k)
		}
	}
	return vol
}

// hv2 sweeps points by the first objective, adding the strip each new best
// second objective opens.
func hv2(points [][]float64, ref []float64) float64 {
	sorted := slices.Clone(points)
	slices.SortFunc(sorted, func(a, b []float64) int {
		if c := cmpFloat(a[0], b[0]); c != 0 {
			return c
		}
		return cmpFloat(a[1], b[1])
	})
	area, best := 0.0, ref[1]
	for _, p := range sorted {
		if p[1] < best {
			area += (ref[0] - p[0]) * (best - p[1])
			best = p[1]
		}
	}
	return area
}

// hv3 sweeps points by the third objective, keeping the staircase (the
// non-dominated points in the first two) and its area up to date; each
// slab between consecutive third-objective values adds area × height.
func hv3(points [][]float64, ref []float64) float64 {
	sorted := slices.Clone(points)
	slices.SortFunc(sorted, func(a, b []float64) int { return cmpFloat(a[2], b[2]) })
	var st staircase
	st.rx, st.ry = ref[0], ref[1]
	var vol float64
	for i, p := range sorted {
		st.insert(p[0], p[1])
		top := ref[2]
		if i+1 < len(sorted) {
			top = sorted[i+1][2]
		}
		vol += st.area * (top - p[2])
	}
	return vol
}

// staircase is a two-dimensional non-dominated set sorted by x ascending
// (so y descending) with the area it dominates up to (rx, ry).
type staircase struct {
	xs, ys []float64
	rx, ry float64
	area   float64
}

// insert adds (px, py) unless a point of the staircase dominates it.
func (s *staircase) insert(px, py float64) {
	i, _ := slices.BinarySearchFunc(s.xs, px, func(x, t float64) int {
		if x <= t {
			return -1
		}
		return 1
	}) // first index with x > px
	h := s.ry // height of the staircase just right of px
	if i > 0 {
		if s.ys[i-1] <= py {
			return // dominated (or equal)
		}
		h = s.ys[i-1]
	}
	// Newly dominated area: from px rightwards, under the current steps
	// that lie above py.
	j, x := i, px
	for j < len(s.xs) && s.ys[j] >= py {
		s.area += (s.xs[j] - x) * (h - py)
		x, h = s.xs[j], s.ys[j]
		j++
	}
	end := s.rx
	if j < len(s.xs) {
		end = s.xs[j]
	}
	s.area += (end - x) * (h - py)
	lo := i
	if i > 0 && s.xs[i-1] == px {
		lo = i - 1 // same x, higher y: dominated by the new point
	}
	s.xs = slices.Replace(s.xs, lo, j, px)
	s.ys = slices.Replace(s.ys, lo, j, py)
}
