package pick

import (
	"math"
	"slices"
	"testing"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/tuner/scoring"
)

func qosScores(qs ...float64) []objectives.Scores {
	out := make([]objectives.Scores, len(qs))
	for i, q := range qs {
		out[i] = objectives.Scores{QoSP90: q}
	}
	return out
}

// TestChooseWindows works the per-window check by hand. Always-on has
// qos_p90 10 on the whole train split (rel10 bound max(11, 10.1) = 11) and
// 20, 1, 1 on three windows (bounds 22, 1.1, 1.1).
func TestChooseWindows(t *testing.T) {
	front := []Solution{
		sol(9, 100, 5),  // 0: levels 21/22, 1.1/1.1, 1/1.1: mean 0.955
		sol(10, 700, 5), // 1: 18/22, 1.5/1.1, 1/1.1: mean 1.030 > 1
		sol(11, 500, 5), // 2: 25/22, 1/1.1, 1/1.1: misses window 1, mean 0.985
		sol(12, 900, 5), // 3: misses the whole split (12 > 11)
	}
	alwaysOn := objectives.Scores{QoSP90: 10}
	win := &Windows{
		windows:   3,
		aggregate: PickWindowMean,
		alwaysOn:  qosScores(20, 1, 1),
		sols: [][]objectives.Scores{
			qosScores(21, 1.1, 1),
			qosScores(18, 1.5, 1),
			qosScores(25, 1, 1),
			qosScores(20, 1, 1),
		},
	}
	rel10 := DefaultPresets()[3]
	if rel10.Name != "rel10" {
		t.Fatalf("DefaultPresets()[3] is %s, want rel10", rel10.Name)
	}
	// Without windows: row 1 (most off-seconds within 11).
	plain, err := rel10.ChooseWindows(front, scoring.DefaultObjectives(), alwaysOn, nil)
	if err != nil {
		t.Fatal(err)
	}
	if plain.Row != 1 || !plain.Feasible || plain.Windows != 0 || plain.WindowsFeasible != nil || plain.WindowMeanLevel != nil {
		t.Errorf("no windows: row %d feasible %v windows %d; want row 1, feasible, no windows", plain.Row, plain.Feasible, plain.Windows)
	}
	ch, err := rel10.ChooseWindows(front, scoring.DefaultObjectives(), alwaysOn, win)
	if err != nil {
		t.Fatal(err)
	}
	// Row 1 meets the whole split but its mean level is above 1: row 2,
	// which misses one window on its own but not on the mean.
	if ch.Row != 2 || !ch.Feasible || ch.Resolved != 11 {
		t.Errorf("windows: row %d feasible %v resolved %g; want row 2, feasible, 11", ch.Row, ch.Feasible, ch.Resolved)
	}
	const eps = 1e-9
	if ch.Windows != 3 || ch.WindowsFeasible == nil || *ch.WindowsFeasible != 2 {
		t.Errorf("windows %d, met %v; want 2 of 3", ch.Windows, ch.WindowsFeasible)
	}
	if ch.WorstWindowMargin == nil || math.Abs(*ch.WorstWindowMargin-(22-25)) > eps {
		t.Errorf("worst margin %v, want −3", ch.WorstWindowMargin)
	}
	if want := (25.0/22 + 1/1.1 + 1/1.1) / 3; ch.WindowMeanLevel == nil || math.Abs(*ch.WindowMeanLevel-want) > eps {
		t.Errorf("mean level %v, want %g", ch.WindowMeanLevel, want)
	}
	if want := []float64{22, 1.1, 1.1}; len(ch.WindowBounds) != 3 || math.Abs(ch.WindowBounds[0]-want[0]) > eps || math.Abs(ch.WindowBounds[1]-want[1]) > eps {
		t.Errorf("window bounds %v, want %v", ch.WindowBounds, want)
	}

	// Nobody is feasible: the least violating, marked infeasible.
	// Violations: row 0 mean level (21/22 + 1.5/1.1 + 1/1.1)/3 − 1 ≈ 0.076;
	// row 1 (18/22 + 1.5/1.1 + 1/1.1)/3 − 1 ≈ 0.030; row 2 (25/22 +
	// 1.5/1.1 + 1/1.1)/3 − 1 ≈ 0.136; row 3 the whole split, (12 − 11)/11
	// ≈ 0.091 (its windows: 20/22 each, fine). Row 1.
	hard := &Windows{
		windows:   3,
		aggregate: PickWindowMean,
		alwaysOn:  win.alwaysOn,
		sols: [][]objectives.Scores{
			qosScores(21, 1.5, 1),
			qosScores(18, 1.5, 1),
			qosScores(25, 1.5, 1),
			qosScores(20, 1, 1),
		},
	}
	ch, err = rel10.ChooseWindows(front, scoring.DefaultObjectives(), alwaysOn, hard)
	if err != nil {
		t.Fatal(err)
	}
	if ch.Row != 1 || ch.Feasible || *ch.WindowsFeasible != 2 || math.Abs(*ch.WorstWindowMargin-(1.1-1.5)) > eps {
		t.Errorf("none feasible: row %d feasible %v windows met %d margin %g; want row 1, infeasible, 2, −0.4",
			ch.Row, ch.Feasible, *ch.WindowsFeasible, *ch.WorstWindowMargin)
	}

	// Absolute presets ignore the windows: no row meets qos0.5's 0.5, the
	// least violating is row 0 (9), window fields unset.
	abs := DefaultPresets()[2]
	ch, err = abs.ChooseWindows(front, scoring.DefaultObjectives(), alwaysOn, hard)
	if err != nil {
		t.Fatal(err)
	}
	if ch.Row != 0 || ch.Feasible || ch.Windows != 0 || ch.WindowsFeasible != nil {
		t.Errorf("absolute: row %d feasible %v windows %d; want row 0, infeasible, unchecked", ch.Row, ch.Feasible, ch.Windows)
	}
}

