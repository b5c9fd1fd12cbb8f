package replay_test

import (
	"context"
	"fmt"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/replay"
	"github.com/ecotune/ecotune/sim"
)

// Replay the embedded trace once under idle-timeout, as `ecotune simulate
// --policy idle-timeout --set idle_timeout=600` does.
func Example() {
	tr, err := datasets.Default()
	if err != nil {
		panic(err)
	}
	cluster, err := sim.ClusterSpec{}.Resolve(tr.Meta)
	if err != nil {
		panic(err)
	}
	res, err := replay.Run(context.Background(), replay.TraceJobs(tr), replay.Setup{
		Trace:   tr.Meta.Name,
		Config:  policy.Config{Name: "idle-timeout", Params: map[string]float64{"idle_timeout": 600}},
		Cluster: cluster, Scheduler: sim.DefaultScheduler, Period: sim.DefaultPeriod,
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Jobs == len(tr.Jobs), res.Scheduler, res.Nodes == cluster.Groups[0].Count, res.OffNodeSeconds > 0)
	// Output: true easy true true
}
