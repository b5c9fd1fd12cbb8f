package objectives

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ecotune/ecotune/sim"
	"gonum.org/v1/gonum/stat"
)

// result makes a Result whose job i waits waits[i] and runs runs[i].
func result(waits, runs []int64) *sim.Result {
	r := &sim.Result{TIni: 0}
	for i := range waits {
		sub := int64(10 * i)
		r.Jobs = append(r.Jobs, sim.JobRecord{ID: int64(i + 1), Submit: sub, Start: sub + waits[i], End: sub + waits[i] + runs[i], Slots: 1})
		r.TEnd = max(r.TEnd, sub+waits[i]+runs[i])
	}
	return r
}

func TestQoSHandWorked(t *testing.T) {
	cases := []struct {
		name         string
		waits, runs  []int64
		qos          float64
		median, mean float64
		max          int64
		slowdown     float64
	}{
		{
			// n = 10: ratios wait/100 = 0, 0.1, …, 0.9 (shuffled below);
			// 0.9·n = 9 is whole, k = 9: QoS = r_(9) = 0.9 — the smallest
			// p with more than 9 ratios ≤ p. gonum's empirical quantile
			// would give r_(8) = 0.8.
			// Median: (40 + 50) / 2 = 45; mean 45; max 90.
			// Bounded slowdown: Σ (w+100)/100 / 10 = (450+1000)/1000 = 1.45.
			name:  "n=10",
			waits: []int64{50, 0, 90, 10, 80, 20, 70, 30, 60, 40},
			runs:  []int64{100, 100, 100, 100, 100, 100, 100, 100, 100, 100},
			qos:   0.9, median: 45, mean: 45, max: 90, slowdown: 1.45,
		},
		{
			// n = 7: floor(6.3) = 6 → r_(6), the largest ratio.
			// Ratios: 30/10 = 3, 0/5 = 0, 4/0 → 4/1 = 4 (zero run counts
			// 1 s), 2/4 = 0.5, 1/1 = 1, 0/2 = 0, 6/3 = 2. Sorted: 0 0 0.5
			// 1 2 3 4 → QoS 4.
			// Waits 30 0 4 2 1 0 6: median (n odd) = 2, mean 43/7, max 30.
			// Bounded slowdown, runs below 10 s count 10 s:
			// (40/10 + 1 + 1 + 1 + 1 + 1 + 1) / 7 = 10/7 (all but the
			// first are ≤ 1 and count 1: (0+5)/10, (4+0)/10, (2+4)/10,
			// (1+1)/10, (0+2)/10, (6+3)/10).
			name:  "n=7 with a zero run",
			waits: []int64{30, 0, 4, 2, 1, 0, 6},
			runs:  []int64{10, 5, 0, 4, 1, 2, 3},
			qos:   4, median: 2, mean: 43.0 / 7, max: 30, slowdown: 10.0 / 7,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := Compute(result(tc.waits, tc.runs))
			if s.QoSP90 != tc.qos || s.MedianWait != tc.median || math.Abs(s.MeanWait-tc.mean) > 1e-12 ||
				s.MaxWait != tc.max || math.Abs(s.BoundedSlowdown-tc.slowdown) > 1e-12 || s.Jobs != len(tc.waits) {
				t.Errorf("got qos %v median %v mean %v max %v slowdown %v jobs %d", s.QoSP90, s.MedianWait, s.MeanWait, s.MaxWait, s.BoundedSlowdown, s.Jobs)
			}
		})
	}
}

// TestQoSNotGonum shows the difference docs/architecture.md warns about.
func TestQoSNotGonum(t *testing.T) {
	ratios := []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9}
	if g := stat.Quantile(0.9, stat.Empirical, ratios, nil); g != 0.8 {
		t.Fatalf("gonum gives %v; the test assumes 0.8", g)
	}
	waits := []int64{0, 10, 20, 30, 40, 50, 60, 70, 80, 90}
	runs := slices.Repeat([]int64{100}, 10)
	if q := Compute(result(waits, runs)).QoSP90; q != 0.9 {
		t.Errorf("QoS %v, want 0.9", q)
	}
}

// TestAgainstSort compares the selection-based scores with sorting, on
// random jobs, reusing one Scorer: many waits zero (a third, or all but
// a few: the p90 then zero or not), and some cases with negative waits
// (which no replay has, but a hand-made Result may).
func TestAgainstSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	var sc Scorer
	for n := 1; n < 300; n += 7 {
		waits, runs := make([]int64, n), make([]int64, n)
		for i := range n {
			waits[i] = rng.Int64N(50) * rng.Int64N(3) // many ties
			switch n % 3 {
			case 1: // nearly all zero
				if rng.IntN(12) != 0 {
					waits[i] = 0
				}
			case 2:
				waits[i] -= 10
			}
			runs[i] = rng.Int64N(40)
		}
		s := sc.Compute(result(waits, runs))
		ratios := make([]float64, n)
		sorted := slices.Clone(waits)
		slices.Sort(sorted)
		for i := range n {
			ratios[i] = float64(waits[i]) / float64(max(runs[i], 1))
		}
		slices.Sort(ratios)
		if want := ratios[min(9*n/10, n-1)]; s.QoSP90 != want {
			t.Fatalf("n=%d: QoS %v, want %v", n, s.QoSP90, want)
		}
		median := float64(sorted[n/2])
		if n%2 == 0 {
			median = float64(sorted[n/2-1]+sorted[n/2]) / 2
		}
		if s.MedianWait != median || s.MaxWait != sorted[n-1] {
			t.Fatalf("n=%d: median %v max %v, want %v %v", n, s.MedianWait, s.MaxWait, median, sorted[n-1])
		}
	}
}

func TestGetEveryName(t *testing.T) {
	r := result([]int64{5, 0}, []int64{10, 20})
	r.OffNodeSeconds, r.Reconfigurations, r.EnergyWh = 7, 3, 2500
	r.PeakPoweredNodes, r.Boots, r.Shutdowns = 4, 1, 2
	s := Compute(r)
	want := map[string]float64{
		QoSP90: 0.5, OffNodeSeconds: 7, Reconfigurations: 3, EnergyKWh: 2.5, MeanWait: 2.5,
		MedianWait: 2.5, MaxWait: 5, BoundedSlowdown: (1.5 + 1) / 2, Makespan: 30,
		PeakPowered: 4, Boots: 1, Shutdowns: 2,
	}
	for _, name := range Names() {
		got, err := s.Get(name)
		if err != nil || got != want[name] {
			t.Errorf("Get(%q) = %v, %v; want %v", name, got, err, want[name])
		}
	}
	if len(want) != len(Names()) {
		t.Errorf("Names has %d names, the test %d", len(Names()), len(want))
	}
	if _, err := s.Get("nope"); err == nil {
		t.Error("Get of an unknown name: no error")
	}
}

func TestScorerDoesNotAllocate(t *testing.T) {
	waits, runs := make([]int64, 1000), make([]int64, 1000)
	for i := range waits {
		waits[i], runs[i] = int64(i%37), int64(i%11)
	}
	r := result(waits, runs)
	var sc Scorer
	sc.Compute(r)
	if a := testing.AllocsPerRun(10, func() { sc.Compute(r) }); a != 0 {
		t.Errorf("%v allocations per Compute", a)
	}
}

func TestNoJobs(t *testing.T) {
	if s := Compute(&sim.Result{}); s != (Scores{}) {
		t.Errorf("%+v", s)
	}
}