// TestChooseWindowAggregate works the median and the mean of the window
// levels by hand on a front where one window is nearly idle. Always-on
// has qos_p90 10 on the whole train split (rel10 bound 11) and 100, 100,
// 1, 100 on four windows (bounds 110, 110, 1.1, 110).
func TestChooseWindowAggregate(t *testing.T) {
	front := []Solution{
		sol(9, 100, 5),  // 0: levels 100/110 on every window: median and mean 0.909
		sol(10, 900, 5), // 1: 0.9, 0.9, 9.09, 0.9: median 0.9, mean 2.95
		sol(10, 700, 5), // 2: 1.18, 1.18, 0.909, 0.455: median 1.045, mean 0.932
	}
	sols := [][]objectives.Scores{
		qosScores(100, 100, 1, 100),
		qosScores(99, 99, 10, 99),
		qosScores(130, 130, 1, 50),
	}
	alwaysOn := objectives.Scores{QoSP90: 10}
	rel10 := DefaultPresets()[3]
	const eps = 1e-9
	for _, tc := range []struct {
		aggregate string
		wantRow   int
		wantLevel float64
	}{
		// Row 1 meets three windows of four by a margin and misses the
		// idle one ten-fold: the median takes it, the mean does not.
		{PickWindowMedian, 1, 0.9},
		// Row 2 misses two loaded windows by 18 %: the mean takes it.
		{PickWindowMean, 2, (130.0/110*2 + 1/1.1 + 50.0/110) / 4},
	} {
		win := &Windows{windows: 4, aggregate: tc.aggregate, alwaysOn: qosScores(100, 100, 1, 100), sols: sols}
		ch, err := rel10.ChooseWindows(front, scoring.DefaultObjectives(), alwaysOn, win)
		if err != nil {
			t.Fatal(err)
		}
		if ch.Row != tc.wantRow || !ch.Feasible {
			t.Errorf("%s: row %d feasible %v, want row %d feasible", tc.aggregate, ch.Row, ch.Feasible, tc.wantRow)
		}
		if ch.WindowAggregate != tc.aggregate || ch.WindowLevel == nil || math.Abs(*ch.WindowLevel-tc.wantLevel) > eps {
			t.Errorf("%s: recorded aggregate %q level %v, want %s %g", tc.aggregate, ch.WindowAggregate, ch.WindowLevel, tc.aggregate, tc.wantLevel)
		}
		l := ch.Row
		wantMean := 0.0
		for k, s := range sols[l] {
			wantMean += s.QoSP90 / []float64{110, 110, 1.1, 110}[k] / 4
		}
		if ch.WindowMeanLevel == nil || math.Abs(*ch.WindowMeanLevel-wantMean) > eps {
			t.Errorf("%s: mean level %v, want %g whatever the aggregate", tc.aggregate, ch.WindowMeanLevel, wantMean)
		}
	}
}

