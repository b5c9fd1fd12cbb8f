package policy_test

import (
	"testing"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/internal/testtrace"
	"github.com/ecotune/ecotune/sim"
)

// openShared reads a trace of ../shared/traces and the cluster its header
// describes; NASA-iPSC comes from the embedded default (datasets.Default),
// and a missing shared file fails the test under CI=true and skips it
// otherwise (testtrace).
func openShared(tb testing.TB, name string) (*datasets.Trace, sim.Cluster) {
	tb.Helper()
	var tr *datasets.Trace
	var err error
	if name == testtrace.NASA {
		tr, err = datasets.Default()
	} else {
		tr, err = datasets.Open(testtrace.Trace(tb, name), datasets.ReadOptions{})
	}
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
