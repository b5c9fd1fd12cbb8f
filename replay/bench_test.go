package replay_test

import (
	"context"
	"testing"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/internal/testtrace"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/replay"
	"github.com/ecotune/ecotune/sim"
)

// sp2 is the SDSC-SP2 trace and the cluster it implies.
func sp2(b *testing.B) (*datasets.Trace, sim.Cluster) {
	b.Helper()
	tr, err := datasets.Open(testtrace.Trace(b, "SDSC-SP2-1998-4.2-cln.swf.gz"), datasets.ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	c, err := sim.ClusterFromTrace(tr.Meta)
	if err != nil {
		b.Fatal(err)
	}
	return tr, c
}

// BenchmarkReplayer measures a worker's replays of idle-timeout candidates
// (a parameter changed at each replay, the policy renewed) on SDSC-SP2
// under EASY, as the tuner's evaluations run: ns per job and allocations
// per replay.
func BenchmarkReplayer(b *testing.B) {
	tr, c := sp2(b)
	rep := replay.NewReplayer(c, sim.Options{Scheduler: sim.EASY})
	cfg := policy.Config{Name: "idle-timeout", Params: map[string]float64{"idle_timeout": 600}}
	if err := rep.Check(tr); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		cfg.Params["idle_timeout"] = float64(300 + 60*(i%20))
		i++
		if _, err := rep.ReplayConfig(tr, cfg); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(tr.Jobs)), "ns/job")
}

// BenchmarkRun measures one Run (building the simulator from the jobs,
// replaying, scoring) on SDSC-SP2: simulate's path.
func BenchmarkRun(b *testing.B) {
	tr, c := sp2(b)
	setup := replay.Setup{Config: policy.Config{Name: "idle-timeout"}, Cluster: c, Scheduler: sim.EASY, Period: sim.DefaultPeriod}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := replay.Run(context.Background(), replay.TraceJobs(tr), setup); err != nil {
			b.Fatal(err)
		}
	}
}
