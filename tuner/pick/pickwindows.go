package pick

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/tuner/scoring"
	"github.com/ecotune/ecotune/tuner/search"
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

// Windows holds the front's members' and always-on's plain scores on
// each of K consecutive train windows, for the presets' per-window check
// (see Preset.ChooseWindows). The windows are cut like Robust's: equal job
// counts, in submit order (window k holds jobs [k·n/K, (k+1)·n/K)).
// Then come the thinned copies of the whole train split, one per load of
// Options.PickLoads (see scoring.ThinTrace): alwaysOn and sols hold K + L scores,
// the windows' first.
type Windows struct {
	windows   int                   // K
	aggregate string                // PickWindowMedian or PickWindowMean
	loads     []float64             // L thinning fractions
	alwaysOn  []objectives.Scores   // [k]
	sols      [][]objectives.Scores // [row][k], rows of Front.Solutions
}

// The window levels' aggregates of Options.PickAggregate.
const (
	PickWindowMedian = scoring.AggregateMedian
	PickWindowMean   = scoring.AggregateMean
)

// DefaultPickAggregate is how a relative preset's K window levels make
// the one that must be at most 1 (Options.PickAggregate ""): their
// median.
//
// Why not their mean, as before: one window whose always-on is nearly
// idle has a bound of always-on's value + 0.1, so a member's level there
// is large and the mean rejects every member that makes a short job wait
// for a boot in that window, whatever it does in the others
// (docs/experiments.md, "The pick windows' median").
const DefaultPickAggregate = PickWindowMedian

// ValidPickAggregate checks a window aggregate: "" (the default),
// median or mean.
func ValidPickAggregate(a string) error {
	switch a {
	case "", PickWindowMedian, PickWindowMean:
		return nil
	}
	return fmt.Errorf("tuner: pick window aggregate %q: want median or mean", a)
}

// pickAggregate is o's window aggregate.
func (c Checks) aggregate() string {
	if c.Aggregate == "" {
		return DefaultPickAggregate
	}
	return c.Aggregate
}

// aggregateLevels is the mean (PickWindowMean) or else the median of a
// member's window levels (scoring.Aggregate).
func aggregateLevels(aggregate string, levels []float64) float64 {
	if aggregate != PickWindowMean {
		aggregate = PickWindowMedian
	}
	return scoring.Aggregate(aggregate, levels, 0)
}

// windowCount is c's number of check windows, 0 when there is none:
// PickWindows negative or 1, or a train split with fewer than
// MinWindowJobs jobs a window.
func (c Checks) windowCount(trainJobs int) int {
	k := c.Windows
	if k == 0 {
		k = DefaultPickWindows
	}
	if k < 2 || trainJobs < k*scoring.MinWindowJobs {
		return 0
	}
	return k
}

// loads is c's thinning fractions: DefaultPickLoads when o gives
// none, none when it gives only 1.
func (c Checks) loads() []float64 {
	switch {
	case c.Loads == nil:
		return DefaultPickLoads()
	case len(c.Loads) == 1 && c.Loads[0] == 1:
		return nil
	}
	return c.Loads
}

// ScoreWindows replays the front's members and always-on on the K
// train windows and the thinned train splits (nil, nil when o has none)
// with the run's scorer.
func ScoreWindows(ctx context.Context, sc *scoring.Scorer, c Checks, train *datasets.Trace, front *Front) (*Windows, error) {
	k, loads := c.windowCount(len(train.Jobs)), c.loads()
	if k+len(loads) == 0 || front == nil || len(front.Solutions) == 0 || !hasRelativePreset(c.Presets) {
		return nil, nil
	}
	wins := scoring.CutWindows(train, k, func(w, i, j int) string {
		return fmt.Sprintf("preset check window %d of %d: train jobs %d:%d", w+1, k, i, j)
	})
	for l, f := range loads {
		wins = append(wins, scoring.ThinTrace(train, f, thinRNG(c.Seed, l)))
	}
	spec, err := policy.Lookup(scoring.AlwaysOn)
	if err != nil {
		return nil, err
	}
	configs := make([]policy.Config, 0, 1+len(front.Solutions))
	configs = append(configs, spec.Fill(policy.Config{Name: scoring.AlwaysOn}))
	for _, s := range front.Solutions {
		configs = append(configs, s.Config)
	}
	out, err := sc.ScoreOn(ctx, wins, configs)
	if err != nil {
		return nil, fmt.Errorf("tuner: presets' train windows: %w", err)
	}
	return &Windows{windows: k, aggregate: c.aggregate(), loads: loads, alwaysOn: out[0], sols: out[1:]}, nil
}

