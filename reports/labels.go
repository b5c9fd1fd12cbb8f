package reports

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// labelLayer draws the labels of a plot's marked points (references and
// presets) where they overlap neither each other nor the marks: each label
// takes the first free place among positions around its point, tried
// nearest first, in the order the labels were added; a label moved away
// from its point gets a thin leader line. Placement works in canvas
// units, so it holds at every output size.
type labelLayer struct {
	items []markedLabel
	// points are the plot's other marks (the front): a label avoids them
	// when it can, but never at the price of covering a label or a mark.
	points       plotter.XYs
	pointsRadius vg.Length
}

type markedLabel struct {
	pt     plotter.XY
	text   string
	color  color.Color
	radius vg.Length // of the point's glyph
}

// add registers a label for pt.
func (l *labelLayer) add(pt plotter.XY, label string, c color.Color, radius vg.Length) {
	l.items = append(l.items, markedLabel{pt: pt, text: label, color: c, radius: radius})
}

var labelStyle = func() text.Style {
	s := text.Style{Font: font.Font{Typeface: "Liberation", Variant: "Sans", Size: vg.Points(8)}, Handler: plot.DefaultTextHandler}
	return s
}()

// labelCandidates are the places tried for a label, as offsets of its
// lower-left corner from the point in units of (label width, label
// height), nearest first, then further out.
// candidatesPerRing is the number of places labelCandidates tries at each
// distance.
const candidatesPerRing = 8

func labelCandidates(w, h, gap vg.Length) []vg.Point {
	var out []vg.Point
	for ring := 0; ring < 6; ring++ {
		d := gap + vg.Length(ring)*h
		out = append(out,
			vg.Point{X: d, Y: -h / 3},            // right
			vg.Point{X: -w - d, Y: -h / 3},       // left
			vg.Point{X: d, Y: d},                 // upper right
			vg.Point{X: d, Y: -h - d},            // lower right
			vg.Point{X: -w - d, Y: d},            // upper left
			vg.Point{X: -w - d, Y: -h - d},       // lower left
			vg.Point{X: -w / 2, Y: d + h/3},      // above
			vg.Point{X: -w / 2, Y: -h - d - h/3}, // below
		)
	}
	return out
}

type box struct{ min, max vg.Point }

// around is the square of half-side r around p.
func around(p vg.Point, r vg.Length) box {
	return box{vg.Point{X: p.X - r, Y: p.Y - r}, vg.Point{X: p.X + r, Y: p.Y + r}}
}

func (a box) overlaps(b box) bool {
	return a.min.X < b.max.X && b.min.X < a.max.X && a.min.Y < b.max.Y && b.min.Y < a.max.Y
}

func (a box) inside(c draw.Canvas) bool {
	return a.min.X >= c.Min.X && a.max.X <= c.Max.X && a.min.Y >= c.Min.Y && a.max.Y <= c.Max.Y
}

// Plot implements plot.Plotter.
func (l *labelLayer) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	pts := make([]vg.Point, len(l.items))
	var taken []box
	for i, it := range l.items { // the marks themselves are taken
		pts[i] = vg.Point{X: trX(it.pt.X), Y: trY(it.pt.Y)}
		taken = append(taken, around(pts[i], it.radius))
	}
	others := make([]box, len(l.points))
	for i, pt := range l.points {
		others[i] = around(vg.Point{X: trX(pt.X), Y: trY(pt.Y)}, l.pointsRadius)
	}
	for i, it := range l.items {
		sty := labelStyle
		sty.Color = it.color
		w, h := sty.Width(it.text), sty.Height(it.text)
		gap := it.radius + vg.Points(2)
		best := bestPlace(c, pts[i], labelCandidates(w, h, gap), w, h, taken, others)
		at := vg.Point{X: pts[i].X + best.X, Y: pts[i].Y + best.Y}
		taken = append(taken, box{at, vg.Point{X: at.X + w, Y: at.Y + h}})
		if best.X > gap+h/2 || best.X < -w-gap-h/2 || best.Y > gap+h || best.Y < -h-gap-h {
			// Far from its point: a leader line to the label's nearest edge.
			end := vg.Point{X: clampLen(pts[i].X, at.X, at.X+w), Y: clampLen(pts[i].Y, at.Y, at.Y+h)}
			c.StrokeLine2(draw.LineStyle{Color: it.color, Width: vg.Points(0.5)}, pts[i].X, pts[i].Y, end.X, end.Y)
		}
		c.FillText(sty, at, it.text)
	}
}

// bestPlace is the cheapest of the offsets cands from pt for a label of
// size w×h inside c: covering a label or a mark (taken) costs more than
// anything else; covering a front point (others) costs as much as moving
// three rings out (a long leader line is harder to read than a covered
// dot); the first of equal cost wins, and the first candidate when none
// fits inside c.
func bestPlace(c draw.Canvas, pt vg.Point, cands []vg.Point, w, h vg.Length, taken, others []box) vg.Point {
	best, bestCost := cands[0], -1
	for k, off := range cands {
		b := box{vg.Point{X: pt.X + off.X, Y: pt.Y + off.Y}, vg.Point{X: pt.X + off.X + w, Y: pt.Y + off.Y + h}}
		if !b.inside(c) {
			continue
		}
		cost := k / candidatesPerRing
		for _, t := range taken {
			if b.overlaps(t) {
				cost += 1000
			}
		}
		for _, o := range others {
			if b.overlaps(o) {
				cost += 3
			}
		}
		if bestCost < 0 || cost < bestCost {
			best, bestCost = off, cost
		}
	}
	return best
}

func clampLen(v, lo, hi vg.Length) vg.Length { return max(lo, min(hi, v)) }
