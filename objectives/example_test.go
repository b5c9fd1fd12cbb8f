package objectives_test

import (
	"fmt"

	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/sim"
)

func ExampleCompute() {
	r := &sim.Result{
		TIni: 0, TEnd: 400,
		Jobs: []sim.JobRecord{
			{ID: 1, Submit: 0, Start: 0, End: 100, Slots: 1},
			{ID: 2, Submit: 50, Start: 100, End: 300, Slots: 1},  // waits 50 for 200 s: 0.25
			{ID: 3, Submit: 100, Start: 300, End: 400, Slots: 1}, // waits 200 for 100 s: 2
		},
		OffNodeSeconds: 120, Reconfigurations: 2, EnergyWh: 1500,
	}
	s := objectives.Compute(r)
	fmt.Printf("qos_p90 %.2f, mean wait %.1f s, energy %.1f kWh, makespan %d s\n", s.QoSP90, s.MeanWait, s.EnergyKWh, s.Makespan)
	// Output: qos_p90 2.00, mean wait 83.3 s, energy 1.5 kWh, makespan 400 s
}

func ExampleLookup() {
	o, err := objectives.Lookup(objectives.OffNodeSeconds)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(o.AxisLabel())
	fmt.Println(o.Display(36000), o.DisplayUnit)
	// Output:
	// nodes off (node-hours) — higher is better
	// 10 node-hours
}
