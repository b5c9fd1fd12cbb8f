package pick

import (
	"fmt"
	"math"
	"strings"

	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/tuner/scoring"
)

// A Preset is an administrator's preference: how one solution is chosen
// from a front. Lexicographic presets keep the solutions meeting their
// constraint and order them by Order (the first objective decides, ties go
// to the next); the knee preset takes the solution farthest below the
// plane through the front's extremes.
type Preset struct {
	Name       string              `json:"name"`
	Constraint *scoring.Constraint `json:"constraint,omitempty"`
	Order      []Objective         `json:"order,omitempty"`
	Knee       bool                `json:"knee,omitempty"`
}

// mostOffFewestReconfigs is the order of EECluster's bounded presets.
var mostOffFewestReconfigs = []Objective{
	{Name: objectives.OffNodeSeconds, Maximize: objectives.Maximized(objectives.OffNodeSeconds)},
	{Name: objectives.Reconfigurations, Maximize: objectives.Maximized(objectives.Reconfigurations)},
}

// Rel10 is the relative preset's constraint: qos_p90 at most
// max(1.1 × always-on's, always-on's + 0.1) on the same split.
var Rel10 = scoring.Constraint{Name: objectives.QoSP90, Op: "<=", Bound: 0.1, Relative: true, Factor: 1.1}

// DefaultPresets are EECluster's: qos0 (best QoS, then most off-seconds,
// then fewest reconfigurations), qos0.1 and qos0.5 (most off-seconds with
// qos_p90 at most 0.1 or 0.5, then fewest reconfigurations), with bounds
// absolute as in EECluster; then rel10, the same order under Rel10, a
// bound relative to always-on on the same split, which means something on
// a loaded log where always-on itself misses the absolute ones; and the
// knee.
func DefaultPresets() []Preset {
	bounded := func(name string, b float64) Preset {
		return Preset{Name: name, Constraint: &scoring.Constraint{Name: objectives.QoSP90, Op: "<=", Bound: b}, Order: mostOffFewestReconfigs}
	}
	return []Preset{
		{Name: "qos0", Order: append([]Objective{{Name: objectives.QoSP90, Maximize: objectives.Maximized(objectives.QoSP90)}}, mostOffFewestReconfigs...)},
		bounded("qos0.1", 0.1),
		bounded("qos0.5", 0.5),
		{Name: "rel10", Constraint: &Rel10, Order: mostOffFewestReconfigs},
		{Name: "knee", Knee: true},
	}
}

// ParsePreset reads NAME=CONSTRAINT (most off-seconds, then fewest
// reconfigurations, under the constraint: "qos0.1=qos_p90<=always_on+0.1")
// or "knee".
func ParsePreset(s string) (Preset, error) {
	if s == "knee" {
		return Preset{Name: "knee", Knee: true}, nil
	}
	name, expr, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return Preset{}, fmt.Errorf("preset %q: want NAME=CONSTRAINT, e.g. qos0.1=qos_p90<=always_on+0.1", s)
	}
	c, err := scoring.ParseConstraint(expr)
	if err != nil {
		return Preset{}, fmt.Errorf("preset %q: %w", name, err)
	}
	return Preset{Name: name, Constraint: &c, Order: mostOffFewestReconfigs}, nil
}

// Choose resolves p on solutions by their train scores; alwaysOn are
// always-on's train scores (for a relative bound); objs are the run's
// objectives (for the knee). When no solution meets
// the constraint the choice is marked infeasible and names the least
// violating solution (ties by Order): never a silent pick.
func (p Preset) Choose(sols []Solution, objs []Objective, alwaysOn objectives.Scores) (PresetChoice, error) {
	return p.choose(sols, objs, alwaysOn, nil)
}

// choose is Choose; extra, when not nil, is a further violation of row i
// (the per-window check), a row's violation the larger of the two.
func (p Preset) choose(sols []Solution, objs []Objective, alwaysOn objectives.Scores, extra func(i int) (float64, error)) (PresetChoice, error) {
	ch := PresetChoice{Name: p.Name, Feasible: true, Row: -1}
	if len(sols) == 0 {
		return ch, fmt.Errorf("preset %s: empty front", p.Name)
	}
	if p.Knee {
		row, err := knee(sols, objs)
		ch.Row = row
		return ch, err
	}
	bound, err := p.resolveBound(&ch, alwaysOn)
	if err != nil {
		return ch, err
	}
	viol, feasible, err := p.violations(sols, bound, extra)
	if err != nil {
		return ch, err
	}
	ch.Feasible = feasible
	err = p.pickRow(&ch, sols, viol)
	return ch, err
}

// resolveBound resolves p's constraint, if any, against always-on's
// scores, records it on ch and returns the absolute bound (0 without a
// constraint).
func (p Preset) resolveBound(ch *PresetChoice, alwaysOn objectives.Scores) (float64, error) {
	c := p.Constraint
	if c == nil {
		return 0, nil
	}
	b, err := c.Resolve(alwaysOn)
	if err != nil {
		return 0, fmt.Errorf("preset %s: %w", p.Name, err)
	}
	ch.Bound, ch.Relative, ch.Factor, ch.Resolved = c.Bound, c.Relative, c.Factor, b
	return b, nil
}

