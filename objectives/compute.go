package objectives

import (
	"fmt"

	"github.com/ecotune/ecotune/sim"
)

// Compute scores one replay.
func Compute(r *sim.Result) Scores {
	panic("objectives.Compute: not implemented yet")
}

// Get returns the score called name (see names.go).
func (s Scores) Get(name string) (float64, error) {
	return 0, fmt.Errorf("objectives: unknown score %q", name)
}
