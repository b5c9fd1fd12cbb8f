package reports

import (
	"bytes"
	"image/png"
	"runtime"
	"testing"
	"time"
)

func TestFrontFiguresGolden(t *testing.T) {
	figs, err := FrontFigures(testRun())
	if err != nil {
		t.Fatal(err)
	}
	// Three objectives give three pairs.
	want := []string{
		"front-qos_p90-off_node_seconds",
		"front-qos_p90-reconfigurations",
		"front-off_node_seconds-reconfigurations",
	}
	if len(figs) != len(want) {
		t.Fatalf("got %d figures, want %d", len(figs), len(want))
	}
	for i, f := range figs {
		if f.Name != want[i] {
			t.Errorf("figure %d is %s, want %s", i, f.Name, want[i])
		}
		if len(f.Plots[0]) != 2 {
			t.Errorf("%s: %d panels, want train and test", f.Name, len(f.Plots[0]))
		}
		svg, err := f.Render(SVG)
		if err != nil {
			t.Fatal(err)
		}
		checkGolden(t, f.Name+".golden.svg", svg)
	}
}

func TestTimelineFiguresGolden(t *testing.T) {
	tl := testTimeline()
	slots, err := SlotsFigure("slots", tl, 1000, 1600, 8)
	if err != nil {
		t.Fatal(err)
	}
	nodes, err := NodesFigure("nodes", tl, 1000, 1600)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []*Figure{slots, nodes} {
		svg, err := f.Render(SVG)
		if err != nil {
			t.Fatal(err)
		}
		checkGolden(t, f.Name+".golden.svg", svg)
	}
}

// Rendering must not depend on the number of threads or the clock.
func TestRenderDeterministic(t *testing.T) {
	figs, err := FrontFigures(testRun())
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range Formats {
		a, err := figs[0].Render(format)
		if err != nil {
			t.Fatal(err)
		}
		prev := runtime.GOMAXPROCS(1)
		if format == PDF {
			time.Sleep(time.Second) // fpdf stamps dates to the second
		}
		b, err := figs[0].Render(format)
		runtime.GOMAXPROCS(prev)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two renderings differ", format)
		}
	}
}

func TestRenderPNGSize(t *testing.T) {
	figs, err := FrontFigures(testRun())
	if err != nil {
		t.Fatal(err)
	}
	b, err := figs[0].Render(PNG)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	// 9 in × 3.6 in at 150 dpi.
	if got := img.Bounds().Size(); got.X != 1350 || got.Y != 540 {
		t.Errorf("PNG is %v, want 1350×540", got)
	}
}

func TestRenderUnknownFormat(t *testing.T) {
	figs, _ := FrontFigures(testRun())
	if _, err := figs[0].Render("gif"); err == nil {
		t.Error("rendering as gif: no error")
	}
}

func TestCompact(t *testing.T) {
	for v, want := range map[float64]string{
		0: "0", 0.25: "0.25", 0.1 + 0.2: "0.3", 250: "250", 5000: "5000", 40000: "40k", 1.5e5: "150k",
		2e8: "200M", 1.2e7: "12M", 3e10: "30G", -40000: "-40k",
	} {
		if got := compact(v); got != want {
			t.Errorf("compact(%v) = %q, want %q", v, got, want)
		}
	}
}

// Presets resolved to one solution share one label.
func TestPresetsSharingARow(t *testing.T) {
	r := testRun()
	r.Meta.Presets[1].Row = 4 // qos0.1 now on qos0's row
	figs, err := FrontFigures(r)
	if err != nil {
		t.Fatal(err)
	}
	svg, err := figs[0].Render(SVG)
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(svg, []byte(">qos0 (infeasible), qos0.1<")); n != 2 {
		t.Errorf("shared label drawn %d times, want once per panel", n)
	}
}

func TestNum(t *testing.T) {
	for v, want := range map[float64]string{
		0: "0", 7772: "7772", 7772.04: "7772", 5245.44: "5245.4", 40.29543: "40.2954", 0.1: "0.1", 1e15: "1000000000000000",
	} {
		if got := num(v); got != want {
			t.Errorf("num(%v) = %q, want %q", v, got, want)
		}
	}
}
