package search

import (
	"math"
	"math/rand/v2"
	"testing"
)

func members(fs ...[]float64) []*member {
	ms := make([]*member, len(fs))
	for i, f := range fs {
		ms[i] = &member{x: []float64{float64(i)}, f: f, key: genomeKey([]float64{float64(i)})}
	}
	return ms
}

func TestRankAndCrowd(t *testing.T) {
	// (3,3) is dominated by (2,2) only, (4,4) by every other point.
	ms := members([]float64{1, 4}, []float64{2, 2}, []float64{4, 1}, []float64{3, 3}, []float64{4, 4})
	fronts := rankAndCrowd(ms)
	wantRank := []int{0, 0, 0, 1, 2}
	for i, m := range ms {
		if m.rank != wantRank[i] {
			t.Errorf("member %v: rank %d, want %d", m.f, m.rank, wantRank[i])
		}
	}
	if len(fronts) != 3 {
		t.Errorf("%d fronts, want 3", len(fronts))
	}
	// Front 0 sorted by f1 is (1,4),(2,2),(4,1): the middle gets
	// (4−1)/3 from f1 and (4−1)/3 from f2; the extremes +Inf.
	if !math.IsInf(ms[0].crowd, 1) || !math.IsInf(ms[2].crowd, 1) || ms[1].crowd != 2 {
		t.Errorf("crowding %g %g %g, want +Inf 2 +Inf", ms[0].crowd, ms[1].crowd, ms[2].crowd)
	}
}

func TestDominates(t *testing.T) {
	tests := []struct {
		name       string
		a, b       member
		aDom, bDom bool
	}{
		{"pareto", member{f: []float64{1, 1}}, member{f: []float64{1, 2}}, true, false},
		{"incomparable", member{f: []float64{1, 2}}, member{f: []float64{2, 1}}, false, false},
		{"equal", member{f: []float64{1, 1}}, member{f: []float64{1, 1}}, false, false},
		{"feasible beats infeasible", member{f: []float64{9, 9}}, member{f: []float64{0, 0}, cv: 0.1}, true, false},
		{"smaller violation", member{f: []float64{9, 9}, cv: 0.1}, member{f: []float64{0, 0}, cv: 0.2}, true, false},
		{"equal violation", member{f: []float64{0, 0}, cv: 0.2}, member{f: []float64{9, 9}, cv: 0.2}, false, false},
	}
	for _, tc := range tests {
		if got := dominates(&tc.a, &tc.b); got != tc.aDom {
			t.Errorf("%s: a dominates b = %v, want %v", tc.name, got, tc.aDom)
		}
		if got := dominates(&tc.b, &tc.a); got != tc.bDom {
			t.Errorf("%s: b dominates a = %v, want %v", tc.name, got, tc.bDom)
		}
	}
}

func TestSurvivorsPreferDistinct(t *testing.T) {
	best := members([]float64{0, 0})[0]
	var pool []*member
	for range 3 {
		c := *best
		pool = append(pool, &c)
	}
	others := members([]float64{5, 1}, []float64{1, 5}, []float64{3, 3}, []float64{4, 4})
	for i, m := range others {
		m.x = []float64{float64(10 + i)}
		m.key = genomeKey(m.x)
	}
	pool = append(pool, others...)
	got := survivors(pool, 4)
	keys := map[string]int{}
	for _, m := range got {
		keys[m.key]++
	}
	if len(keys) != 4 {
		t.Errorf("survivors hold %d distinct candidates, want 4 (copies dropped first)", len(keys))
	}
	if got[0].key != best.key {
		t.Errorf("first survivor %v, want the dominating (0,0)", got[0].f)
	}
	if got := survivors(pool[:3], 2); len(got) != 2 || got[0].key != got[1].key {
		t.Errorf("with one distinct candidate, survivors keep its copies, got %d", len(got))
	}
}

func TestOperatorsRespectBounds(t *testing.T) {
	vars := []Var{
		{Name: "real", Min: -2, Max: 3},
		{Name: "int", Min: 1, Max: 7, Integer: true},
		{Name: "log", Min: 1, Max: 86400, Log: true},
		{Name: "logint", Min: 1, Max: 1000, Log: true, Integer: true},
		{Name: "label", Levels: 4},
	}
	v := Variation{MutationProb: 0.5}.withDefaults(vars)
	rng := rand.New(rand.NewPCG(3, 4))
	a := []float64{-2, 1, 1, 1, 0}
	b := []float64{3, 7, 86400, 1000, 3}
	c1, c2 := make([]float64, len(vars)), make([]float64, len(vars))
	for range 2000 {
		v.recombine(vars, a, b, c1, c2, rng)
		for _, c := range [][]float64{c1, c2} {
			for k, vr := range vars {
				x := c[k]
				lo, hi := vr.Min, vr.Max
				if vr.Levels > 0 {
					lo, hi = 0, float64(vr.Levels-1)
				}
				if x < lo || x > hi || ((vr.Integer || vr.Levels > 0) && x != math.Round(x)) {
					t.Fatalf("%s = %g outside [%g, %g] or not whole", vr.Name, x, lo, hi)
				}
			}
		}
		copy(a, c1)
		copy(b, c2)
	}
}

func TestVarFromSearch(t *testing.T) {
	tests := []struct {
		v    Var
		u    float64
		want float64
	}{
		{Var{Min: 0, Max: 1}, 1.5, 1},
		{Var{Min: 0, Max: 10, Integer: true}, 3.5, 4},
		{Var{Min: 0.5, Max: 9.5, Integer: true}, 0.4, 1},     // rounded into [ceil min, floor max]
		{Var{Min: 1, Max: 100, Log: true}, math.Log(10), 10}, // search coordinate is ln
		{Var{Min: 1, Max: 100, Log: true, Integer: true}, math.Log(2.6), 3},
		{Var{Levels: 3}, 1.6, 2},
		{Var{Levels: 3}, -4, 0},
	}
	for _, tc := range tests {
		if got := tc.v.fromSearch(tc.u); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%+v.fromSearch(%g) = %g, want %g", tc.v, tc.u, got, tc.want)
		}
	}
}

// Mutation shares one expected mutation per child equally between groups
// of variables: hgfs's 5 crisp thresholds, 27 rules and 14 shifts get
// 1/(3·5), 1/(3·27) and 1/(3·14); one group of n variables gets 1/n.
func TestGroupMutationProbs(t *testing.T) {
	var vars []Var
	for range 5 {
		vars = append(vars, Var{Group: "params"})
	}
	for range 27 {
		vars = append(vars, Var{Group: "rules"})
	}
	for range 14 {
		vars = append(vars, Var{Group: "shifts"})
	}
	probs := groupMutationProbs(vars)
	want := map[string]float64{"params": 1.0 / 15, "rules": 1.0 / 81, "shifts": 1.0 / 42}
	sum := 0.0
	for i, p := range probs {
		if p != want[vars[i].Group] {
			t.Fatalf("variable %d (%s): %v, want %v", i, vars[i].Group, p, want[vars[i].Group])
		}
		sum += p
	}
	if math.Abs(sum-1) > 1e-12 {
		t.Errorf("expected mutations per child %v, want 1", sum)
	}
	for _, p := range groupMutationProbs(make([]Var, 30)) {
		if p != 1.0/30 {
			t.Fatalf("one group of 30: %v, want 1/30", p)
		}
	}
}