// violations are each solution's violation of p's constraint against
// bound, or of extra if larger, and whether any solution violates
// neither.
func (p Preset) violations(sols []Solution, bound float64, extra func(i int) (float64, error)) ([]float64, bool, error) {
	viol := make([]float64, len(sols))
	feasible := false
	for i := range sols {
		if c := p.Constraint; c != nil {
			v, err := sols[i].Train.Get(c.Name)
			if err != nil {
				return nil, false, err
			}
			viol[i] = scoring.Violation(c.Op, v, bound)
		}
		if extra != nil {
			w, err := extra(i)
			if err != nil {
				return nil, false, err
			}
			viol[i] = math.Max(viol[i], w)
		}
		feasible = feasible || viol[i] == 0
	}
	return viol, feasible, nil
}

// pickRow sets ch.Row to the first solution by p's Order among the
// feasible ones when ch.Feasible, else among the least violating ones
// (violations viol).
func (p Preset) pickRow(ch *PresetChoice, sols []Solution, viol []float64) error {
	for i := range sols {
		if ch.Feasible && viol[i] > 0 {
			continue
		}
		if ch.Row < 0 {
			ch.Row = i
			continue
		}
		if !ch.Feasible && viol[i] != viol[ch.Row] {
			if viol[i] < viol[ch.Row] {
				ch.Row = i
			}
			continue
		}
		less, err := lexLess(sols[i].Train, sols[ch.Row].Train, p.Order)
		if err != nil {
			return err
		}
		if less {
			ch.Row = i
		}
	}
	return nil
}

// Assess records on ch, p's choice, the chosen solution's scores and
// whether it meets p's bound on each split, the bound resolved against
// always-on's scores on that split (alwaysOnTest nil: no test split).
// Presets without a bound (qos0, knee) are feasible on both.
func (p Preset) Assess(ch *PresetChoice, sols []Solution, alwaysOnTest *objectives.Scores) error {
	if ch.Row < 0 || ch.Row >= len(sols) {
		return nil
	}
	sol := sols[ch.Row]
	train := sol.Train
	ch.Train = &train
	if sol.Test != nil {
		test := *sol.Test
		ch.Test = &test
	}
	if ch.Test == nil || alwaysOnTest == nil {
		return nil
	}
	ok := true
	if c := p.Constraint; c != nil {
		b, err := c.Resolve(*alwaysOnTest)
		if err != nil {
			return fmt.Errorf("preset %s: test split: %w", p.Name, err)
		}
		v, err := ch.Test.Get(c.Name)
		if err != nil {
			return err
		}
		ch.ResolvedTest, ok = &b, scoring.Violation(c.Op, v, b) == 0
	}
	ch.FeasibleTest = &ok
	return nil
}

// Hindsight records on ch the row p would have chosen had it seen the
// test split (see run.PresetChoice.HindsightRow): p resolved on the
// solutions' test scores, its bound against always-on's test scores.
// It records nothing without a test split (alwaysOnTest nil, or a
// solution without test scores).
func (p Preset) Hindsight(ch *PresetChoice, sols []Solution, objs []Objective, alwaysOnTest *objectives.Scores) error {
	if alwaysOnTest == nil || len(sols) == 0 {
		return nil
	}
	onTest := make([]Solution, len(sols))
	for i, s := range sols {
		if s.Test == nil {
			return nil
		}
		onTest[i] = Solution{Train: *s.Test}
	}
	h, err := p.Choose(onTest, objs, *alwaysOnTest)
	if err != nil {
		return fmt.Errorf("preset %s: hindsight on the test split: %w", p.Name, err)
	}
	if h.Row < 0 {
		return nil
	}
	ch.HindsightRow, ch.HindsightFeasible = &h.Row, &h.Feasible
	return nil
}

// lexLess reports whether a is better than b in the lexicographic order.
func lexLess(a, b objectives.Scores, order []Objective) (bool, error) {
	for _, o := range order {
		va, err := a.Get(o.Name)
		if err != nil {
			return false, err
		}
		vb, _ := b.Get(o.Name)
		if va == vb {
			continue
		}
		return (va < vb) != o.Maximize, nil
	}
	return false, nil
}

// knee returns the row farthest below the plane through the front's
// extremes: each objective of the front's objectives normalised to [0, 1]
// over the front (0 best), the smallest sum.
func knee(sols []Solution, objs []Objective) (int, error) {
	lo := make([]float64, len(objs))
	hi := make([]float64, len(objs))
	vals := make([][]float64, len(sols))
	for k := range objs {
		lo[k], hi[k] = math.Inf(1), math.Inf(-1)
	}
	for i, s := range sols {
		f, err := scoring.ObjectiveVector(s.Train, objs)
		if err != nil {
			return -1, err
		}
		vals[i] = orient(f, maximised(objs))
		for k, v := range vals[i] {
			lo[k], hi[k] = math.Min(lo[k], v), math.Max(hi[k], v)
		}
	}
	best, bestSum := 0, math.Inf(1)
	for i, f := range vals {
		sum := 0.0
		for k, v := range f {
			if hi[k] > lo[k] {
				sum += (v - lo[k]) / (hi[k] - lo[k])
			}
		}
		if sum < bestSum {
			best, bestSum = i, sum
		}
	}
	return best, nil
}

func maximised(objs []Objective) []bool {
	m := make([]bool, len(objs))
	for k, o := range objs {
		m[k] = o.Maximize
	}
	return m
}

// orient negates, in place, the values of the objectives maximise marks,
// so that every value is minimised (as the search holds them).
func orient(f []float64, maximise []bool) []float64 {
	for k, max := range maximise {
		if max {
			f[k] = -f[k]
		}
	}
	return f
}
