package tuner

import (
	"context"
	"flag"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	rundir "github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/sim"
	"github.com/ecotune/ecotune/tuner/scoring"
	"github.com/ecotune/ecotune/tuner/search"
)

var robustEvals = flag.Int("robust-evals", 10000, "evaluations of each tune of BenchmarkRobustTune")

// thinRelative are the thinned-relative robust settings: 4 windows, each
// replayed as logged and thinned to 0.8, qos_p90 relative to always-on's,
// cvar at 0.5.
func thinRelative() scoring.Robust {
	return scoring.Robust{Windows: 4, Thin: 0.8, Relative: true, Aggregate: scoring.AggregateCVaR}
}

// BenchmarkRobustTune measures what robust evaluation costs: one op is a
// whole hgfs tune of -robust-evals distinct evaluations (default 10,000)
// on SDSC-SP2 (EASY, 70/30 split, seed 1), plain, with DefaultRobust and
// with the thinned-relative settings.
// The ratio of the two ns/op is the cost of robustness (the issue asks
// for at most 2). Run it alone: go test -run '^$' -bench RobustTune
// -benchtime 1x ./tuner. Each op also reports the process's CPU time
// (user + system, cpu-s/op), which a loaded machine disturbs far less
// than wall time.
func BenchmarkRobustTune(b *testing.B) {
	tr := openSP2(b)
	for _, bc := range []struct {
		name   string
		robust scoring.Robust
	}{{"plain", scoring.Robust{}}, {"robust", scoring.DefaultRobust()}, {"thin-relative", thinRelative()}} {
		b.Run(bc.name, func(b *testing.B) {
			cpu0 := processCPU(b)
			for range b.N {
				o := Options{Policy: "hgfs", Trace: tr, Split: rundir.Holdout(0.7), Sim: sim.Options{Scheduler: sim.EASY}, Robust: bc.robust,
					Settings: search.Settings{Generations: 100000, Evaluations: *robustEvals, Seed: 1}, Method: search.NSGA2{Population: 32, Islands: 2, MigrationEvery: 5}}
				out, err := Tune(context.Background(), o, rundir.Target{Dir: filepath.Join(b.TempDir(), "run")})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(out.Meta.Evaluations), "evals")
			}
			b.ReportMetric((processCPU(b)-cpu0).Seconds()/float64(b.N), "cpu-s/op")
		})
	}
}

// processCPU returns the user and system CPU time this process has used.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
