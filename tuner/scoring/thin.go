package scoring

import (
	"fmt"
	"math/rand/v2"

	"github.com/ecotune/ecotune/datasets"
)

// ThinTrace returns a copy of tr keeping each job, in order, with
// probability f (one draw of rng per job).
func ThinTrace(tr *datasets.Trace, f float64, rng *rand.Rand) *datasets.Trace {
	m := tr.Meta.Clone()
	m.Notes = append(m.Notes, fmt.Sprintf("thinned to %g of its jobs", f))
	out := &datasets.Trace{Meta: m, Jobs: make([]datasets.Job, 0, int(float64(len(tr.Jobs))*f)+1)}
	for _, j := range tr.Jobs {
		if rng.Float64() < f {
			out.Jobs = append(out.Jobs, j)
		}
	}
	return out
}
