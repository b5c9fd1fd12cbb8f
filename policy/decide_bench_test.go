package policy_test

import (
	"slices"
	"testing"

	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
)

// recorder wraps a policy and keeps deep copies of the first Views it is
// shown.
type recorder struct {
	policy.Policy
	views []*policy.View
	max   int
}

func (r *recorder) Decide(v *policy.View, d *policy.Decision) {
	r.Policy.Decide(v, d)
	if len(r.views) < r.max {
		c := *v
		c.Nodes = slices.Clone(v.Nodes)
		c.Queue = slices.Clone(v.Queue)
		c.Running = slices.Clone(v.Running)
		c.Recent = slices.Clone(v.Recent)
		c.IdleLRU = slices.Clone(v.IdleLRU)
		r.views = append(r.views, &c)
	}
}

// recordedViews replays SDSC-SP2 (128 nodes) under idle-timeout and
// returns the first 5000 Views its decisions saw, and the future jobs.
func recordedViews(b *testing.B) ([]*policy.View, []policy.FutureJob) {
	tr, c := openShared(b, "SDSC-SP2-1998-4.2-cln.swf.gz")
	p, err := policy.New(policy.Config{Name: "idle-timeout", Params: map[string]float64{"idle_timeout": 600}})
	if err != nil {
		b.Fatal(err)
	}
	rec := &recorder{Policy: p, max: 5000}
	if _, err := sim.Run(tr, c, rec, sim.Options{}); err != nil {
		b.Fatal(err)
	}
	var future []policy.FutureJob
	for _, j := range tr.Jobs {
		future = append(future, policy.FutureJob{Submit: j.Submit, Start: j.Submit, End: j.Submit + max(j.Run, 0), Slots: int(j.Procs)})
	}
	return rec.views, future
}

// BenchmarkDecide measures one decision of each policy on Views of a real
// run (SDSC-SP2, 128 nodes): ns per decision, and allocations (0 expected).
func BenchmarkDecide(b *testing.B) {
	views, future := recordedViews(b)
	for _, s := range policy.All() {
		b.Run(s.Name, func(b *testing.B) {
			p, err := s.New(s.Defaults())
			if err != nil {
				b.Fatal(err)
			}
			if c, ok := p.(policy.Clairvoyant); ok {
				c.SetFuture(future)
			}
			var d policy.Decision
			for _, v := range views { // warm the scratch buffers
				d.Reset()
				p.Decide(v, &d)
			}
			b.ReportAllocs()
			b.ResetTimer()
			i := 0
			for b.Loop() {
				d.Reset()
				p.Decide(views[i], &d)
				if i++; i == len(views) {
					i = 0
				}
			}
		})
	}
}
