package objectives_test

import (
	"testing"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/internal/testtrace"
	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
)

// BenchmarkBreakdown scores CEA-Curie's 312,826 jobs (always-on, EASY)
// by user, as `simulate` does for its by_user table.
func BenchmarkBreakdown(b *testing.B) {
	tr, err := datasets.Open(testtrace.Trace(b, "CEA-Curie-2011-2.1-cln.swf.gz"), datasets.ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	c, err := sim.ClusterFromTrace(tr.Meta)
	if err != nil {
		b.Fatal(err)
	}
	s, err := sim.New(tr, c, sim.Options{Scheduler: sim.EASY})
	if err != nil {
		b.Fatal(err)
	}
	p, err := policy.New(policy.Config{Name: "always-on"})
	if err != nil {
		b.Fatal(err)
	}
	r, err := s.Run(p)
	if err != nil {
		b.Fatal(err)
	}
	keys := make([]string, r.NumJobs())
	for i := range keys {
		keys[i] = s.JobNames(i).User
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := objectives.Breakdown(r, keys); err != nil {
			b.Fatal(err)
		}
	}
}
