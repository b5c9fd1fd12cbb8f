package sim_test

import (
	"strings"
	"testing"
	"time"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
)

// TestRefusesBeyondLimits: clusters, jobs and spans beyond the limits are
// refused by New, in under a second and before anything is allocated for
// them (a cluster of 10^12 slots would exhaust memory at once), with an
// error naming what is wrong.
func TestRefusesBeyondLimits(t *testing.T) {
	small := makeTrace(job{submit: 0, run: 100, slots: 1})
	c4 := sim.Uniform(4, 1, simple)
	for _, c := range []struct {
		name string
		tr   *datasets.Trace
		c    sim.Cluster
		want string
	}{
		{"nodes", small, sim.Uniform(100_000_000, 1, simple), "groups[0].count: 100000000 nodes"},
		{"slots per node", small, sim.Uniform(4, 1_000_000_000_000, simple), "groups[0].slots: 1000000000000 slots per node"},
		{"slots in all", small, sim.Uniform(datasets.MaxNodes, 32, simple), "slots or more in all"},
		{"nodes in all", small, sim.Cluster{Groups: []sim.NodeGroup{
			{Name: "a", Count: datasets.MaxNodes, Slots: 1, Model: simple}, {Name: "b", Count: 1, Slots: 1, Model: simple}}}, "nodes or more in all"},
		{"boot time", small, sim.Uniform(4, 1, policy.NodeModel{BootS: 1 << 62}), "groups[0].model.transition time"},
		{"run 1e18", makeTrace(job{0, 100, 1, 0}, job{10, 1e18, 1, 0}), c4, "run time 1000000000000000000 s"},
		{"run MaxInt64", makeTrace(job{0, 100, 1, 0}, job{10, 1<<63 - 1, 1, 0}), c4, "run time 9223372036854775807 s"},
		{"submit 1e15", makeTrace(job{0, 100, 1, 0}, job{1e15, 100, 1, 0}), c4, "submit time 1000000000000000"},
		{"submit negative", makeTrace(job{-5, 100, 1, 0}), c4, "submit time -5"},
		{"requested 1e18", makeTrace(job{0, 100, 1, 1e18}), c4, "requested time 1000000000000000000 s"},
	} {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			_, err := sim.New(c.tr, c.c, sim.Options{})
			if took := time.Since(start); err == nil || !strings.Contains(err.Error(), c.want) || took > time.Second {
				t.Fatalf("New: %v after %v; want an error containing %q within a second", err, took, c.want)
			}
		})
	}
	// The span: jobs run one after another reach beyond MaxSpan.
	many := make([]job, 90)
	for i := range many {
		many[i] = job{submit: int64(i), run: datasets.MaxDuration, slots: 1}
	}
	if _, err := sim.New(makeTrace(many...), c4, sim.Options{}); err == nil || !strings.Contains(err.Error(), "bounded work") {
		t.Errorf("90 jobs of 100 years: %v, want refused as unbounded work", err)
	}
}

// TestReplaysAtLimits: a trace at the limits (a run of 100 years, a
// submission in 2199, a 2^24-slot node) is replayed, in bounded time,
// with sums that did not overflow: the makespan, the busy slot-seconds
// and the node-seconds are exactly what the jobs give.
func TestReplaysAtLimits(t *testing.T) {
	const nodes = 4
	tr := makeTrace(job{submit: datasets.MaxTime - datasets.MaxDuration - 1000, run: datasets.MaxDuration, slots: 2},
		job{submit: datasets.MaxTime, run: 7, slots: 1})
	for _, name := range []string{"always-on", "idle-timeout", "hgfs"} {
		for _, slots := range []int{1, datasets.MaxProcs / nodes} {
			p, err := policy.New(policy.Config{Name: name})
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			r, err := sim.Run(tr, sim.Uniform(nodes, slots, simple), p, sim.Options{})
			if err != nil {
				t.Fatalf("%s, %d slots a node: %v", name, slots, err)
			}
			if took := time.Since(start); took > 5*time.Second {
				t.Errorf("%s: replay took %v", name, took)
			}
			span := r.TEnd - r.TIni
			if span < datasets.MaxDuration+1000 || r.TEnd > datasets.MaxTime+datasets.MaxDuration {
				t.Errorf("%s: span [%d, %d]", name, r.TIni, r.TEnd)
			}
			if want := 2*datasets.MaxDuration + 7; r.BusySlotSeconds != want {
				t.Errorf("%s: busy slot-seconds %d, want %d", name, r.BusySlotSeconds, want)
			}
			if r.PoweredNodeSeconds < 0 || r.PoweredNodeSeconds+r.OffNodeSeconds != nodes*span || r.EnergyWh <= 0 {
				t.Errorf("%s: powered %d + off %d node-seconds, want %d; energy %v Wh", name, r.PoweredNodeSeconds, r.OffNodeSeconds, nodes*span, r.EnergyWh)
			}
		}
	}
}

// TestClusterSourcesBeyondLimits: each way of describing the cluster
// (flags, a cluster file, a trace header) refuses a size beyond the
// limits, naming the flag, the file's field or the header.
func TestClusterSourcesBeyondLimits(t *testing.T) {
	meta := datasets.Meta{Name: "t", Nodes: datasets.Unknown, Procs: datasets.Unknown}
	for _, c := range []struct {
		spec sim.ClusterSpec
		meta datasets.Meta
		want string
	}{
		{sim.ClusterSpec{Nodes: 100_000_000}, meta, "--nodes 100000000: more than the limit"},
		{sim.ClusterSpec{Nodes: 4, SlotsPerNode: 1_000_000_000_000}, meta, "--nodes 4 --slots-per-node 1000000000000: more than the limit"},
		{sim.ClusterSpec{Nodes: datasets.MaxNodes, SlotsPerNode: datasets.MaxProcs}, meta, "more than the limit, 16777216 slots in all"},
		{sim.ClusterSpec{}, datasets.Meta{Name: "t", Nodes: 4, Procs: 1_000_000_000_000}, `trace "t": machine size in the header`},
		{sim.ClusterSpec{}, datasets.Meta{Name: "t", Nodes: datasets.Unknown, Procs: 1_000_000_000_000}, `trace "t": machine size in the header`},
	} {
		if _, err := c.spec.Resolve(c.meta); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v on %d nodes, %d procs: %v, want %q", c.spec, c.meta.Nodes, c.meta.Procs, err, c.want)
		}
	}
	if c, err := (sim.ClusterSpec{Nodes: datasets.MaxNodes, SlotsPerNode: datasets.MaxProcs / datasets.MaxNodes}).Resolve(meta); err != nil || c.Slots() != datasets.MaxProcs {
		t.Errorf("at the limits: %v", err)
	}
	_, err := sim.ParseCluster([]byte("groups:\n  - {name: n, count: 1000000000, slots: 1, model: escs}\n"))
	if err == nil || !strings.Contains(err.Error(), "groups[0].count: 1000000000 nodes is more than the limit") {
		t.Errorf("cluster file with count 10^9: %v", err)
	}
}
