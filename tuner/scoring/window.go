package scoring

import (
	"slices"

	"github.com/ecotune/ecotune/datasets"
)

// WindowBounds are the k+1 job indexes that cut n jobs (in submit order)
// into k consecutive windows of equal job counts to one job: window w
// holds jobs [b[w], b[w+1]), b[w] = ⌊w·n/k⌋. With more windows than jobs
// some windows are empty; k < 1 gives the one bound 0.
func WindowBounds(n, k int) []int {
	b := make([]int, max(k, 0)+1)
	for w := range b {
		b[w] = w * n / max(k, 1)
	}
	return b
}

// CutWindows cuts tr into k windows (WindowBounds), each a trace of its
// own jobs (copied) whose metadata notes note(w, i, j): window w (0-based)
// holds jobs [i, j). Robust evaluation, the pick windows and rolling
// validation all cut their windows so.
func CutWindows(tr *datasets.Trace, k int, note func(w, i, j int) string) []*datasets.Trace {
	b := WindowBounds(len(tr.Jobs), k)
	out := make([]*datasets.Trace, k)
	for w := range out {
		i, j := b[w], b[w+1]
		m := tr.Meta.Clone()
		m.Notes = append(m.Notes, note(w, i, j))
		out[w] = &datasets.Trace{Meta: m, Jobs: slices.Clone(tr.Jobs[i:j])}
	}
	return out
}
