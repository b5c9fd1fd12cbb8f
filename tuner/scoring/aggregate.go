package scoring

import (
	"fmt"
	"math"
	"slices"
)

// AggregateMedian is the median of values (Aggregate): the pick windows'
// default (pick.DefaultPickAggregate).
const AggregateMedian = "median"

// Aggregate combines values into one figure by kind, the values being
// losses (larger is worse):
//   - AggregateMean: their arithmetic mean, summed in the order given;
//   - AggregateMedian: the middle value, the mean of the two middle ones
//     for an even count;
//   - AggregateWorst: the largest;
//   - AggregateCVaR: the conditional value at risk at level alpha, the
//     mean of the ⌈alpha·n⌉ largest (at least one, at most all), summed
//     largest first: alpha 1 is the mean, alpha → 0 the worst.
//
// No values give 0; values is not changed. Robust evaluation (mean, worst,
// cvar over its replays) and the pick windows (median, mean over the
// window levels) aggregate through it. An unknown kind panics: callers
// check theirs (NormalizeRobust, pick.ValidPickAggregate).
func Aggregate(kind string, values []float64, alpha float64) float64 {
	return aggregateInto(kind, values, make([]float64, len(values)), alpha)
}

// aggregateInto is Aggregate sorting in buf (len(values) long).
func aggregateInto(kind string, values, buf []float64, alpha float64) float64 {
	n := len(values)
	if n == 0 {
		return 0
	}
	if kind == AggregateMean {
		m, _ := MeanSD(values)
		return m
	}
	s := buf[:n]
	copy(s, values)
	slices.Sort(s)
	switch kind {
	case AggregateMedian:
		if n%2 == 1 {
			return s[n/2]
		}
		return (s[n/2-1] + s[n/2]) / 2
	case AggregateWorst:
		return s[n-1]
	case AggregateCVaR:
		slices.Reverse(s)
		m := max(1, min(n, int(math.Ceil(alpha*float64(n)-1e-9))))
		sum := 0.0
		for _, v := range s[:m] {
			sum += v
		}
		return sum / float64(m)
	}
	panic(fmt.Sprintf("scoring: aggregate %q: want mean, median, worst or cvar", kind))
}

// MeanSD is the mean and sample standard deviation (n − 1) of xs, 0 for
// what fewer values leave undefined.
func MeanSD(xs []float64) (mean, sd float64) {
	if len(xs) == 0 {
		return 0, 0
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	ss := 0.0
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(len(xs)-1))
}
