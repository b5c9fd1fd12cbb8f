package policy

import (
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mathext"
)

// Ts of the ESCS model: ((10.79 + 13.71)·3600 − 2·(480 + 555)) / (150 − 2)
// = 86130 / 148 = 581.96 s.
func TestBreakEvenTs(t *testing.T) {
	if got := escsModel.BreakEven(); math.Abs(got-86130.0/148) > 1e-9 {
		t.Errorf("Ts = %v", got)
	}
}

// arrivalsEvery makes n one-slot arrivals, gap seconds apart, from 0.
func arrivalsEvery(n int, gap int64) []Arrival {
	var a []Arrival
	for i := range n {
		a = append(a, Arrival{Time: int64(i) * gap, Slots: 1})
	}
	return a
}

func TestBreakEvenPredicted(t *testing.T) {
	// Five arrivals at 0, 100, …, 400; one-slot nodes A (node 0, idle since
	// 450: used by the next arrival, m=1) and B (node 1, idle since 300:
	// m=2). At time t the rate is 4/t: arrival m is expected m·t/4 after t,
	// beyond Ts = 581.96 when t > 2327.8/m: B goes off from 1164, A from 2328.
	nodes := []node{{state: Idle, since: 450}, {state: Idle, since: 300}, {state: Busy}}
	tests := []struct {
		now      int64
		wantOff  []int
		wantWake int64
	}{
		{500, nil, 1164},
		{1163, nil, 1164},
		{1164, []int{1}, 2328},
		{2328, []int{0, 1}, NoTime},
	}
	p := mustNew(t, "break-even", "window=5")
	for _, tt := range tests {
		v := mkView(tt.now, nodes, nil)
		v.Recent = arrivalsEvery(5, 100)
		d := decide(p, v)
		if !slices.Equal(sortedOff(d), tt.wantOff) || d.Wake != tt.wantWake {
			t.Errorf("now %d: off %v wake %d; want off %v wake %d", tt.now, sortedOff(d), d.Wake, tt.wantOff, tt.wantWake)
		}
	}
}

func sortedOff(d Decision) []int {
	ids := offIDs(d)
	slices.Sort(ids)
	return ids
}

// Eight idle one-slot nodes, idle since 1000−k for node k (node 0 the most
// recent: m=1; node 7: m=8); arrivals every 100 s. Threshold 0.5.
func TestExponentialAndGamma(t *testing.T) {
	var nodes []node
	for k := range 8 {
		nodes = append(nodes, node{state: Idle, since: 1000 - int64(k)})
	}
	v := mkView(1000, nodes, nil)
	v.Recent = arrivalsEvery(10, 100)
	// Exponential, rate 1/100: arrivals within Ts are Poisson(5.82):
	// P(N ≥ 6) = 0.525 keeps node 5; P(N ≥ 7) = 0.365 switches off 6 and 7.
	if p6, p7 := mathext.GammaIncReg(6, 5.8196), mathext.GammaIncReg(7, 5.8196); math.Abs(p6-0.525) > 0.005 || math.Abs(p7-0.365) > 0.005 {
		t.Fatalf("Poisson tail: %v %v", p6, p7)
	}
	d := decide(mustNew(t, "exponential", "threshold=0.5"), v)
	if got := sortedOff(d); !slices.Equal(got, []int{6, 7}) || d.Wake != NoTime {
		t.Errorf("exponential: off %v wake %d; want [6 7]", got, d.Wake)
	}
	// Gamma: constant gaps fit shape 1000 (nearly deterministic 100-s
	// gaps): arrivals 1–5 come by 500 s < Ts, arrival 6 at ~600 s > Ts.
	d = decide(mustNew(t, "gamma", "threshold=0.5"), v)
	if got := sortedOff(d); !slices.Equal(got, []int{5, 6, 7}) {
		t.Errorf("gamma: off %v; want [5 6 7]", got)
	}
	// No arrivals seen: nothing foreseen, every idle node off.
	v.Recent = nil
	if d := decide(mustNew(t, "gamma"), v); len(d.PowerOff) != 8 {
		t.Errorf("no arrivals: %d off; want 8", len(d.PowerOff))
	}
}

// The shape solves the likelihood equation ln a − ψ(a) = s.
func TestGammaShapeMLE(t *testing.T) {
	for _, s := range []float64{0.001, 0.05, 0.3, 1, 3, 10} {
		a := gammaShape(s)
		if r := math.Log(a) - mathext.Digamma(a) - s; math.Abs(r) > 1e-9*math.Max(1, s) {
			t.Errorf("s=%v: shape %v leaves residual %v", s, a, r)
		}
	}
	// ψ'(1) = π²/6, ψ'(1/2) = π²/2, ψ'(x+1) = ψ'(x) − 1/x².
	exact := []struct{ x, want float64 }{{1, math.Pi * math.Pi / 6}, {0.5, math.Pi * math.Pi / 2}, {8, math.Pi*math.Pi/6 - 1 - 1.0/4 - 1.0/9 - 1.0/16 - 1.0/25 - 1.0/36 - 1.0/49}}
	for _, e := range exact {
		if got := trigamma(e.x); math.Abs(got-e.want) > 1e-12 {
			t.Errorf("trigamma(%v) = %v; want %v", e.x, got, e.want)
		}
	}
}
