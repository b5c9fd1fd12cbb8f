package run_test

import (
	"fmt"

	"github.com/ecotune/ecotune/run"
)

// A run's split is typed; run.json holds its text.
func ExampleParseSplit() {
	s, err := run.ParseSplit("chronological jobs 0:1000 train 1000:2000 test")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Jobs.Cut, s.HasTest())
	fmt.Println(run.Holdout(0.7))
	fmt.Println(run.Dir("runs/x").Manifest())
	// Output:
	// 1000 true
	// chronological jobs 0.7
	// runs/x/run.json
}
