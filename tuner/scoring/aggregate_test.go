package scoring

import (
	"slices"
	"testing"
)

// TestAggregate works every kind by hand, with the edge cases: one value,
// odd and even medians, cvar's level at and beyond its bounds.
func TestAggregate(t *testing.T) {
	for _, c := range []struct {
		kind  string
		vals  []float64
		alpha float64
		want  float64
	}{
		{AggregateMean, []float64{1, 2, 3, 4}, 0, 2.5},
		{AggregateMean, []float64{7}, 0, 7},
		{AggregateMean, nil, 0, 0},
		{AggregateMedian, nil, 0, 0},
		{AggregateMedian, []float64{3}, 0, 3},
		{AggregateMedian, []float64{5, 1, 3}, 0, 3},               // odd: the middle
		{AggregateMedian, []float64{4, 1, 3, 2}, 0, 2.5},          // even: mean of 2 and 3
		{AggregateMedian, []float64{9.09, 0.9, 0.9, 0.9}, 0, 0.9}, // ties
		{AggregateWorst, []float64{1, 4, 2, 3}, 0, 4},
		{AggregateWorst, []float64{-3, -1}, 0, -1},
		{AggregateCVaR, []float64{4, 1, 3, 2}, 0.5, 3.5},  // 2 worst: 4, 3
		{AggregateCVaR, []float64{4, 1, 3, 2}, 0.25, 4},   // ⌈1⌉ = 1: the worst
		{AggregateCVaR, []float64{4, 1, 3, 2}, 0.26, 3.5}, // ⌈1.04⌉ = 2
		{AggregateCVaR, []float64{4, 1, 3, 2}, 1, 2.5},    // all: the mean
		{AggregateCVaR, []float64{4, 1, 3, 2}, 2, 2.5},    // beyond 1: still all
		{AggregateCVaR, []float64{4, 1, 3, 2}, 0, 4},      // 0: at least one
		{AggregateCVaR, []float64{5, 1, 3}, 0.5, 4},       // ⌈1.5⌉ = 2: 5, 3
		{AggregateCVaR, []float64{5, 1, 3}, 0.01, 5},
		{AggregateCVaR, []float64{7}, 0.5, 7},
	} {
		in := slices.Clone(c.vals)
		if got := Aggregate(c.kind, in, c.alpha); got != c.want {
			t.Errorf("Aggregate(%s, %v, %g) = %g, want %g", c.kind, c.vals, c.alpha, got, c.want)
		}
		if !slices.Equal(in, c.vals) {
			t.Errorf("Aggregate(%s) reordered its input: %v → %v", c.kind, c.vals, in)
		}
	}
}

// TestAggregateMeanIsMeanSD: the mean sums in the order given, bit for
// bit MeanSD's (the pick windows' mean level has always been MeanSD's).
func TestAggregateMeanIsMeanSD(t *testing.T) {
	xs := []float64{0.1, 1e16, 0.2, -1e16, 0.3}
	m, _ := MeanSD(xs)
	if got := Aggregate(AggregateMean, xs, 0); got != m {
		t.Errorf("mean %g, MeanSD %g", got, m)
	}
}

// TestAggregateUnknown: a kind no caller checked panics.
func TestAggregateUnknown(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic for kind max")
		}
	}()
	Aggregate("max", []float64{1}, 0)
}
