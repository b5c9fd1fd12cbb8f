package objectives

import "github.com/ecotune/ecotune/sim"

// SlowdownThreshold is the run time, in seconds, below which bounded
// slowdown counts a job as running that long: max(1, (wait+run) / max(run, 10)).
const SlowdownThreshold = 10

// Compute scores one replay.
func Compute(r *sim.Result) Scores {
	var s Scorer
	return s.Compute(r)
}

// A Scorer computes Scores with reusable scratch space, so that scoring
// many replays allocates nothing once it has grown. One Scorer must not be
// used by two goroutines at once.
type Scorer struct {
	scratch []float64
}

// Reserve makes room for scoring replays of up to jobs jobs, so that
// Compute allocates nothing for them (a caller short of memory reserves
// before its heap fills up).
func (sc *Scorer) Reserve(jobs int) {
	if cap(sc.scratch) < jobs {
		sc.scratch = make([]float64, jobs)
	}
}

// Compute scores one replay, as the package-level Compute does.
//
// QoS is r_(k), k = floor(0.9·n) clamped to n−1, of the sorted wait ratios
// (wait / run, a zero run counting as 1 s) — docs/architecture.md's definition, not
// gonum's empirical quantile. The median wait of an even number of jobs is
// the mean of the two middle waits. With no job every score is 0.
func (sc *Scorer) Compute(r *sim.Result) Scores {
	n := r.NumJobs()
	s := Scores{
		Jobs:             n,
		OffNodeSeconds:   r.OffNodeSeconds,
		Reconfigurations: r.Reconfigurations,
		EnergyKWh:        r.EnergyWh / 1000,
		Makespan:         r.TEnd - r.TIni,
		PeakPowered:      r.PeakPoweredNodes,
		Boots:            r.Boots,
		Shutdowns:        r.Shutdowns,
	}
	if n == 0 {
		return s
	}
	if cap(sc.scratch) < n {
		sc.scratch = make([]float64, n)
	}
	var waitSum, slowSum float64
	var minWait int64
	for i := range n {
		j := r.Job(i)
		wait, run := j.Start-j.Submit, j.End-j.Start
		waitSum += float64(wait)
		s.MaxWait = max(s.MaxWait, wait)
		minWait = min(minWait, wait)
		slowSum += max(1, float64(wait+run)/float64(max(run, SlowdownThreshold)))
	}
	s.MeanWait = waitSum / float64(n)
	s.BoundedSlowdown = slowSum / float64(n)
	// Waits are never negative, so the jobs that did not wait hold the
	// smallest wait ratios and waits, 0: only the others' are selected
	// from, ranks shifted by the zeros. The ratios and then the waits
	// take turns in one buffer of n values, so that scoring a long replay
	// asks for n floats, not 2n, when the heap is fullest.
	withZeros := minWait < 0 // a result not from the simulator
	ratios, zeros := sc.collect(r, withZeros, waitRatio)
	s.QoSP90 = kthAbove(ratios, zeros, min(9*n/10, n-1))
	waits, _ := sc.collect(r, withZeros, waitSeconds)
	s.MedianWait = kthAbove(waits, zeros, n/2)
	if n%2 == 0 {
		lower := 0.0 // the (n/2−1)-th smallest wait: the largest below the median
		if k := n/2 - zeros; k > 0 {
			lower = maxOf(waits[:k]) // kthAbove left the smaller ones first
		}
		s.MedianWait = (s.MedianWait + lower) / 2
	}
	return s
}

// collect fills the scratch buffer with value(wait, run) of every job
// that waited, or of every job when withZeros, and returns it with the
// number of jobs left out (each of whose values is 0).
func (sc *Scorer) collect(r *sim.Result, withZeros bool, value func(wait, run int64) float64) ([]float64, int) {
	n := r.NumJobs()
	x := sc.scratch[:0:n]
	for i := range n {
		j := r.Job(i)
		if wait := j.Start - j.Submit; wait != 0 || withZeros {
			x = append(x, value(wait, j.End-j.Start))
		}
	}
	return x, n - len(x)
}

// waitRatio is a job's wait over its run time, a zero run counting as 1 s.
func waitRatio(wait, run int64) float64 { return float64(wait) / float64(max(run, 1)) }

// waitSeconds is a job's wait.
func waitSeconds(wait, _ int64) float64 { return float64(wait) }

// kthAbove returns the k-th smallest (0-based) of zeros zeros and the
// positive values x, reordering x as kth does.
func kthAbove(x []float64, zeros, k int) float64 {
	if k < zeros {
		return 0
	}
	return kth(x, k-zeros)
}

// kth returns the k-th smallest of x (0-based), reordering x so that
// x[:k] holds the k smaller ones (Hoare's selection, median-of-three
// pivots: linear on average, deterministic).
func kth(x []float64, k int) float64 {
	lo, hi := 0, len(x)-1
	for lo < hi {
		mid := lo + (hi-lo)/2
		if x[mid] < x[lo] {
			x[mid], x[lo] = x[lo], x[mid]
		}
		if x[hi] < x[lo] {
			x[hi], x[lo] = x[lo], x[hi]
		}
		if x[hi] < x[mid] {
			x[hi], x[mid] = x[mid], x[hi]
		}
		pivot := x[mid]
		i, j := lo, hi
		for i <= j {
			for x[i] < pivot {
				i++
			}
			for pivot < x[j] {
				j--
			}
			if i <= j {
				x[i], x[j] = x[j], x[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return x[k]
		}
	}
	return x[k]
}

func maxOf(x []float64) float64 {
	m := x[0]
	for _, v := range x[1:] {
		m = max(m, v)
	}
	return m
}

// Get returns the score called name (see All), or the job count for
// "jobs".
func (s Scores) Get(name string) (float64, error) {
	if name == "jobs" {
		return float64(s.Jobs), nil
	}
	o, err := Lookup(name)
	if err != nil {
		return 0, err
	}
	return o.get(&s), nil
}
