package reports

import (
	"fmt"
	"image/color"
	"maps"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/tuner"
)

// Colours of the house style (colour-blind safe, Okabe–Ito).
var (
	colFront     = color.RGBA{0, 114, 178, 255}   // blue
	colDominated = color.RGBA{170, 170, 170, 255} // grey
	colPreset    = color.RGBA{213, 94, 0, 255}    // vermilion
	colRef       = color.RGBA{0, 0, 0, 255}
	colOracle    = color.RGBA{0, 158, 115, 255} // bluish green
)

// Marks of front figures.
var (
	frontGlyph     = draw.GlyphStyle{Color: colFront, Radius: vg.Points(2.2), Shape: draw.CircleGlyph{}}
	dominatedGlyph = draw.GlyphStyle{Color: colDominated, Radius: vg.Points(1.5), Shape: draw.RingGlyph{}}
	presetGlyph    = draw.GlyphStyle{Color: colPreset, Radius: vg.Points(4), Shape: draw.RingGlyph{}}
)

// Size of one front figure: two panels side by side.
const (
	frontWidth  = 9 * vg.Inch
	frontHeight = 3.6 * vg.Inch
	frontLegend = 1.1 * vg.Inch
)

// FrontFigures draws the run's front projected on every pair of
// objectives: the training front and the test front side by side, the
// references (always-on, oracle, baselines) marked and the presets
// labelled.
func FrontFigures(r *Run) ([]*Figure, error) {
	objs := r.Front.Objectives
	var figs []*Figure
	for i := range objs {
		for j := i + 1; j < len(objs); j++ {
			f, err := frontFigure(r, objs[i], objs[j])
			if err != nil {
				return nil, err
			}
			figs = append(figs, f)
		}
	}
	return figs, nil
}

// split selects the scores of one split from a solution or a reference.
type split struct {
	name string
	of   func(train objectives.Scores, test *objectives.Scores) *objectives.Scores
}

var (
	onTrain = split{"train", func(tr objectives.Scores, _ *objectives.Scores) *objectives.Scores { return &tr }}
	onTest  = split{"test", func(_ objectives.Scores, te *objectives.Scores) *objectives.Scores { return te }}
)

func frontFigure(r *Run, x, y tuner.Objective) (*Figure, error) {
	splits := []split{onTrain}
	if hasTest(r.Front) {
		splits = append(splits, onTest)
	}
	row := make([]*plot.Plot, 0, len(splits))
	for _, s := range splits {
		p, err := frontPanel(r, x, y, s)
		if err != nil {
			return nil, err
		}
		row = append(row, p)
	}
	return &Figure{
		Name:        "front-" + x.Name + "-" + y.Name,
		Title:       fmt.Sprintf("Pareto front: %s vs %s", heading(y.Name), heading(x.Name)),
		Plots:       [][]*plot.Plot{row},
		Width:       frontWidth,
		Height:      frontHeight,
		Legend:      frontLegendOf(r, row[0].Legend.TextStyle),
		LegendWidth: frontLegend,
	}, nil
}

// frontLegendOf explains the marks of a front figure: solutions, presets
// and each reference the run has.
func frontLegendOf(r *Run, style text.Style) *plot.Legend {
	l := plot.NewLegend()
	l.TextStyle = style
	l.Add("front (rank 0)", glyphThumb(frontGlyph))
	if slices.ContainsFunc(r.Front.Solutions, func(s tuner.Solution) bool { return s.Rank > 0 }) {
		l.Add("dominated", glyphThumb(dominatedGlyph))
	}
	if len(r.Meta.Presets) > 0 {
		l.Add("preset", glyphThumb(presetGlyph))
	}
	for _, name := range sortedKeys(r.Meta.References) {
		l.Add(name, glyphThumb(refGlyph(name)))
	}
	return &l
}

// glyphThumb is a legend thumbnail: one glyph in the middle.
type glyphThumb draw.GlyphStyle

func (g glyphThumb) Thumbnail(c *draw.Canvas) { c.DrawGlyph(draw.GlyphStyle(g), c.Center()) }

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

func hasTest(f *tuner.Front) bool {
	for _, s := range f.Solutions {
		if s.Test != nil {
			return true
		}
	}
	return false
}

// objective is the table's row for a run objective, in the direction the
// run optimised it; a name the table lacks keeps its name as label.
func objective(o tuner.Objective) objectives.Objective {
	t, err := objectives.Lookup(o.Name)
	if err != nil {
		t = objectives.Objective{Name: o.Name, Label: o.Name, DisplayScale: 1}
	}
	t.Direction = objectives.Minimize
	if o.Maximize {
		t.Direction = objectives.Maximize
	}
	return t
}

// heading is the name of a score for people, with its display unit.
func heading(name string) string { return objective(tuner.Objective{Name: name}).Heading() }

// axisLabel names a front axis: the score, its display unit and which way
// is better ("p90 wait ratio — lower is better").
func axisLabel(o tuner.Objective) string { return objective(o).AxisLabel() }

