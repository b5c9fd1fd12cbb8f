package reports_test

import (
	"fmt"

	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/reports"
	"github.com/ecotune/ecotune/sim"
)

// A node that is idle, shuts down at t=60 and is off from t=540, as a
// Paraver trace: times in nanoseconds, states numbered as policy.NodeState.
func ExampleNewParaver() {
	tl := &sim.Timeline{
		NodeNames: []string{"node1"},
		Changes: []sim.Change{
			{Time: 0, Node: 0, State: policy.Idle},
			{Time: 60, Node: 0, State: policy.ShuttingDown},
			{Time: 540, Node: 0, State: policy.Off},
		},
	}
	pv, err := reports.NewParaver(tl, 0, 600)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(pv.PRV))
	// Output:
	// #Paraver (01/01/1970 at 00:00):600000000000_ns:1(1):1:1(1:1)
	// 1:1:1:1:1:0:60000000000:2
	// 1:1:1:1:1:60000000000:540000000000:4
	// 1:1:1:1:1:540000000000:600000000000:0
}
