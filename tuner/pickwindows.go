package tuner

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/policy"
)

// DefaultPickWindows is the number of train windows on which a relative
// preset's bound is also checked (Options.PickWindows 0).
//
// Why: on a loaded log the load changes between periods, and a bound
// relative to always-on's p90 wait ratio on the whole train split says
// little about a lighter period. A pick that stays within its bound on
// each train window, against that window's own always-on, has shown
// that its promise holds whether the period is light or heavy.
const DefaultPickWindows = 4

// pickWindows holds the front's members' and always-on's plain scores on
// each of K consecutive train windows, for the presets' per-window check
// (see Preset.chooseWindows). The windows are cut like Robust's: equal job
// counts, in submit order (window k holds jobs [k·n/K, (k+1)·n/K)).
type pickWindows struct {
	alwaysOn []objectives.Scores   // [k]
	sols     [][]objectives.Scores // [row][k], rows of Front.Solutions
}

// pickWindowCount is o's number of check windows, 0 when there is none:
// PickWindows negative or 1, or a train split with fewer than
// MinWindowJobs jobs a window.
func pickWindowCount(o Options, trainJobs int) int {
	k := o.PickWindows
	if k == 0 {
		k = DefaultPickWindows
	}
	if k < 2 || trainJobs < k*MinWindowJobs {
		return 0
	}
	return k
}

// scorePickWindows replays the front's members and always-on on the K
// train windows (nil, nil when o has none) with the run's scorer.
func scorePickWindows(ctx context.Context, sc *Scorer, o Options, train *datasets.Trace, front *Front) (*pickWindows, error) {
	k := pickWindowCount(o, len(train.Jobs))
	if k == 0 || front == nil || len(front.Solutions) == 0 || !hasRelativePreset(o.Presets) {
		return nil, nil
	}
	wins := windowTraces(train, k)
	spec, err := policy.Lookup(AlwaysOn)
	if err != nil {
		return nil, err
	}
	configs := make([]policy.Config, 0, 1+len(front.Solutions))
	configs = append(configs, spec.Fill(policy.Config{Name: AlwaysOn}))
	for _, s := range front.Solutions {
		configs = append(configs, s.Config)
	}
	out, err := sc.ScoreOn(ctx, wins, configs)
	if err != nil {
		return nil, fmt.Errorf("tuner: presets' train windows: %w", err)
	}
	return &pickWindows{alwaysOn: out[0], sols: out[1:]}, nil
}

// windowTraces cuts train into k windows of equal job counts.
func windowTraces(train *datasets.Trace, k int) []*datasets.Trace {
	n := len(train.Jobs)
	out := make([]*datasets.Trace, k)
	for w := range k {
		i, j := w*n/k, (w+1)*n/k
		m := train.Meta.Clone()
		m.Notes = append(m.Notes, fmt.Sprintf("preset check window %d of %d: train jobs %d:%d", w+1, k, i, j))
		out[w] = &datasets.Trace{Meta: m, Jobs: slices.Clone(train.Jobs[i:j])}
	}
	return out
}

func hasRelativePreset(ps []Preset) bool {
	for _, p := range ps {
		if p.windowChecked() {
			return true
		}
	}
	return false
}

// windowChecked reports whether p's bound is checked per train window:
// a relative bound (an absolute one means the same on every window and
// is left as it was).
func (p Preset) windowChecked() bool {
	return !p.Knee && p.Constraint != nil && p.Constraint.Relative
}

// chooseWindows is Choose with the per-window check: for a relative
// preset and win non-nil, a solution is feasible only if it meets the
// bound on the whole train split and, on every window, the bound resolved
// against always-on's scores on that window; a solution's violation is
// the largest of them. The choice records how many windows its pick meets
// and its worst margin. Other presets, or win nil, are Choose.
func (p Preset) chooseWindows(sols []Solution, objs []Objective, alwaysOn objectives.Scores, win *pickWindows) (PresetChoice, error) {
	if win == nil || !p.windowChecked() {
		return p.Choose(sols, objs, alwaysOn)
	}
	if len(win.sols) != len(sols) {
		return PresetChoice{}, fmt.Errorf("preset %s: %d solutions, %d with window scores", p.Name, len(sols), len(win.sols))
	}
	c := *p.Constraint
	bounds := make([]float64, len(win.alwaysOn))
	for k, a := range win.alwaysOn {
		b, err := c.Resolve(a)
		if err != nil {
			return PresetChoice{}, fmt.Errorf("preset %s: train window %d: %w", p.Name, k+1, err)
		}
		bounds[k] = b
	}
	viol := func(i int) (float64, error) {
		worst := 0.0
		for k, sc := range win.sols[i] {
			v, err := sc.Get(c.Name)
			if err != nil {
				return 0, err
			}
			worst = math.Max(worst, violation(c.Op, v, bounds[k]))
		}
		return worst, nil
	}
	ch, err := p.choose(sols, objs, alwaysOn, viol)
	if err != nil || ch.Row < 0 {
		return ch, err
	}
	met, margin := 0, math.Inf(1)
	for k, sc := range win.sols[ch.Row] {
		v, _ := sc.Get(c.Name)
		m := bounds[k] - v
		if c.Op == ">=" {
			m = v - bounds[k]
		}
		if m >= 0 {
			met++
		}
		margin = math.Min(margin, m)
	}
	ch.Windows, ch.WindowsFeasible, ch.WorstWindowMargin, ch.WindowBounds = len(bounds), &met, &margin, bounds
	return ch, nil
}
