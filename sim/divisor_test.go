package sim

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestDivisor checks quo against the hardware division at the edges
// (multiples of d and their neighbours, the largest n) and at random.
func TestDivisor(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, d := range []int64{1, 2, 3, 7, 60, 61, 600, 3600, 86400, 1 << 31, math.MaxInt64 / 3, math.MaxInt64} {
		v := newDivisor(d)
		ns := []int64{0, 1, d - 1, d, d + 1, math.MaxInt64, math.MaxInt64 - 1, math.MaxInt64 / d * d, math.MaxInt64/d*d - 1}
		for range 10000 {
			ns = append(ns, rng.Int64(), rng.Int64N(1<<40), rng.Int64N(1<<40)/d*d)
		}
		for _, n := range ns {
			if n < 0 {
				continue
			}
			if got, want := v.quo(n), n/d; got != want {
				t.Fatalf("%d / %d: quo %d, want %d", n, d, got, want)
			}
		}
	}
}
