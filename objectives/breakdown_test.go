package objectives_test

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/sim"
)

// TestBreakdownHandWorked: 4 nodes of 2 slots (8 slots).
//
//	job  key  submit start end  slots  wait  run  ratio
//	1    b    0      0     100  2      0     100  0
//	2    a    0      50    150  4      50    100  0.5
//	3    b    10     110   130  1      100   20   5
//	4    b    20     20    20   8      0     0    0 (a zero run counts 1 s)
//
// a: 1 job, mean = median = max wait 50, p90 ratio 0.5; node-hours
// without placements 4·100·4/8 / 3600 = 200/3600; with job 2 on two whole
// nodes the same.
// b: 3 jobs, waits 0, 100, 0: mean 100/3, median 0, max 100; ratios
// sorted 0, 0, 5, k = floor(2.7) = 2: p90 5. Node-hours 2·100·½ + 1·20·½
// + 0 = 110 node-s; with placements job 1 on one whole node (100), job 3
// one slot of a node (10): 110 too.
func TestBreakdownHandWorked(t *testing.T) {
	r := &sim.Result{Nodes: 4, Slots: 8, Jobs: []sim.JobRecord{
		{ID: 1, Submit: 0, Start: 0, End: 100, Slots: 2},
		{ID: 2, Submit: 0, Start: 50, End: 150, Slots: 4},
		{ID: 3, Submit: 10, Start: 110, End: 130, Slots: 1},
		{ID: 4, Submit: 20, Start: 20, End: 20, Slots: 8},
	}}
	keys := []string{"b", "a", "b", "b"}
	want := []objectives.GroupScores{
		{Name: "a", Jobs: 1, MeanWait: 50, MedianWait: 50, MaxWait: 50, QoSP90: 0.5, NodeHours: 200.0 / 3600},
		{Name: "b", Jobs: 3, MeanWait: 100.0 / 3, MedianWait: 0, MaxWait: 100, QoSP90: 5, NodeHours: 110.0 / 3600},
	}
	got, err := objectives.Breakdown(r, keys)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("without placements:\n%+v\nwant\n%+v", got, want)
	}
	r.NodeSlots = []int32{2, 2, 2, 2}
	r.Placements = []sim.Placement{
		{Nodes: []int32{0}, Slots: []int32{2}},
		{Nodes: []int32{1, 2}, Slots: []int32{2, 2}},
		{Nodes: []int32{3}, Slots: []int32{1}},
		{Nodes: []int32{0, 1, 2, 3}, Slots: []int32{2, 2, 2, 2}},
	}
	if got, err = objectives.Breakdown(r, keys); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("with placements (%v):\n%+v\nwant\n%+v", err, got, want)
	}
	if _, err := objectives.Breakdown(r, keys[:3]); err == nil {
		t.Error("3 keys for 4 jobs: no error")
	}
}

// TestBreakdownOneKey: with every job under one name, the breakdown's
// waits and p90 ratio are Compute's, and on one-slot nodes the
// node-hours are the jobs' slot-hours; split under two names, the jobs
// and node-hours add up.
func TestBreakdownOneKey(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for n := 1; n < 200; n += 13 {
		r := &sim.Result{Nodes: 16, Slots: 16}
		var slotSec int64
		for i := range n {
			sub, wait, run, slots := int64(10*i), rng.Int64N(60)*rng.Int64N(2), rng.Int64N(50), 1+rng.IntN(16)
			r.Jobs = append(r.Jobs, sim.JobRecord{ID: int64(i + 1), Submit: sub, Start: sub + wait, End: sub + wait + run, Slots: slots})
			slotSec += int64(slots) * run
		}
		got, err := objectives.Breakdown(r, make([]string, n))
		if err != nil {
			t.Fatal(err)
		}
		s := objectives.Compute(r)
		g := got[0]
		if len(got) != 1 || g.Jobs != s.Jobs || g.MaxWait != s.MaxWait || g.QoSP90 != s.QoSP90 || g.MedianWait != s.MedianWait ||
			math.Abs(g.MeanWait-s.MeanWait) > 1e-9*s.MeanWait {
			t.Fatalf("n=%d: breakdown %+v, scores %+v", n, got, s)
		}
		if want := float64(slotSec) / 3600; math.Abs(g.NodeHours-want) > 1e-9*want {
			t.Fatalf("n=%d: node-hours %v, slot-hours %v", n, g.NodeHours, want)
		}
		keys := make([]string, n)
		for i := range keys {
			keys[i] = []string{"x", "y"}[rng.IntN(2)]
		}
		two, err := objectives.Breakdown(r, keys)
		if err != nil {
			t.Fatal(err)
		}
		jobs, hours := 0, 0.0
		for _, g := range two {
			jobs += g.Jobs
			hours += g.NodeHours
		}
		if jobs != n || math.Abs(hours-g.NodeHours) > 1e-9*g.NodeHours {
			t.Fatalf("n=%d: split in two: %d jobs, %v node-hours; whole %v", n, jobs, hours, g.NodeHours)
		}
	}
}