// TestValidPickAggregate: the default, median and mean, nothing else.
func TestValidPickAggregate(t *testing.T) {
	if ValidPickAggregate("") != nil || ValidPickAggregate(PickWindowMean) != nil || ValidPickAggregate(PickWindowMedian) != nil || ValidPickAggregate("cvar") == nil {
		t.Error("ValidPickAggregate: want '', median and mean accepted and cvar refused")
	}
}

// TestChooseLoads works the thinned-split check by hand, with and without
// windows. Always-on: qos_p90 10 on the whole train split (rel10 bound
// 11), 20 and 1 on two windows (bounds 22 and 1.1), 2 on the split
// thinned to 0.8 (bound max(2.2, 2.1) = 2.2).
func TestChooseLoads(t *testing.T) {
	front := []Solution{
		sol(8, 100, 5),  // 0: windows 10/22, 1/1.1; load 2/2.2: feasible
		sol(9, 300, 5),  // 1: windows 20/22, 1/1.1; load 2.2/2.2: on the bound
		sol(10, 900, 5), // 2: windows 18/22, 1/1.1; load 3/2.2: a miss
	}
	alwaysOn := objectives.Scores{QoSP90: 10}
	rel10 := DefaultPresets()[3]
	const eps = 1e-9
	for _, tc := range []struct {
		name    string
		win     *Windows
		wantRow int
	}{
		{"windows and load", &Windows{windows: 2, loads: []float64{0.8}, alwaysOn: qosScores(20, 1, 2),
			sols: [][]objectives.Scores{qosScores(10, 1, 2), qosScores(20, 1, 2.2), qosScores(18, 1, 3)}}, 1},
		{"load only", &Windows{loads: []float64{0.8}, alwaysOn: qosScores(2),
			sols: [][]objectives.Scores{qosScores(2), qosScores(2.2), qosScores(3)}}, 1},
	} {
		ch, err := rel10.ChooseWindows(front, scoring.DefaultObjectives(), alwaysOn, tc.win)
		if err != nil {
			t.Fatal(err)
		}
		if ch.Row != tc.wantRow || !ch.Feasible {
			t.Errorf("%s: row %d feasible %v, want row %d feasible (row 2 misses the load)", tc.name, ch.Row, ch.Feasible, tc.wantRow)
		}
		if len(ch.Loads) != 1 || ch.Loads[0] != 0.8 || len(ch.LoadBounds) != 1 || math.Abs(ch.LoadBounds[0]-2.2) > eps ||
			len(ch.LoadLevels) != 1 || math.Abs(ch.LoadLevels[0]-1) > eps {
			t.Errorf("%s: loads %v bounds %v levels %v, want [0.8] [2.2] [1]", tc.name, ch.Loads, ch.LoadBounds, ch.LoadLevels)
		}
		if wantWin := tc.win.windows; ch.Windows != wantWin || (wantWin == 0) != (ch.WindowMeanLevel == nil) {
			t.Errorf("%s: windows %d (mean level %v), want %d", tc.name, ch.Windows, ch.WindowMeanLevel, wantWin)
		}
	}
	// All miss the load: the least violating (row 0 at level 2.5/2.2),
	// marked infeasible.
	miss := &Windows{loads: []float64{0.8}, alwaysOn: qosScores(2),
		sols: [][]objectives.Scores{qosScores(2.5), qosScores(3), qosScores(4)}}
	ch, err := rel10.ChooseWindows(front, scoring.DefaultObjectives(), alwaysOn, miss)
	if err != nil {
		t.Fatal(err)
	}
	if ch.Row != 0 || ch.Feasible || math.Abs(ch.LoadLevels[0]-2.5/2.2) > eps {
		t.Errorf("all miss: row %d feasible %v levels %v; want row 0, infeasible, [%g]", ch.Row, ch.Feasible, ch.LoadLevels, 2.5/2.2)
	}
}

