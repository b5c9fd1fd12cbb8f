package sim_test

import (
	"fmt"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
)

// A two-node cluster replays three jobs first-come first-served with every
// node always on.
func ExampleRun() {
	tr := &datasets.Trace{Jobs: []datasets.Job{
		{ID: 1, Submit: 0, Run: 100, Procs: 2, ReqTime: -1},
		{ID: 2, Submit: 10, Run: 50, Procs: 1, ReqTime: -1},
		{ID: 3, Submit: 20, Run: 30, Procs: 1, ReqTime: -1},
	}}
	p, _ := policy.New(policy.Config{Name: "always-on"})
	r, err := sim.Run(tr, sim.Uniform(2, 1, sim.ESCS), p, sim.Options{Scheduler: sim.FCFS})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, j := range r.Jobs {
		fmt.Printf("job %d: submit %d start %d end %d\n", j.ID, j.Submit, j.Start, j.End)
	}
	fmt.Printf("makespan %d s, %d busy slot-seconds, %.4f kWh\n", r.TEnd-r.TIni, r.BusySlotSeconds, r.EnergyWh/1000)
	// Output:
	// job 1: submit 0 start 0 end 100
	// job 2: submit 10 start 100 end 150
	// job 3: submit 20 start 100 end 130
	// makespan 150 s, 280 busy slot-seconds, 0.0187 kWh
}

// A Simulator is made once per trace and cluster and run many times: each
// Run reuses its buffers.
func ExampleSimulator_Run() {
	tr := &datasets.Trace{Jobs: []datasets.Job{
		{ID: 1, Submit: 0, Run: 3600, Procs: 1, ReqTime: -1},
		{ID: 2, Submit: 7200, Run: 3600, Procs: 1, ReqTime: -1},
	}}
	s, err := sim.New(tr, sim.Uniform(4, 1, sim.ESCS), sim.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, name := range []string{"always-on", "idle-timeout"} {
		p, _ := policy.New(policy.Config{Name: name, Params: map[string]float64{}})
		r, err := s.Run(p)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s: off %d node-s, %d reconfigurations\n", name, r.OffNodeSeconds, r.Reconfigurations)
	}
	// Under idle-timeout (30 min) nodes 1–3 go off at 1800 (Off at 2280),
	// node 0 at 5400 after its job (Off at 5880); job 2 at 7200 waits for
	// node 0 to boot (555 s) and ends at 11355. Powered: 3·2280 + 5880 +
	// (11355−7200) = 16875 of 4·11355 node-seconds; off 28545.
	// Reconfigurations: four nodes reaching Off, one boot.

	// Output:
	// always-on: off 0 node-s, 0 reconfigurations
	// idle-timeout: off 28545 node-s, 5 reconfigurations
}

// RunInto reuses one Result for replay after replay: a tuner scoring
// thousands of policies keeps only the scores, and allocates no job
// records after the first.
func ExampleSimulator_RunInto() {
	tr := &datasets.Trace{Jobs: []datasets.Job{
		{ID: 1, Submit: 0, Run: 3600, Procs: 1, ReqTime: -1},
		{ID: 2, Submit: 7200, Run: 3600, Procs: 1, ReqTime: -1},
	}}
	s, err := sim.New(tr, sim.Uniform(4, 1, sim.ESCS), sim.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	var r sim.Result
	for _, timeout := range []float64{600, 1800, 7200} {
		p, _ := policy.New(policy.Config{Name: "idle-timeout", Params: map[string]float64{"idle_timeout": timeout}})
		if err := s.RunInto(p, &r); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("timeout %4.0f s: off %d node-s, %d reconfigurations, job 2 starts at %d\n",
			timeout, r.OffNodeSeconds, r.Reconfigurations, r.Jobs[1].Start)
	}
	// 600 s: nodes 1–3 Off at 1080, node 0 at 4680, a node boots for job 2
	// (555 s), which ends at 11355: powered 3·1080 + 4680 + 4155 = 12075
	// of 4·11355; off 33345. 7200 s: job 2 takes node 0, still idle, and
	// ends at 10800; nodes 1–3 go at 7200 (Off at 7680): powered 10800 +
	// 3·7680 = 33840 of 4·10800; off 9360. 1800 s: as in Simulator.Run.

	// Output:
	// timeout  600 s: off 33345 node-s, 5 reconfigurations, job 2 starts at 7755
	// timeout 1800 s: off 28545 node-s, 5 reconfigurations, job 2 starts at 7755
	// timeout 7200 s: off 9360 node-s, 3 reconfigurations, job 2 starts at 7200
}
