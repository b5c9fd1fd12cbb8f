package reports

import "gonum.org/v1/plot/plotter"

// stepBins is the number of time bins a step series is reduced to when it
// has more points than can be drawn: two per pixel of a timeline figure
// 8 in wide at 96 dpi.
const stepBins = 1536

// m4 reduces a time series sorted by X over [from, to] to at most four
// points per bin (of bins equal bins): each bin's first, lowest, highest
// and last point, in their order. Drawn at a width of bins pixels or
// less, the result looks the same as xys (the M4 aggregation of Jugel et
// al., VLDB 2014) while a trace of years stays a few thousand points. A
// series of at most 4·bins points is returned as it is.
func m4(xys plotter.XYs, from, to float64, bins int) plotter.XYs {
	if len(xys) <= 4*bins || to <= from {
		return xys
	}
	out := make(plotter.XYs, 0, 4*bins)
	scale := float64(bins) / (to - from)
	binOf := func(x float64) int { return min(bins-1, max(0, int((x-from)*scale))) }
	for start := 0; start < len(xys); {
		b := binOf(xys[start].X)
		end, lo, hi := start+1, start, start
		for ; end < len(xys) && binOf(xys[end].X) == b; end++ {
			if xys[end].Y < xys[lo].Y {
				lo = end
			}
			if xys[end].Y > xys[hi].Y {
				hi = end
			}
		}
		out = appendInOrder(out, xys, start, lo, hi, end-1)
		start = end
	}
	return out
}

// appendInOrder appends the points at the indices given, in index order,
// each once.
func appendInOrder(out, xys plotter.XYs, idx ...int) plotter.XYs {
	// Four indices: a small insertion sort.
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0 && idx[j] < idx[j-1]; j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
	for i, k := range idx {
		if i == 0 || k != idx[i-1] {
			out = append(out, xys[k])
		}
	}
	return out
}