// DefaultPickLoads is the thinning fractions on which a relative preset's
// bound is also checked (Options.PickLoads nil): the train split with
// each job kept with probability 0.9.
//
// Why: next period's load is not this one's, and on a loaded log the
// p90 wait ratio is far from linear in the load: a pick that keeps its
// promise only on the saturated train period promises nothing for a
// period 10 % lighter. 0.9 rather than 0.8: both kept the promises where
// measured, 0.8 at a large cost in node-off seconds (docs/experiments.md,
// "The pick loads").
func DefaultPickLoads() []float64 { return []float64{0.9} }

// thinRNG is the random stream of the l-th thinned train split, apart
// from the search's and the robust replicas' streams.
func thinRNG(seed int64, l int) *rand.Rand {
	const thinStream = 0x7468696e00000000 // "thin"
	return rand.New(rand.NewPCG(uint64(seed), search.SplitMix64(thinStream^uint64(l))))
}

// ParsePickLoads reads a comma-separated list of thinning fractions (the
// --pick-loads flag) and checks it as ValidPickLoads does.
func ParsePickLoads(list string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(list, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", f)
		}
		out = append(out, v)
	}
	if err := ValidPickLoads(out); err != nil {
		return nil, err
	}
	return out, nil
}

// ValidPickLoads checks thinning fractions: each in (0, 1), or the one
// value 1 (none).
func ValidPickLoads(loads []float64) error {
	if len(loads) == 1 && loads[0] == 1 {
		return nil
	}
	for _, f := range loads {
		if !(f > 0 && f < 1) {
			return fmt.Errorf("tuner: pick load %g: want a fraction of the jobs in (0, 1), or 1 alone for none", f)
		}
	}
	return nil
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

// ChooseWindows is Choose with the per-window and per-load checks: for a
// relative preset and win non-nil, a solution is feasible only if it
// meets the bound on the whole train split, its window level (the median,
// or with PickWindowMean the mean, of its levels on the K windows) is at
// most 1, and its level on each thinned train split is at most 1. A
// level is the solution's value over the bound resolved against
// always-on's scores on the same replay (for >=, the bound over the
// value). A solution's violation is the largest of its whole-split
// violation, its window level's excess over 1 and each load level's
// excess over 1. The choice records its pick's window level and
// aggregate, its mean window level, how many windows it meets on their
// own, its worst window margin, and its level on each thinned split.
// Other presets, or win nil, are Choose.
//
// Why an aggregate over windows and not every window: requiring every
// window kept the test bound but gave up most node-off seconds where a
// window was nearly idle (docs/experiments.md, "Pick windows: an
// aggregate, not every window"). Why the median rather than the mean: see
// DefaultPickAggregate. Why the loads: see DefaultPickLoads.
func (p Preset) ChooseWindows(sols []Solution, objs []Objective, alwaysOn objectives.Scores, win *Windows) (PresetChoice, error) {
	if win == nil || !p.windowChecked() {
		return p.Choose(sols, objs, alwaysOn)
	}
	if len(win.sols) != len(sols) {
		return PresetChoice{}, fmt.Errorf("preset %s: %d solutions, %d with window scores", p.Name, len(sols), len(win.sols))
	}
	c := *p.Constraint
	bounds, err := p.windowBounds(c, win)
	if err != nil {
		return PresetChoice{}, err
	}
	ch, err := p.choose(sols, objs, alwaysOn, func(i int) (float64, error) {
		l, err := win.levels(c, bounds, i)
		if err != nil {
			return 0, err
		}
		return win.excess(l), nil
	})
	if err != nil || ch.Row < 0 {
		return ch, err
	}
	l, err := win.levels(c, bounds, ch.Row)
	if err != nil {
		return ch, err
	}
	if win.windows > 0 {
		win.recordWindows(&ch, c, bounds, l)
	}
	if len(win.loads) > 0 {
		ch.Loads, ch.LoadBounds, ch.LoadLevels = win.loads, bounds[win.windows:], l[win.windows:]
	}
	return ch, nil
}

// windowBounds are c's bounds resolved against always-on's scores on
// each of win's replays, windows first.
func (p Preset) windowBounds(c scoring.Constraint, win *Windows) ([]float64, error) {
	bounds := make([]float64, len(win.alwaysOn))
	for k, a := range win.alwaysOn {
		b, err := c.Resolve(a)
		if err != nil {
			return nil, fmt.Errorf("preset %s: %s: %w", p.Name, win.name(k), err)
		}
		bounds[k] = b
	}
	return bounds, nil
}

// levels are solution i's levels of c on every replay of w (bounds[k]
// the bound on replay k), windows first.
func (w *Windows) levels(c scoring.Constraint, bounds []float64, i int) ([]float64, error) {
	out := make([]float64, len(bounds))
	for k, sc := range w.sols[i] {
		v, err := sc.Get(c.Name)
		if err != nil {
			return nil, err
		}
		out[k] = windowLevel(c.Op, v, bounds[k])
	}
	return out, nil
}

// excess is the violation of a solution whose levels on w's replays are
// l: the larger of its window level's excess over 1 and each load
// level's.
func (w *Windows) excess(l []float64) float64 {
	excess := 0.0
	if w.windows > 0 {
		excess = math.Max(0, aggregateLevels(w.aggregate, l[:w.windows])-1)
	}
	for _, x := range l[w.windows:] {
		excess = math.Max(excess, x-1)
	}
	return excess
}

// recordWindows records on ch the window figures of its pick, whose
// levels of c are l against bounds: its mean and aggregate window level,
// the windows it meets and its worst window margin. w has windows.
func (w *Windows) recordWindows(ch *PresetChoice, c scoring.Constraint, bounds, l []float64) {
	m, _ := scoring.MeanSD(l[:w.windows])
	met, margin := 0, math.Inf(1)
	for k, sc := range w.sols[ch.Row][:w.windows] {
		v, _ := sc.Get(c.Name)
		d := bounds[k] - v
		if c.Op == ">=" {
			d = v - bounds[k]
		}
		if d >= 0 {
			met++
		}
		margin = math.Min(margin, d)
	}
	level := aggregateLevels(w.aggregate, l[:w.windows])
	ch.Windows, ch.WindowBounds, ch.WindowMeanLevel = w.windows, bounds[:w.windows], &m
	ch.WindowAggregate, ch.WindowLevel = w.aggregate, &level
	ch.WindowsFeasible, ch.WorstWindowMargin = &met, &margin
}

// name names replay k of w for errors.
func (w *Windows) name(k int) string {
	if k < w.windows {
		return fmt.Sprintf("train window %d", k+1)
	}
	return fmt.Sprintf("train split thinned to %g", w.loads[k-w.windows])
}

// windowLevel is value over bound for <= (bound over value for >=): 1 on
// the bound, above 1 a miss. A bound or value at or below 0 where it
// divides is taken as the smallest positive step away, so the level stays
// finite and ordered.
func windowLevel(op string, value, bound float64) float64 {
	num, den := value, bound
	if op == ">=" {
		num, den = bound, value
	}
	const tiny = 1e-9
	if den < tiny {
		den = tiny
	}
	return math.Max(num, 0) / den
}
