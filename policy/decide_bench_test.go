package policy_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/ecotune/ecotune/fuzzy"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
)

// recorder wraps a policy and keeps deep copies of the first max Views it
// is shown, or of one View in every (0 or 1: each).
type recorder struct {
	policy.Policy
	views []*policy.View
	max   int
	every int
	seen  int
}

func (r *recorder) Decide(v *policy.View, d *policy.Decision) {
	r.Policy.Decide(v, d)
	r.seen++
	if len(r.views) < r.max && (r.every <= 1 || r.seen%r.every == 0) {
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

// hgfsViews replays SDSC-SP2 (128 nodes, EASY backfilling, as the tuner
// does) under hgfs with its defaults and returns 5000 Views spread over
// the run (one decision in 20).
func hgfsViews(b *testing.B) []*policy.View {
	tr, c := openShared(b, "SDSC-SP2-1998-4.2-cln.swf.gz")
	p, err := policy.New(policy.Config{Name: "hgfs"})
	if err != nil {
		b.Fatal(err)
	}
	rec := &recorder{Policy: p, max: 5000, every: 20}
	if _, err := sim.Run(tr, c, rec, sim.Options{Scheduler: sim.EASY}); err != nil {
		b.Fatal(err)
	}
	return rec.views
}

// tunedHGFS is an hgfs configuration as the tuner makes them: rules
// concluding random labels or switched off, shifted labels, thresholds
// inside their ranges.
func tunedHGFS() policy.Config {
	rng := rand.New(rand.NewPCG(1, 2))
	sys := policy.HGFSTemplate()
	for i := range sys.Rules {
		sys.Rules[i].Then = rng.IntN(len(sys.Output.Labels)+1) - 1
	}
	shift := func(v *fuzzy.Variable) {
		v.Shifts = make([]float64, len(v.Labels))
		for k := range v.Shifts {
			v.Shifts[k] = rng.Float64() - 0.5
		}
	}
	for j := range sys.Inputs {
		shift(&sys.Inputs[j])
	}
	shift(&sys.Output)
	return policy.Config{Name: "hgfs", Fuzzy: sys, Params: map[string]float64{
		"t_max": 900, "n_max": 8, "t_min": 120, "n_min": 2, "min_idle": 1200, "max_booting": 8}}
}

// BenchmarkDecideHGFS measures one hgfs decision on Views of its own run of
// SDSC-SP2, with the template rule base and with a tuned one.
func BenchmarkDecideHGFS(b *testing.B) {
	views := hgfsViews(b)
	for _, c := range []struct {
		name string
		cfg  policy.Config
	}{{"template", policy.Config{Name: "hgfs"}}, {"tuned", tunedHGFS()}} {
		b.Run(c.name, func(b *testing.B) {
			p, err := policy.New(c.cfg)
			if err != nil {
				b.Fatal(err)
			}
			var d policy.Decision
			b.ReportAllocs()
			decideInTurn(b, p, views, &d)
		})
	}
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
			decideInTurn(b, p, views, &d)
		})
	}
}

// decideInTurn has p decide on views in turn, one per benchmark iteration.
func decideInTurn(b *testing.B, p policy.Policy, views []*policy.View, d *policy.Decision) {
	i := 0
	for b.Loop() {
		d.Reset()
		p.Decide(views[i], d)
		if i++; i == len(views) {
			i = 0
		}
	}
}
