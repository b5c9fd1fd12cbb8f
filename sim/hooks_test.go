package sim_test

import (
	"reflect"
	"slices"
	"testing"

	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
)

// highFirst is always-on and places jobs on the highest-numbered nodes.
type highFirst struct{ policy.Policy }

func (highFirst) Place(v *policy.View, job *policy.QueuedJob, candidates []int) {
	slices.Reverse(candidates)
}

func TestPlacer(t *testing.T) {
	// 3 nodes of 2 slots; j1 (3 slots) takes nodes 2 and 1 (2 + 1 slots),
	// j2 (2 slots) the last slot of node 1 and one of node 0.
	tr := makeTrace(job{0, 100, 3, 0}, job{10, 100, 2, 0})
	r, err := sim.Run(tr, sim.Uniform(3, 2, simple), highFirst{alwaysOn(t)}, sim.Options{Timeline: true})
	if err != nil {
		t.Fatal(err)
	}
	var busy []int32
	for _, c := range r.Timeline.Changes {
		if c.State == policy.Busy {
			busy = append(busy, c.Node)
		}
	}
	if want := []int32{2, 1, 0}; !slices.Equal(busy, want) {
		t.Errorf("nodes became busy in order %v, want %v", busy, want)
	}
	if r.Jobs[1].Start != 10 {
		t.Errorf("j2 starts at %d", r.Jobs[1].Start)
	}
}

// seer records the future it is told and keeps every node on.
type seer struct {
	policy.Policy
	future []policy.FutureJob
}

func (s *seer) SetFuture(jobs []policy.FutureJob) { s.future = slices.Clone(jobs) }

func TestClairvoyantSeesAlwaysOn(t *testing.T) {
	tr := makeTrace(job{0, 100, 2, 0}, job{10, 50, 1, 0}, job{20, 30, 1, 0})
	s, err := sim.New(tr, sim.Uniform(2, 1, simple), sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := &seer{Policy: offWhenIdle{timeout: 1}}
	if _, err := s.Run(p); err != nil {
		t.Fatal(err)
	}
	want := []policy.FutureJob{{Submit: 0, Start: 0, End: 100, Slots: 2}, {Submit: 10, Start: 100, End: 150, Slots: 1}, {Submit: 20, Start: 100, End: 130, Slots: 1}}
	if !reflect.DeepEqual(p.future, want) {
		t.Errorf("future %+v, want %+v", p.future, want)
	}
}
