package reports

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
)

// StateColors are the colours of node states in the node-state chart and
// the Paraver .pcf, indexed by policy.NodeState.
var StateColors = [...]color.RGBA{
	policy.Off:          {64, 64, 64, 255},   // dark grey
	policy.Booting:      {230, 159, 0, 255},  // orange
	policy.Idle:         {86, 180, 233, 255}, // sky blue
	policy.Busy:         {0, 114, 178, 255},  // blue
	policy.ShuttingDown: {213, 94, 0, 255},   // vermilion
}

// Size of the timeline figures.
const (
	timelineWidth  = 8 * vg.Inch
	timelineHeight = 3.2 * vg.Inch
)

var timeTicks = plot.TimeTicks{Format: "2006-01-02\n15:04"}

// SlotsFigure draws requested slots (running plus queued jobs) against
// powered slots over [from, to) as step functions, as the EECluster
// evaluation does, under the cluster's capacity (its slots; a dashed
// line, none when capacity is 0): requests above it wait however many
// nodes are on.
func SlotsFigure(title string, tl *sim.Timeline, from, to int64, capacity int) (*Figure, error) {
	if from >= to {
		return nil, fmt.Errorf("reports: slots figure: empty window [%d, %d)", from, to)
	}
	req, pow := stepXYs(tl.Steps, from, to)
	req = m4(req, float64(from), float64(to), stepBins)
	pow = m4(pow, float64(from), float64(to), stepBins)
	p := newPlot(title, "time (UTC)", "slots")
	p.X.Tick.Marker = timeTicks
	p.Legend.Top = true
	for _, s := range []struct {
		name string
		xys  plotter.XYs
		col  color.Color
	}{{"requested", req, StateColors[policy.ShuttingDown]}, {"powered", pow, StateColors[policy.Busy]}} {
		l, err := plotter.NewLine(s.xys)
		if err != nil {
			return nil, fmt.Errorf("reports: slots figure: %w", err)
		}
		l.StepStyle = plotter.PostStep
		l.LineStyle.Color = s.col
		l.LineStyle.Width = vg.Points(1)
		p.Add(l)
		p.Legend.Add(s.name, l)
	}
	top := headroom(req, pow)
	if capacity > 0 {
		capXY := plotter.XYs{{X: float64(from), Y: float64(capacity)}, {X: float64(to), Y: float64(capacity)}}
		l, err := plotter.NewLine(capXY)
		if err != nil {
			return nil, fmt.Errorf("reports: slots figure: %w", err)
		}
		l.LineStyle.Color = color.Black
		l.LineStyle.Width = vg.Points(1)
		l.LineStyle.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(l)
		p.Legend.Add(fmt.Sprintf("capacity (%d slots)", capacity), l)
		top = max(top, headroom(capXY))
	}
	p.Y.Min = 0
	p.Y.Max = top
	return &Figure{Name: "timeline-slots", Title: title, Plots: [][]*plot.Plot{{p}},
		Width: timelineWidth, Height: timelineHeight}, nil
}

// headroom is the top of the slots axis: 15 % above the largest value,
// so the legend does not cover the curves.
func headroom(series ...plotter.XYs) float64 {
	top := 1.0
	for _, s := range series {
		for _, xy := range s {
			top = max(top, xy.Y)
		}
	}
	return top * 1.15
}

// stepXYs returns the requested and powered step functions over [from,
// to]: the value in force at from, every change inside, and the value
// held until to.
func stepXYs(steps []sim.Step, from, to int64) (req, pow plotter.XYs) {
	cur := sim.Step{Time: from}
	add := func(t int64, s sim.Step) {
		req = append(req, plotter.XY{X: float64(t), Y: float64(s.Requested)})
		pow = append(pow, plotter.XY{X: float64(t), Y: float64(s.Powered)})
	}
	started := false
	for _, s := range steps {
		if s.Time <= from {
			cur = s
			continue
		}
		if s.Time >= to {
			break
		}
		if !started {
			add(from, cur)
			started = true
		}
		add(s.Time, s)
		cur = s
	}
	if !started {
		add(from, cur)
	}
	add(to, cur)
	return req, pow
}

// NodesFigure draws the state of every node over [from, to) as colour
// bands: one row per node, off, booting, idle, busy and shutting down in
// StateColors.
func NodesFigure(title string, tl *sim.Timeline, from, to int64) (*Figure, error) {
	if from >= to {
		return nil, fmt.Errorf("reports: node-state figure: empty window [%d, %d)", from, to)
	}
	p := newPlot(title, "time (UTC)", "node")
	p.X.Tick.Marker = timeTicks
	b := &stateBands{ivs: nodeIntervals(tl, from, to), nodes: len(tl.NodeNames), from: from, to: to}
	p.Add(b)
	legend := plot.NewLegend()
	legend.TextStyle.Font = p.Legend.TextStyle.Font
	for s := policy.Off; s <= policy.ShuttingDown; s++ {
		legend.Add(s.String(), swatch(StateColors[s]))
	}
	return &Figure{Name: "timeline-nodes", Title: title, Plots: [][]*plot.Plot{{p}},
		Width: timelineWidth, Height: timelineHeight, Legend: &legend, LegendWidth: 1.2 * vg.Inch, Raster: true}, nil
}

// stateBands is a plotter drawing node-state intervals as rectangles.
type stateBands struct {
	ivs      []interval
	nodes    int
	from, to int64
}

func (b *stateBands) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for _, iv := range b.ivs {
		x0, x1 := trX(float64(iv.From)), trX(float64(iv.To))
		y0, y1 := trY(float64(iv.Node)), trY(float64(iv.Node+1))
		c.FillPolygon(StateColors[iv.State], []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}})
	}
}

func (b *stateBands) DataRange() (xmin, xmax, ymin, ymax float64) {
	return float64(b.from), float64(b.to), 0, float64(b.nodes)
}

// swatch is a legend thumbnail: a filled square.
type swatch color.RGBA

func (s swatch) Thumbnail(c *draw.Canvas) {
	r := c.Rectangle
	c.FillPolygon(color.RGBA(s), []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}})
}