func frontPanel(r *Run, x, y tuner.Objective, s split) (*plot.Plot, error) {
	p := newPlot(fmt.Sprintf("%s front, %s split", r.Front.Policy, s.name), axisLabel(x), axisLabel(y))
	front, dominated := plotter.XYs{}, plotter.XYs{}
	for _, sol := range r.Front.Solutions {
		pt, ok := point(s.of(sol.Train, sol.Test), x.Name, y.Name)
		if !ok {
			continue
		}
		if sol.Rank == 0 {
			front = append(front, pt)
		} else {
			dominated = append(dominated, pt)
		}
	}
	slices.SortFunc(front, func(a, b plotter.XY) int { return cmpXY(a, b) })
	if err := addFront(p, front, dominated); err != nil {
		return nil, err
	}
	labels := &labelLayer{points: append(append(plotter.XYs{}, front...), dominated...), pointsRadius: frontGlyph.Radius}
	if err := addReferences(p, labels, r.Meta, x.Name, y.Name, s); err != nil {
		return nil, err
	}
	if err := addPresets(p, labels, r, x.Name, y.Name, s); err != nil {
		return nil, err
	}
	p.Add(labels) // last: placed around every mark
	return p, nil
}

func cmpXY(a, b plotter.XY) int {
	if c := cmpFloat(a.X, b.X); c != 0 {
		return c
	}
	return cmpFloat(a.Y, b.Y)
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

// point returns the (x, y) scores of sc in their display units
// (node-hours, hours, kWh), false when sc is nil or a value is not finite.
func point(sc *objectives.Scores, x, y string) (plotter.XY, bool) {
	if sc == nil {
		return plotter.XY{}, false
	}
	xv, errx := sc.Get(x)
	yv, erry := sc.Get(y)
	if errx != nil || erry != nil || !finite(xv) || !finite(yv) {
		return plotter.XY{}, false
	}
	xv = objective(tuner.Objective{Name: x}).Display(xv)
	yv = objective(tuner.Objective{Name: y}).Display(yv)
	return plotter.XY{X: xv, Y: yv}, true
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func addFront(p *plot.Plot, front, dominated plotter.XYs) error {
	if len(dominated) > 0 {
		sc, err := plotter.NewScatter(dominated)
		if err != nil {
			return fmt.Errorf("reports: %w", err)
		}
		sc.GlyphStyle = dominatedGlyph
		p.Add(sc)
	}
	if len(front) == 0 {
		return nil
	}
	sc, err := plotter.NewScatter(front)
	if err != nil {
		return fmt.Errorf("reports: %w", err)
	}
	sc.GlyphStyle = frontGlyph
	p.Add(sc)
	return nil
}

// refGlyph gives each reference its own mark: always-on a square, the
// oracle a triangle, baselines a cross.
func refGlyph(name string) draw.GlyphStyle {
	switch name {
	case AlwaysOn:
		return draw.GlyphStyle{Color: colRef, Radius: vg.Points(3), Shape: draw.BoxGlyph{}}
	case Oracle:
		return draw.GlyphStyle{Color: colOracle, Radius: vg.Points(3.5), Shape: draw.PyramidGlyph{}}
	}
	return draw.GlyphStyle{Color: colRef, Radius: vg.Points(3), Shape: draw.CrossGlyph{}}
}

func addReferences(p *plot.Plot, labels *labelLayer, m *tuner.RunMeta, x, y string, s split) error {
	for _, name := range sortedKeys(m.References) {
		ref := m.References[name]
		pt, ok := point(s.of(ref.Train, ref.Test), x, y)
		if !ok {
			continue
		}
		if err := addMarked(p, labels, pt, name, refGlyph(name), colRef); err != nil {
			return err
		}
	}
	return nil
}

// addPresets marks the presets' solutions, one label per solution:
// presets resolved to the same row share it ("qos0, qos0.1").
func addPresets(p *plot.Plot, layer *labelLayer, r *Run, x, y string, s split) error {
	var rows []int
	labels := map[int][]string{}
	for _, pc := range r.Meta.Presets {
		if _, seen := labels[pc.Row]; !seen {
			rows = append(rows, pc.Row)
		}
		label := pc.Name
		if !pc.Feasible {
			label += " (infeasible)"
		}
		labels[pc.Row] = append(labels[pc.Row], label)
	}
	for _, row := range rows {
		sol := r.Front.Solutions[row]
		pt, ok := point(s.of(sol.Train, sol.Test), x, y)
		if !ok {
			continue
		}
		if err := addMarked(p, layer, pt, strings.Join(labels[row], ", "), presetGlyph, colPreset); err != nil {
			return err
		}
	}
	return nil
}

// addMarked draws one glyph and gives its label to the plot's label
// layer, which places it clear of the other labels and marks.
func addMarked(p *plot.Plot, labels *labelLayer, pt plotter.XY, label string, g draw.GlyphStyle, c color.Color) error {
	sc, err := plotter.NewScatter(plotter.XYs{pt})
	if err != nil {
		return fmt.Errorf("reports: %w", err)
	}
	sc.GlyphStyle = g
	p.Add(sc)
	labels.add(pt, label, c, g.Radius)
	return nil
}
