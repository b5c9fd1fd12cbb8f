package reports

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"strconv"

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
const pngDPI = 150

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
	// Raster figures (thousands of tiny shapes) are embedded in the HTML
	// report as PNG, which is far smaller than their SVG.
	Raster bool
}

// embedFormat is the format the HTML report embeds f in.
func (f *Figure) embedFormat() string {
	if f.Raster {
		return PNG
	}
	return SVG
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
	if format == PDF {
		return fixPDFDates(buf.Bytes()), nil
	}
	return buf.Bytes(), nil
}

// pdfDate matches the creation and modification dates fpdf stamps with
// the wall clock.
var pdfDate = regexp.MustCompile(`/(CreationDate|ModDate) \(D:\d{14}\)`)

// fixPDFDates sets the PDF's dates to the Unix epoch. The replacement has
// the same length, so the cross-reference offsets stay right, and the same
// figure always gives the same PDF bytes.
func fixPDFDates(pdf []byte) []byte {
	return pdfDate.ReplaceAllFunc(pdf, func(m []byte) []byte {
		i := bytes.Index(m, []byte("(D:"))
		return append(m[:i:i], "(D:19700101000000)"...)
	})
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
	p.X.Tick.Marker = readableTicks{}
	p.Y.Tick.Marker = readableTicks{}
	return p
}

// readableTicks are gonum's default ticks labelled without exponents or
// trailing zeros: 40k, 2M, 0.25.
type readableTicks struct{}

func (readableTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = compact(ticks[i].Value)
		}
	}
	return ticks
}

// compact formats an axis value: k and M suffixes from ten thousand up,
// at most 4 decimals below.
func compact(v float64) string {
	switch a := math.Abs(v); {
	case a >= 1e10:
		return strconv.FormatFloat(v/1e9, 'f', -1, 64) + "G"
	case a >= 1e7:
		return strconv.FormatFloat(v/1e6, 'f', -1, 64) + "M"
	case a >= 1e4:
		return strconv.FormatFloat(v/1e3, 'f', -1, 64) + "k"
	}
	return trimZeros(strconv.FormatFloat(v, 'f', 4, 64))
}
