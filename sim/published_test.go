package sim_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
)

// openTrace reads a trace of /work/shared/traces, skipping when absent.
func openTrace(t testing.TB, name string) *datasets.Trace {
	t.Helper()
	path := filepath.Join("..", "..", "shared", "traces", name)
	if _, err := os.Stat(path); err != nil {
		t.Skipf("trace %s not available: %v", path, err)
	}
	tr, err := datasets.Open(path, datasets.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func alwaysOn(t testing.TB) policy.Policy {
	t.Helper()
	p, err := policy.New(policy.Config{Name: "always-on"})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPublishedESCS(t *testing.T) {
	for _, name := range []string{"NASA-iPSC-1993-3.1-cln.swf.gz", "OSC-Clust-2000-3.1-cln.swf.gz"} {
		tr := openTrace(t, name)
		c, err := sim.ClusterFromTrace(tr.Meta)
		if err != nil {
			t.Fatal(err)
		}
		r, err := sim.Run(tr, c, alwaysOn(t), sim.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: jobs %d skipped %v nodes %d slots %d makespan %d energy %.4f MWh busy slot-s %d", name, len(tr.Jobs), tr.Meta.Skipped, r.Nodes, r.Slots, r.TEnd-r.TIni, r.EnergyWh/1e6, r.BusySlotSeconds)
	}
}
