package reports

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/plot/plotter"
)

func TestM4(t *testing.T) {
	// Two bins over [0, 10): bin 0 holds x = 0..4, bin 1 x = 5..9.
	var xys plotter.XYs
	for i, y := range []float64{5, 1, 9, 3, 4, 2, 2, 8, 0, 6} {
		xys = append(xys, plotter.XY{X: float64(i), Y: y})
	}
	got := m4(xys, 0, 10, 2)
	// Bin 0: first 5@0, min 1@1, max 9@2, last 4@4. Bin 1: first 2@5,
	// max 8@7, min 0@8, last 6@9.
	want := plotter.XYs{{X: 0, Y: 5}, {X: 1, Y: 1}, {X: 2, Y: 9}, {X: 4, Y: 4}, {X: 5, Y: 2}, {X: 7, Y: 8}, {X: 8, Y: 0}, {X: 9, Y: 6}}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
	if short := xys[:8]; len(m4(short, 0, 10, 2)) != 8 {
		t.Error("a series of at most 4·bins points changed")
	}
}

// On random series the reduction keeps, in each bin, the first, last,
// lowest and highest values, and is a subsequence of the input.
func TestM4Properties(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	for range 50 {
		n, bins := 100+rng.IntN(5000), 1+rng.IntN(40)
		xys := make(plotter.XYs, n)
		x := 0.0
		for i := range xys {
			x += rng.Float64()
			xys[i] = plotter.XY{X: x, Y: float64(rng.IntN(100))}
		}
		from, to := xys[0].X, xys[n-1].X
		got := m4(xys, from, to, bins)
		if len(got) > max(4*bins, n) {
			t.Fatalf("%d points from %d in %d bins", len(got), n, bins)
		}
		j := 0
		for _, p := range got {
			for j < n && xys[j] != p {
				j++
			}
			if j == n {
				t.Fatal("output is not a subsequence of the input")
			}
		}
		if n <= 4*bins {
			continue
		}
		type ext struct{ lo, hi, first, last float64 }
		summarise := func(s plotter.XYs) map[int]ext {
			m := map[int]ext{}
			for _, p := range s {
				b := min(bins-1, int((p.X-from)*float64(bins)/(to-from)))
				e, ok := m[b]
				if !ok {
					e = ext{p.Y, p.Y, p.Y, p.Y}
				}
				e.lo, e.hi, e.last = min(e.lo, p.Y), max(e.hi, p.Y), p.Y
				m[b] = e
			}
			return m
		}
		in, out := summarise(xys), summarise(got)
		for b, e := range in {
			if out[b] != e {
				t.Fatalf("bin %d: input %+v, output %+v", b, e, out[b])
			}
		}
	}
}
