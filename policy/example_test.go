package policy_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/ecotune/ecotune/policy"
)

// A policy from `--set` arguments deciding on a View.
func Example() {
	spec, err := policy.Lookup("idle-timeout")
	if err != nil {
		panic(err)
	}
	cfg, err := policy.ParseSet(spec, []string{"idle_timeout=600"})
	if err != nil {
		panic(err)
	}
	p, err := spec.New(cfg)
	if err != nil {
		panic(err)
	}
	model := policy.NodeModel{OffW: 2, IdleW: 150, BootS: 555, BootWh: 13.71, ShutdownS: 480, ShutdownWh: 10.79}
	v := &policy.View{
		Now: 10_000, Period: 60,
		Groups: []policy.Group{{Name: "node", Count: 2, Slots: 4, Model: model}},
		Nodes: []policy.NodeView{
			{ID: 0, Name: "node1", State: policy.Idle, Since: 9_000, IdleSince: 9_000, Slots: 4, LastFailed: policy.NoTime},
			{ID: 1, Name: "node2", State: policy.Idle, Since: 9_700, IdleSince: 9_700, Slots: 4, LastFailed: policy.NoTime},
		},
	}
	v.Recount()
	var d policy.Decision
	d.Reset()
	p.Decide(v, &d)
	fmt.Println("power off:", d.PowerOff, "ask again at:", d.Wake)
	// Output:
	// power off: [{0 0}] ask again at: 10300
}

// A daemon's cycle: load the rule set, read the cluster state, decide.
func ExampleDecideState() {
	dir, _ := os.MkdirTemp("", "ecotune")
	defer os.RemoveAll(dir)
	rules := filepath.Join(dir, "rules.json")
	rs := &policy.RuleSet{
		Version: policy.RuleSetVersion,
		Policy:  policy.Config{Name: "always-off"},
		Cluster: []policy.Group{{Name: "node", Count: 2, Slots: 8}},
		Period:  60,
	}
	if err := policy.WriteRuleSet(rules, rs, false); err != nil {
		panic(err)
	}
	loaded, err := policy.LoadRuleSet(rules)
	if err != nil {
		panic(err)
	}
	v, err := policy.ParseState([]byte(`{"now": 1000, "nodes": [
		{"name": "n1", "group": "node", "state": "idle", "since": 900},
		{"name": "n2", "group": "node", "state": "off", "since": 0}],
		"queue": [{"id": 1, "slots": 12, "submit": 990, "req_time": 600}]}`), loaded)
	if err != nil {
		panic(err)
	}
	out, err := policy.DecideState(loaded, v)
	if err != nil {
		panic(err)
	}
	out.WriteText(os.Stdout)
	// Output:
	// policy always-off at 1000
	// power on:  n2
	// power off: none
	// frequency: none
	// ask again: at the next event
}
