package policy_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/sim"
)

// openShared reads a trace of ../shared/traces and the cluster its header
// describes, skipping the test when the file is not there.
func openShared(tb testing.TB, name string) (*datasets.Trace, sim.Cluster) {
	tb.Helper()
	path := filepath.Join("..", "..", "shared", "traces", name)
	if _, err := os.Stat(path); err != nil {
		tb.Skip(err)
	}
	tr, err := datasets.Open(path, datasets.ReadOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	c, err := sim.ClusterFromTrace(tr.Meta)
	if err != nil {
		tb.Fatal(err)
	}
	return tr, c
}

// sharedSimulator prepares a replay of a shared trace on its own cluster.
func sharedSimulator(tb testing.TB, name string, opt sim.Options) *sim.Simulator {
	tb.Helper()
	tr, c := openShared(tb, name)
	s, err := sim.New(tr, c, opt)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}