// TestThinTrace: a seeded subset in order, about the fraction asked, the
// same for the same seed and different for another.
func TestThinTrace(t *testing.T) {
	tr := &datasets.Trace{}
	for i := range 10000 {
		tr.Jobs = append(tr.Jobs, datasets.Job{ID: int64(i + 1), Submit: int64(i), Run: 5, Procs: 1})
	}
	a, b, c := scoring.ThinTrace(tr, 0.8, thinRNG(1, 0)), scoring.ThinTrace(tr, 0.8, thinRNG(1, 0)), scoring.ThinTrace(tr, 0.8, thinRNG(2, 0))
	if n := len(a.Jobs); n < 7800 || n > 8200 {
		t.Errorf("kept %d of 10000 at 0.8", n)
	}
	for i := 1; i < len(a.Jobs); i++ {
		if a.Jobs[i].ID <= a.Jobs[i-1].ID {
			t.Fatalf("job %d after %d: order lost", a.Jobs[i].ID, a.Jobs[i-1].ID)
		}
	}
	if !slices.Equal(a.Jobs, b.Jobs) {
		t.Error("same seed, different thinning")
	}
	if slices.Equal(a.Jobs, c.Jobs) {
		t.Error("seeds 1 and 2 thinned alike")
	}
	if len(tr.Jobs) != 10000 {
		t.Error("the trace thinned was changed")
	}
}

// TestValidPickLoads: fractions in (0, 1), or 1 alone.
func TestValidPickLoads(t *testing.T) {
	for _, tc := range []struct {
		loads []float64
		ok    bool
	}{
		{nil, true}, {[]float64{0.8}, true}, {[]float64{0.7, 0.9}, true}, {[]float64{1}, true},
		{[]float64{0}, false}, {[]float64{1.2}, false}, {[]float64{0.8, 1}, false}, {[]float64{math.NaN()}, false}, {[]float64{-0.5}, false},
	} {
		if err := ValidPickLoads(tc.loads); (err == nil) != tc.ok {
			t.Errorf("ValidPickLoads(%v) = %v, want ok %v", tc.loads, err, tc.ok)
		}
	}
	if got := (Checks{Loads: []float64{1}}).loads(); got != nil {
		t.Errorf("loads [1]: %v, want none", got)
	}
	if got := (Checks{}).loads(); !slices.Equal(got, DefaultPickLoads()) {
		t.Errorf("no loads: %v, want the default %v", got, DefaultPickLoads())
	}
}

// TestWindowLevel: 1 on the bound, above 1 a miss, either direction;
// finite at a zero bound.
func TestWindowLevel(t *testing.T) {
	tests := []struct {
		op           string
		value, bound float64
		want         float64
	}{
		{"<=", 11, 11, 1},
		{"<=", 22, 11, 2},
		{"<=", 0, 11, 0},
		{">=", 5, 10, 2}, // half the floor: level 2
		{">=", 20, 10, 0.5},
		{"<=", 1, 0, 1e9},
	}
	for _, tc := range tests {
		if got := windowLevel(tc.op, tc.value, tc.bound); math.Abs(got-tc.want) > 1e-9*math.Max(1, tc.want) {
			t.Errorf("windowLevel(%s, %g, %g) = %g, want %g", tc.op, tc.value, tc.bound, got, tc.want)
		}
	}
}

// TestPickWindowCount: the default, the switch off and too small a split.
func TestPickWindowCount(t *testing.T) {
	tests := []struct {
		opt, jobs, want int
	}{
		{0, 1000, DefaultPickWindows},
		{3, 1000, 3},
		{1, 1000, 0},
		{-1, 1000, 0},
		{0, DefaultPickWindows*scoring.MinWindowJobs - 1, 0},
		{0, DefaultPickWindows * scoring.MinWindowJobs, DefaultPickWindows},
	}
	for _, tc := range tests {
		if got := (Checks{Windows: tc.opt}).windowCount(tc.jobs); got != tc.want {
			t.Errorf("PickWindows %d, %d jobs: %d windows, want %d", tc.opt, tc.jobs, got, tc.want)
		}
	}
}
