package policy_test

import (
	"testing"

	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
)

// The oracle keeps every job's always-on start (so its QoS equals
// always-on's) on real traces replayed by the simulator: NASA-iPSC always,
// every shared trace with -tags long.
func TestOracleKeepsAlwaysOnStarts(t *testing.T) {
	traces := []string{"NASA-iPSC-1993-3.1-cln.swf.gz"}
	if long {
		traces = append(traces, "SDSC-SP2-1998-4.2-cln.swf.gz", "OSC-Clust-2000-3.1-cln.swf.gz", "LANL-CM5-1994-4.1-cln.swf.gz",
			"SDSC-Par-1996-3.1-cln.swf.gz", "SDSC-BLUE-2000-4.2-cln.swf.gz", "Sandia-Ross-2001-1.1-cln.swf.gz",
			"LLNL-Atlas-2006-2.1-cln.swf.gz", "SDSC-DS-2004-2.1-cln.swf.gz")
	}
	for _, name := range traces {
		t.Run(name, func(t *testing.T) {
			s := sharedSimulator(t, name, sim.Options{})
			on, oracle := run(t, s, "always-on"), run(t, s, "oracle")
			for i := range on.Jobs {
				if on.Jobs[i].Start != oracle.Jobs[i].Start {
					t.Fatalf("job %d starts at %d under the oracle, %d under always-on", on.Jobs[i].ID, oracle.Jobs[i].Start, on.Jobs[i].Start)
				}
			}
			if oracle.OffNodeSeconds <= 0 {
				t.Errorf("oracle saved nothing")
			}
		})
	}
}

func run(t *testing.T, s *sim.Simulator, name string) *sim.Result {
	t.Helper()
	p, err := policy.New(policy.Config{Name: name})
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Run(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
