package tuner

import (
	"context"
	"testing"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/internal/testtrace"
	rundir "github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/sim"
)

// AutoRobust turns robust evaluation on for a loaded train split
// (SDSC-SP2: always-on's p90 wait ratio in the hundreds) and leaves a
// light one plain (NASA-iPSC: 0); explicit settings are kept as given;
// AutoRobust is cleared either way.
func TestResolveAutoRobust(t *testing.T) {
	sp2, err := datasets.Open(testtrace.Trace(t, "SDSC-SP2-1998-4.2-cln.swf.gz"), datasets.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	nasa, err := datasets.Default()
	if err != nil {
		t.Fatal(err)
	}
	mine := Robust{Windows: 2, Aggregate: AggregateMean}
	cases := []struct {
		name   string
		trace  *datasets.Trace
		auto   bool
		robust Robust
		want   Robust
	}{
		{"loaded", sp2, true, Robust{}, DefaultRobust()},
		{"light", nasa, true, Robust{}, Robust{}},
		{"loaded, explicit", sp2, true, mine, mine},
		{"loaded, not auto", sp2, false, Robust{}, Robust{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := Options{Policy: "hgfs", Trace: c.trace, Split: rundir.Holdout(0.7), Sim: sim.Options{Scheduler: sim.EASY}, Robust: c.robust, AutoRobust: c.auto}
			got, err := resolveAutoRobust(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			if got.Robust != c.want || got.AutoRobust {
				t.Errorf("robust %+v, auto %v; want %+v, false", got.Robust, got.AutoRobust, c.want)
			}
		})
	}
}
