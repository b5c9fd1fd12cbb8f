package search_test

import (
	"context"
	"slices"
	"testing"

	"github.com/ecotune/ecotune/tuner/search"
	"github.com/ecotune/ecotune/tuner/search/testproblems"
)

// An island with fixed variables keeps them in every generation, migrants
// included, while the other island searches everything; the result holds
// candidates of both.
func TestFixedIslandKeepsItsSubspace(t *testing.T) {
	fixed := map[int]float64{0: 0.3, 1: 0}
	s := search.Settings{Generations: 12, Seed: 5}
	m := search.NSGA2{Population: 16, Islands: 2, MigrationEvery: 2, Migrants: 4, Fixed: []map[int]float64{fixed}}
	conforms := func(x []float64) bool { return x[0] == 0.3 && x[1] == 0 }
	generations := 0
	s.Recorders = []search.Recorder{search.RecorderFunc(func(st *search.Status) error {
		generations++
		isl := st.Checkpoint.Islands
		for _, m := range isl[0] {
			if !conforms(m.X) {
				t.Errorf("generation %d: island 0 holds %v", st.Generation, m.X[:2])
			}
		}
		if st.Generation > 0 && !slices.ContainsFunc(isl[1], func(m search.Member) bool { return !conforms(m.X) }) {
			t.Errorf("generation %d: island 1 holds only the subspace", st.Generation)
		}
		return nil
	})}
	res, err := search.Minimize(context.Background(), testproblems.ZDT1(), s, m)
	if err != nil {
		t.Fatal(err)
	}
	if generations != 13 {
		t.Errorf("%d generations recorded, want 13", generations)
	}
	in := 0
	for _, mem := range res.Members {
		if conforms(mem.X) {
			in++
		}
	}
	if in == 0 || in == len(res.Members) {
		t.Errorf("%d of %d final members in the subspace, want some and not all", in, len(res.Members))
	}
}
