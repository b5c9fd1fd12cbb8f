//go:build long

package sim_test

import (
	"fmt"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
)

// Scale: a replay costs time linear in the jobs, and a 10-million-job
// synthetic trace replays in at most 10 s of CPU on one core. Run it
// alone (it holds the 10-million-job trace in memory) as
//
//	go test -tags long ./sim -run TestScale -v -cpu 1
//
// and under /usr/bin/time -v for the peak RSS (one case at a time:
// -run 'TestScale/jobs=10000000'). The synthetic machine: 512 nodes of
// one slot, the Lublin–Feitelson model (datasets.SynthTrace), seed 1.

const (
	scaleNodes = 512
	scaleLimit = 10 * time.Second // CPU time of the 10-million-job FCFS replay
	// scaleSlack bounds ns/job at 10M over ns/job at 1M: linear up to
	// cache effects and a shared machine's noise.
	scaleSlack = 1.5
)

// scaleCase is one replay set-up of the scale test; limit bounds its
// 10-million-job replay's CPU time (0: measured and logged only).
type scaleCase struct {
	name  string
	opt   sim.Options
	pol   func(testing.TB) policy.Policy
	limit time.Duration
}

// The 10 s bound is the plain replay's (FCFS, every node on). EASY with
// idle-timeout costs more per job (measured in docs/performance.md):
// logged, not bounded.
var scaleCases = []scaleCase{
	{"FCFS-always-on", sim.Options{Scheduler: sim.FCFS}, alwaysOn, scaleLimit},
	{"EASY-idle-timeout", sim.Options{Scheduler: sim.EASY, Period: 60}, idleTimeout, 0},
}

// replayCPU replays tr once per case and returns each replay's CPU time
// on this thread (the second of two replays: the first grows buffers).
func replayCPU(t *testing.T, tr *datasets.Trace) []time.Duration {
	t.Helper()
	c, err := sim.ClusterFromTrace(tr.Meta)
	if err != nil {
		t.Fatal(err)
	}
	defer lockThread()()
	out := make([]time.Duration, len(scaleCases))
	for k, sc := range scaleCases {
		s, err := sim.New(tr, c, sc.opt)
		if err != nil {
			t.Fatal(err)
		}
		p := sc.pol(t)
		var r sim.Result
		if err := s.RunInto(p, &r); err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		c0 := threadCPU()
		if err := s.RunInto(p, &r); err != nil {
			t.Fatal(err)
		}
		out[k] = threadCPU() - c0
		if len(r.Jobs) != len(tr.Jobs) || r.TEnd <= r.TIni {
			t.Fatalf("%s: %d job records of %d, span %d..%d", sc.name, len(r.Jobs), len(tr.Jobs), r.TIni, r.TEnd)
		}
	}
	return out
}

func TestScale(t *testing.T) {
	sizes := []int{1_000_000, 10_000_000}
	perJob := make([][]float64, len(sizes))
	for x, n := range sizes {
		t.Run(fmt.Sprintf("jobs=%d", n), func(t *testing.T) {
			start := time.Now()
			tr, err := datasets.SynthTrace(datasets.SynthOptions{Jobs: n, Nodes: scaleNodes, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("synthesised %d jobs in %v", len(tr.Jobs), time.Since(start).Round(time.Millisecond))
			cpu := replayCPU(t, tr)
			perJob[x] = make([]float64, len(cpu))
			for k, d := range cpu {
				perJob[x][k] = float64(d.Nanoseconds()) / float64(n)
				t.Logf("%s: %v CPU, %.0f ns/job", scaleCases[k].name, d.Round(time.Millisecond), perJob[x][k])
				if lim := scaleCases[k].limit; n == 10_000_000 && lim > 0 && d > lim {
					t.Errorf("%s: 10M jobs replay in %v of CPU, more than %v", scaleCases[k].name, d, lim)
				}
			}
			var ru syscall.Rusage
			if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err == nil {
				t.Logf("peak RSS so far: %d MiB", ru.Maxrss>>10)
			}
		})
	}
	if perJob[0] == nil || perJob[1] == nil {
		return // a subtest was filtered out or failed
	}
	for k, sc := range scaleCases {
		if r := perJob[1][k] / perJob[0][k]; r > scaleSlack {
			t.Errorf("%s: %.0f ns/job at 10M against %.0f at 1M (×%.2f): not linear", sc.name, perJob[1][k], perJob[0][k], r)
		} else {
			t.Logf("%s: ns/job at 10M / at 1M = %.2f", sc.name, r)
		}
	}
}
