package slurm_test

import (
	"fmt"

	"github.com/ecotune/ecotune/slurm"
)

func ExampleExpandHostlist() {
	names, err := slurm.ExpandHostlist("node[09-11],login1")
	fmt.Println(names, err)
	// Output: [node09 node10 node11 login1] <nil>
}

func ExampleCompressHostlist() {
	expr, err := slurm.CompressHostlist([]string{"node07", "node05", "node06", "node10"})
	fmt.Println(expr, err)
	// Output: node[05-07,10] <nil>
}

func ExampleNodeState_Power() {
	for _, s := range []slurm.NodeState{
		slurm.ParseNodeState("idle", []string{"POWERED_DOWN"}),                       // idle~
		slurm.ParseNodeState("allocated", []string{"NOT_RESPONDING", "POWERING_UP"}), // allocated#
		slurm.ParseNodeState("down", []string{"POWERED_DOWN", "NOT_RESPONDING"}),     // down~
		slurm.ParseNodeState("idle", []string{"DRAIN", "POWER_DOWN"}),                // drained!
	} {
		fmt.Printf("%s: %s\n", s, s.Power())
	}
	// Output:
	// IDLE+POWERED_DOWN: off
	// ALLOCATED+NOT_RESPONDING+POWERING_UP: booting
	// DOWN+NOT_RESPONDING+POWERED_DOWN: unavailable
	// IDLE+DRAIN+POWER_DOWN: unavailable
}

func ExamplePowerDownArgs() {
	v, _ := slurm.ParseVersion("slurm 22.05.8")
	args, _ := slurm.PowerDownArgs(v, []string{"node05", "node06"}, false)
	fmt.Println(args)
	// Output: [scontrol update nodename=node[05-06] state=power_down]
}
