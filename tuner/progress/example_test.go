package progress_test

import (
	"math"
	"os"

	"github.com/ecotune/ecotune/tuner/progress"
	"github.com/ecotune/ecotune/tuner/search"
)

// Off a terminal, a Bar prints a plain line for the first status and for
// the last, and at most one every few seconds between them.
func ExampleBar() {
	p := progress.New(os.Stdout, false)
	p.Record(&search.Status{Generation: 0, Generations: 2, Evaluations: 16, Hypervolume: math.NaN()})
	p.Record(&search.Status{Generation: 1, Generations: 2, Evaluations: 32, Hypervolume: math.NaN()})
	p.Done()
	// Output:
	// generation 0/2, 16 evaluations
}
