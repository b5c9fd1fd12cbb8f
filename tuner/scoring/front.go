package scoring

import (
	"context"
	"slices"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/policy"
	rundir "github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/tuner/search"
)

// BuildFront turns a search's archive into the front of objectives objs:
// capped to maxFront members (CapFront, in norm's box: the train
// split's), decoded, scored in full on train and test (nil: none) and
// sorted by objectives. The presets are chosen later (package pick).
func BuildFront(ctx context.Context, sc *Scorer, prob *PolicyProblem, archive []search.Member, objs []Objective, maxFront int, norm Normalizer, train, test *datasets.Trace) (*rundir.Front, error) {
	arch := CapFront(archive, norm, maxFront)
	configs := make([]policy.Config, len(arch))
	for i, m := range arch {
		configs[i] = prob.Config(m.X)
	}
	trs, err := TrainScores(ctx, sc, prob, train, configs)
	if err != nil {
		return nil, err
	}
	var tes []objectives.Scores
	if test != nil {
		if tes, err = sc.ScoreConfigs(ctx, test, configs); err != nil {
			return nil, err
		}
	}
	f := &rundir.Front{Policy: prob.Spec.Name, ParamNames: prob.ParamNames(), Objectives: objs}
	for i := range arch {
		s := rundir.Solution{Config: configs[i], Train: trs[i], Rank: arch[i].Rank}
		if tes != nil {
			s.Test = &tes[i]
		}
		f.Solutions = append(f.Solutions, s)
	}
	slices.SortStableFunc(f.Solutions, func(a, b rundir.Solution) int {
		fa, _ := ObjectiveVector(a.Train, objs)
		fb, _ := ObjectiveVector(b.Train, objs)
		return slices.Compare(fa, fb)
	})
	return f, nil
}

// CapFront keeps at most n members of a front, chosen greedily by
// hypervolume contribution in norm's box (lazy greedy: contributions only
// shrink as the selection grows, so stale ones are upper bounds). Members
// that add nothing (beyond the reference point) fill the remaining places
// in their original order. The kept members stay in their original order.
func CapFront(ms []search.Member, norm Normalizer, n int) []search.Member {
	if len(ms) <= n {
		return ms
	}
	pts := make([][]float64, len(ms))
	for i, m := range ms {
		pts[i] = norm.Normalize(m.F)
	}
	ref := norm.Nadir()
	gain := make([]float64, len(ms))
	for i, p := range pts {
		gain[i] = search.Hypervolume([][]float64{p}, ref)
	}
	chosen := make([]bool, len(ms))
	var sel [][]float64
	base := 0.0
	for len(sel) < n {
		best := lazyBest(pts, ref, gain, chosen, sel, base)
		if best < 0 {
			break
		}
		chosen[best] = true
		sel = append(sel, pts[best])
		base = search.Hypervolume(sel, ref)
	}
	for i := 0; i < len(ms) && len(sel) < n; i++ {
		if !chosen[i] {
			chosen[i] = true
			sel = append(sel, pts[i])
		}
	}
	return keepChosen(ms, chosen, n)
}

// lazyBest is the unchosen point of pts that adds the most hypervolume
// (against ref) to sel, whose hypervolume is base, or -1 if none adds
// anything. gain holds each point's last known contribution, an upper
// bound on its current one: lazyBest refreshes the largest until it stays
// the largest, writing the refreshed contributions back into gain.
func lazyBest(pts [][]float64, ref, gain []float64, chosen []bool, sel [][]float64, base float64) int {
	for {
		best := -1
		for i := range pts {
			if !chosen[i] && (best < 0 || gain[i] > gain[best]) {
				best = i
			}
		}
		if best < 0 || gain[best] <= 0 {
			return -1
		}
		fresh := search.Hypervolume(append(sel, pts[best]), ref) - base
		if fresh >= gain[best]*(1-1e-12) {
			return best // still at least every other (stale, upper-bound) gain
		}
		gain[best] = fresh
	}
}

// keepChosen is the members of ms whose chosen flag is set, in their
// order, in a slice of capacity n.
func keepChosen(ms []search.Member, chosen []bool, n int) []search.Member {
	out := make([]search.Member, 0, n)
	for i, m := range ms {
		if chosen[i] {
			out = append(out, m)
		}
	}
	return out
}

// TrainNormalizer is the hypervolume box of the train split.
func TrainNormalizer(refs map[string]rundir.Reference, objs []Objective) (Normalizer, error) {
	a, err := ObjectiveVector(refs[AlwaysOn].Train, objs)
	if err != nil {
		return Normalizer{}, err
	}
	b, err := ObjectiveVector(refs[BoundName()].Train, objs)
	if err != nil {
		return Normalizer{}, err
	}
	return NewNormalizer(objs, a, b), nil
}
