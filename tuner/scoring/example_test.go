package scoring_test

import (
	"fmt"

	"github.com/ecotune/ecotune/tuner/scoring"
)

func ExampleParseConstraint() {
	c, err := scoring.ParseConstraint("qos_p90<=always_on+0.1")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.Name, c.Op, c.Bound, c.Relative)
	// Output: qos_p90 <= 0.1 true
}
