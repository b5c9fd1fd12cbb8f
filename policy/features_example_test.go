package policy_test

import (
	"encoding/json"
	"fmt"

	"github.com/ecotune/ecotune/policy"
)

// A daemon's polls feeding the feature state, which fills the View an
// idle-timeout policy decides on; the state survives a restart as JSON.
func ExampleFeatures() {
	start := int64(86400 - 2*3600) // 23:00 in UTC+1
	f := policy.NewFeatures(start, 3600, 2)

	// Poll at 00:10 local: a job submitted at 23:58 local (before the
	// midnight) is seen now, and node 1 went busy at 00:05.
	poll := start + 3600 + 600
	f.Advance(poll)
	f.Submitted(policy.Arrival{Time: start + 3480, Slots: 4, ReqTime: 3600})
	f.NodeChanged(1, policy.Busy, start+3600+300)

	// Restart: the state goes through its JSON form.
	data, err := json.Marshal(f)
	if err != nil {
		panic(err)
	}
	g := new(policy.Features)
	if err := json.Unmarshal(data, g); err != nil {
		panic(err)
	}

	model := policy.NodeModel{OffW: 2, IdleW: 150, BootS: 555, BootWh: 13.71, ShutdownS: 480, ShutdownWh: 10.79}
	v := &policy.View{Period: 60, Groups: []policy.Group{{Name: "node", Count: 2, Slots: 4, Model: model}},
		Nodes: []policy.NodeView{{ID: 0, Name: "node1", Slots: 4}, {ID: 1, Name: "node2", Slots: 4, BusySlots: 4}}}
	g.Fill(v)
	fmt.Println("hour 23 (local) load:", v.HourlySlots[23], "idle nodes:", v.IdleLRU, "busy since:", v.Nodes[1].Since-start)

	p, err := policy.New(policy.Config{Name: "idle-timeout"})
	if err != nil {
		panic(err)
	}
	var d policy.Decision
	d.Reset()
	p.Decide(v, &d)
	fmt.Println("power off:", d.PowerOff)
	// Output:
	// hour 23 (local) load: 4 idle nodes: [0] busy since: 3900
	// power off: [{0 0}]
}
