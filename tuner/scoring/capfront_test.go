package scoring

import (
	"testing"

	"github.com/ecotune/ecotune/tuner/search"
)

// TestCapFrontByHypervolume keeps the members that add the most
// hypervolume: on a linear front a0..a20 (references at 0 and 1, nadir
// 1.1) the best 3 of 21 are spread out, never neighbours, and the front
// kept has a larger hypervolume than the first 3 or every 7th member.
func TestCapFrontByHypervolume(t *testing.T) {
	objs := []Objective{{Name: "a"}, {Name: "b"}}
	norm := NewNormalizer(objs, []float64{0, 1}, []float64{1, 0})
	var ms []search.Member
	for i := range 21 {
		a := float64(i) / 20
		ms = append(ms, search.Member{X: []float64{a}, F: []float64{a, 1 - a}})
	}
	// A member beyond the reference point adds nothing and is kept last.
	ms = append(ms, search.Member{X: []float64{9}, F: []float64{2, 2}})
	got := CapFront(ms, norm, 3)
	if len(got) != 3 {
		t.Fatalf("%d members, want 3", len(got))
	}
	hv := func(sel []search.Member) float64 {
		var pts [][]float64
		for _, m := range sel {
			pts = append(pts, m.F)
		}
		return norm.Hypervolume(pts)
	}
	if hv(got) <= hv(ms[:3]) || hv(got) < hv([]search.Member{ms[3], ms[10], ms[17]}) {
		t.Errorf("kept %v with HV %g; the first three give %g, every 7th %g", got, hv(got), hv(ms[:3]), hv([]search.Member{ms[3], ms[10], ms[17]}))
	}
	for i := 1; i < len(got); i++ {
		if got[i].X[0]-got[i-1].X[0] < 0.1 {
			t.Errorf("neighbours kept: %v and %v", got[i-1].X, got[i].X)
		}
	}
	if all := CapFront(ms, norm, 22); len(all) != 22 {
		t.Errorf("cap at the size keeps %d of 22", len(all))
	}
	if got := CapFront(ms, norm, 22-1); got[len(got)-1].X[0] == 9 {
		t.Error("a member beyond the reference point was kept before one that adds volume")
	}
}
