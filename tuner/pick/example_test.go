package pick_test

import (
	"fmt"

	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/tuner/pick"
)

// A relative preset picks, among the solutions whose qos_p90 is at most
// always-on's + 0.15, the one that keeps nodes off longest.
func ExamplePreset_Choose() {
	p, err := pick.ParsePreset("rel15=qos_p90<=always_on+0.15")
	if err != nil {
		fmt.Println(err)
		return
	}
	front := []run.Solution{
		{Train: objectives.Scores{QoSP90: 0.2, OffNodeSeconds: 100}},
		{Train: objectives.Scores{QoSP90: 0.4, OffNodeSeconds: 500}},
		{Train: objectives.Scores{QoSP90: 0.9, OffNodeSeconds: 900}},
	}
	ch, err := p.Choose(front, nil, objectives.Scores{QoSP90: 0.3})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: bound %.2f, row %d, feasible %v\n", ch.Name, ch.Resolved, ch.Row, ch.Feasible)
	// Output: rel15: bound 0.45, row 1, feasible true
}
