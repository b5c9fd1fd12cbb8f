package search

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
)

// member is one evaluated candidate.
type member struct {
	x     []float64 // one value per variable
	f     []float64 // objectives, all as minimisation (maximised ones negated)
	cv    float64   // total constraint violation, 0 when feasible
	key   string    // genomeKey(x)
	rank  int       // non-domination rank, 0 = first front
	crowd float64   // crowding distance within its front
}

// fitness is the scalar eaopt sorts by: lower is better, consistent with
// (rank ascending, crowding descending).
func (m *member) fitness() float64 { return float64(m.rank) + 1/(1+m.crowd) }

// dominates reports whether a constrained-dominates b (Deb 2000): a feasible
// candidate beats an infeasible one, of two infeasible ones the smaller
// violation wins, and two feasible ones compare by Pareto dominance.
func dominates(a, b *member) bool {
	switch {
	case a.cv == 0 && b.cv > 0:
		return true
	case a.cv > 0 && b.cv == 0:
		return false
	case a.cv > 0:
		return a.cv < b.cv
	}
	return paretoDominates(a.f, b.f)
}

// ConstrainedDominates reports whether objectives fa (minimised) with
// violation cva constrained-dominate fb with cvb, as the search ranks
// candidates.
func ConstrainedDominates(fa []float64, cva float64, fb []float64, cvb float64) bool {
	return dominates(&member{f: fa, cv: cva}, &member{f: fb, cv: cvb})
}

// paretoDominates reports whether a is no worse than b in every objective
// and better in one (minimisation).
func paretoDominates(a, b []float64) bool {
	better := false
	for k := range a {
		if a[k] > b[k] {
			return false
		}
		if a[k] < b[k] {
			better = true
		}
	}
	return better
}

// rankAndCrowd sets rank and crowding distance of every member (fast
// non-dominated sort, Deb et al. 2002) and returns the fronts as index
// lists. The result depends only on the members' values and keys, never on
// their order.
func rankAndCrowd(ms []*member) [][]int {
	n := len(ms)
	dominatedBy := make([]int, n) // how many members dominate i
	dominating := make([][]int, n)
	var front []int
	for i := range n {
		for j := i + 1; j < n; j++ {
			switch {
			case dominates(ms[i], ms[j]):
				dominating[i] = append(dominating[i], j)
				dominatedBy[j]++
			case dominates(ms[j], ms[i]):
				dominating[j] = append(dominating[j], i)
				dominatedBy[i]++
			}
		}
	}
	for i := range n {
		if dominatedBy[i] == 0 {
			front = append(front, i)
		}
	}
	var fronts [][]int
	for rank := 0; len(front) > 0; rank++ {
		fronts = append(fronts, front)
		var next []int
		for _, i := range front {
			ms[i].rank = rank
			for _, j := range dominating[i] {
				if dominatedBy[j]--; dominatedBy[j] == 0 {
					next = append(next, j)
				}
			}
		}
		crowd(ms, front)
		front = next
	}
	return fronts
}

// crowd sets the crowding distance of the members of one front: the sum
// over objectives of the normalised gap between each member's neighbours;
// the extremes of every objective get +Inf. Ties are ordered by key so the
// result does not depend on the order of the members.
func crowd(ms []*member, front []int) {
	for _, i := range front {
		ms[i].crowd = 0
	}
	if len(front) == 0 {
		return
	}
	idx := slices.Clone(front)
	for k := range ms[front[0]].f {
		slices.SortFunc(idx, func(a, b int) int {
			if c := cmpFloat(ms[a].f[k], ms[b].f[k]); c != 0 {
				return c
			}
			return strings.Compare(ms[a].key, ms[b].key)
		})
		lo, hi := ms[idx[0]].f[k], ms[idx[len(idx)-1]].f[k]
		ms[idx[0]].crowd = math.Inf(1)
		ms[idx[len(idx)-1]].crowd = math.Inf(1)
		if hi <= lo {
			continue
		}
		for p := 1; p < len(idx)-1; p++ {
			ms[idx[p]].crowd += (ms[idx[p+1]].f[k] - ms[idx[p-1]].f[k]) / (hi - lo)
		}
	}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// better orders members by rank, then crowding (larger first), then key.
func better(a, b *member) int {
	if a.rank != b.rank {
		return a.rank - b.rank
	}
	if c := cmpFloat(b.crowd, a.crowd); c != 0 {
		return c
	}
	return strings.Compare(a.key, b.key)
}

// tournament picks the better of two members drawn at random.
func tournament(ms []*member, rng *rand.Rand) *member {
	a, b := ms[rng.IntN(len(ms))], ms[rng.IntN(len(ms))]
	if better(b, a) < 0 {
		return b
	}
	return a
}

// survivors ranks pool and keeps the n best by (rank, crowding). Exact
// duplicates (same key) are kept only if there are not n distinct
// candidates, so copies do not crowd out the front.
func survivors(pool []*member, n int) []*member {
	seen := make(map[string]bool, len(pool))
	var unique, copies []*member
	for _, m := range pool {
		if seen[m.key] {
			copies = append(copies, m)
			continue
		}
		seen[m.key] = true
		unique = append(unique, m)
	}
	rankAndCrowd(unique)
	slices.SortFunc(unique, better)
	if len(unique) >= n {
		return unique[:n]
	}
	out := append(unique, copies[:n-len(unique)]...)
	rankAndCrowd(out)
	slices.SortFunc(out, better)
	return out
}
