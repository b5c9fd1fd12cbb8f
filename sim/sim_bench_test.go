package sim_test

import (
	"testing"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
)

func idleTimeout(b testing.TB) policy.Policy {
	b.Helper()
	p, err := policy.New(policy.Config{Name: "idle-timeout"})
	if err != nil {
		b.Fatal(err)
	}
	return p
}

// benchRun measures full replays of tr under p and reports ns per job.
func benchRun(b *testing.B, tr *datasets.Trace, p policy.Policy, opt sim.Options) {
	c, err := sim.ClusterFromTrace(tr.Meta)
	if err != nil {
		b.Fatal(err)
	}
	s, err := sim.New(tr, c, opt)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := s.Run(p); err != nil { // warm the buffers
		b.Fatal(err)
	}
	defer lockThread()()
	b.ReportAllocs()
	b.ResetTimer()
	cpu := threadCPU()
	for b.Loop() {
		if _, err := s.Run(p); err != nil {
			b.Fatal(err)
		}
	}
	cpu = threadCPU() - cpu
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(tr.Jobs)), "ns/job")
	// CPU time of this thread per run: what the run cost on a machine
	// shared with other work (garbage collection on other threads excluded).
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/1e6, "cpu-ms/op")
}

func BenchmarkSDSCSP2EASYIdleTimeout(b *testing.B) {
	tr := openTrace(b, "SDSC-SP2-1998-4.2-cln.swf.gz")
	benchRun(b, tr, idleTimeout(b), sim.Options{Scheduler: sim.EASY})
}

// BenchmarkSDSCSP2ConservativeIdleTimeout: conservative backfilling, a
// plan for every queued job at each pass.
func BenchmarkSDSCSP2ConservativeIdleTimeout(b *testing.B) {
	tr := openTrace(b, "SDSC-SP2-1998-4.2-cln.swf.gz")
	benchRun(b, tr, idleTimeout(b), sim.Options{Scheduler: sim.Conservative})
}

func BenchmarkSDSCSP2FCFSAlwaysOn(b *testing.B) {
	tr := openTrace(b, "SDSC-SP2-1998-4.2-cln.swf.gz")
	benchRun(b, tr, alwaysOn(b), sim.Options{Scheduler: sim.FCFS})
}

// BenchmarkScaling replays SDSC-SP2 and the same workload repeated ten
// times back to back (same load, ten times the jobs): the ns/job of the
// two should match when time is linear in jobs.
func BenchmarkScaling(b *testing.B) {
	tr := openTrace(b, "SDSC-SP2-1998-4.2-cln.swf.gz")
	b.Run("x1", func(b *testing.B) { benchRun(b, tr, idleTimeout(b), sim.Options{Scheduler: sim.EASY}) })
	b.Run("x10", func(b *testing.B) { benchRun(b, repeatTrace(tr, 10), idleTimeout(b), sim.Options{Scheduler: sim.EASY}) })
}

// repeatTrace concatenates k copies of tr, each shifted by the span of
// the previous ones, with fresh job IDs.
func repeatTrace(tr *datasets.Trace, k int) *datasets.Trace {
	first, last := tr.Jobs[0].Submit, tr.Jobs[len(tr.Jobs)-1].Submit
	span := last - first + 1
	out := &datasets.Trace{Meta: tr.Meta, Jobs: make([]datasets.Job, 0, k*len(tr.Jobs))}
	for c := range k {
		for _, j := range tr.Jobs {
			j.Submit += int64(c) * span
			j.ID += int64(c * len(tr.Jobs))
			out.Jobs = append(out.Jobs, j)
		}
	}
	return out
}

// idle is a policy that never asks for anything: the simulator's own cost.
type idle struct{}

func (idle) Name() string                          { return "idle" }
func (idle) Decide(*policy.View, *policy.Decision) {}

// BenchmarkSDSCSP2EASYSimOnly is the EASY replay with a policy that costs
// nothing: what the simulator itself costs per replay.
func BenchmarkSDSCSP2EASYSimOnly(b *testing.B) {
	tr := openTrace(b, "SDSC-SP2-1998-4.2-cln.swf.gz")
	benchRun(b, tr, idle{}, sim.Options{Scheduler: sim.EASY})
}

// BenchmarkRICCEASYAlwaysOn: 448k jobs on 1024 nodes of 8 slots, long
// queues (the backfill candidate index at work).
func BenchmarkRICCEASYAlwaysOn(b *testing.B) {
	if testing.Short() {
		b.Skip("large trace")
	}
	tr := openTrace(b, "RICC-2010-2.swf.gz")
	benchRun(b, tr, alwaysOn(b), sim.Options{Scheduler: sim.EASY})
}

// BenchmarkNASAHGFS is the tuner's default case: NASA-iPSC (the embedded
// default trace, 18k jobs on 128 nodes), FCFS, hgfs at its defaults.
func BenchmarkNASAHGFS(b *testing.B) {
	tr := openTrace(b, "NASA-iPSC-1993-3.1-cln.swf.gz")
	p, err := policy.New(policy.Config{Name: "hgfs"})
	if err != nil {
		b.Fatal(err)
	}
	benchRun(b, tr, p, sim.Options{})
}

// BenchmarkNew builds the simulator of CEA-Curie's log (312,826 jobs,
// users and groups named): what every command pays once per trace, and a
// streamed trace pays job by job (Builder.Add).
func BenchmarkNew(b *testing.B) {
	tr := openTrace(b, "CEA-Curie-2011-2.1-cln.swf.gz")
	c, err := sim.ClusterFromTrace(tr.Meta)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := sim.New(tr, c, sim.Options{Scheduler: sim.EASY}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(tr.Jobs)), "ns/job")
}
