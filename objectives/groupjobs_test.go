package objectives

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// groupJobs puts every job once under its key, in job order within a
// key, with the keys in order of first appearance.
func TestGroupJobs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct {
		jobs, names int
	}{{0, 1}, {1, 1}, {5, 1}, {5, 5}, {1000, 7}, {1000, 1000}} {
		keys := make([]string, tc.jobs)
		for i := range keys {
			keys[i] = "u" + strconv.Itoa(rng.IntN(tc.names))
		}
		names, order, start := groupJobs(keys)
		var wantNames []string
		for _, k := range keys {
			if !slices.Contains(wantNames, k) {
				wantNames = append(wantNames, k)
			}
		}
		if !slices.Equal(names, wantNames) {
			t.Errorf("%d jobs: names %v, want %v", tc.jobs, names, wantNames)
		}
		if len(start) != len(names)+1 || start[0] != 0 || start[len(names)] != tc.jobs || len(order) != tc.jobs {
			t.Fatalf("%d jobs: start %v, %d ordered", tc.jobs, start, len(order))
		}
		for g, name := range names {
			var want []int32
			for i, k := range keys {
				if k == name {
					want = append(want, int32(i))
				}
			}
			if got := order[start[g]:start[g+1]]; !slices.Equal(got, want) {
				t.Errorf("%d jobs: jobs of %s %v, want %v", tc.jobs, name, got, want)
			}
		}
	}
}
