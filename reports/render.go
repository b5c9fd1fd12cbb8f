package reports

import (
	"bytes"
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Image formats a figure is rendered to.
const (
	SVG = "svg"
	PNG = "png"
	PDF = "pdf"
)

// Formats are the image formats reports write, in order.
var Formats = []string{SVG, PNG, PDF}

// pngDPI is the resolution of PNG figures.
const pngDPI = 96

// A Figure is a grid of plots (one row, side by side, for fronts) drawn on
// one page of fixed size, so the same data always gives the same bytes.
type Figure struct {
	Name   string // file base name, e.g. "front-qos_p90-off_node_seconds"
	Title  string
	Plots  [][]*plot.Plot
	Width  vg.Length
	Height vg.Length
	// Legend, when set, is drawn in a strip LegendWidth wide at the right
	// of the plots instead of over the data.
	Legend      *plot.Legend
	LegendWidth vg.Length
}

// Render draws f in format (SVG, PNG or PDF).
func (f *Figure) Render(format string) ([]byte, error) {
	c, err := newCanvas(f.Width, f.Height, format)
	if err != nil {
		return nil, err
	}
	dc := draw.New(c)
	if f.Legend != nil {
		strip := draw.Crop(dc, f.Width-f.LegendWidth, 0, 0, -vg.Points(24))
		f.Legend.Top, f.Legend.Left = true, true
		f.Legend.Draw(strip)
		dc = draw.Crop(dc, 0, -f.LegendWidth, 0, 0)
	}
	tiles := draw.Tiles{
		Rows: len(f.Plots), Cols: len(f.Plots[0]),
		PadX: vg.Points(18), PadY: vg.Points(12),
		PadTop: vg.Points(6), PadBottom: vg.Points(6),
		PadLeft: vg.Points(6), PadRight: vg.Points(10),
	}
	canvases := plot.Align(f.Plots, tiles, dc)
	for i, row := range f.Plots {
		for j, p := range row {
			if p != nil {
				p.Draw(canvases[i][j])
			}
		}
	}
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("reports: rendering %s as %s: %w", f.Name, format, err)
	}
	return buf.Bytes(), nil
}

func newCanvas(w, h vg.Length, format string) (vg.CanvasWriterTo, error) {
	switch format {
	case SVG:
		return vgsvg.New(w, h), nil
	case PNG:
		return vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(pngDPI))}, nil
	case PDF:
		c := vgpdf.New(w, h)
		c.EmbedFonts(true)
		return c, nil
	}
	return nil, fmt.Errorf("reports: unknown image format %q (want svg, png or pdf)", format)
}

// newPlot makes a plot with the house style: fixed fonts and sizes, so
// figures are byte-for-byte reproducible.
func newPlot(title, xlabel, ylabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = font.Font{Typeface: "Liberation", Variant: "Sans"}
	p.Title.TextStyle.Font.Size = vg.Points(11)
	p.X.Label.Text = xlabel
	p.Y.Label.Text = ylabel
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.Font{Typeface: "Liberation", Variant: "Sans", Size: vg.Points(9)}
		a.Tick.Label.Font = font.Font{Typeface: "Liberation", Variant: "Sans", Size: vg.Points(8)}
	}
	p.Legend.TextStyle.Font = font.Font{Typeface: "Liberation", Variant: "Sans", Size: vg.Points(8)}
	return p
}
