package pick

import rundir "github.com/ecotune/ecotune/run"

// The run directory's types a choice reads and records (package run).
type (
	// Objective is one objective of a search: a score name and its sense.
	Objective = rundir.Objective
	// Solution is one member of a front.
	Solution = rundir.Solution
	// Front is the result of a search (front.json).
	Front = rundir.Front
	// PresetChoice is how an administrator preference was resolved.
	PresetChoice = rundir.PresetChoice
)

// Checks say how a preset's bound is checked beyond the train split: on
// windows of the train split and on thinned copies of it, aggregated.
type Checks struct {
	Windows   int       // the train split's windows (0: DefaultPickWindows, -1: none)
	Loads     []float64 // thinning fractions (nil: DefaultPickLoads; {1}: none)
	Aggregate string    // the window levels' aggregate ("": DefaultPickAggregate)
	Presets   []Preset  // the presets chosen: windows are scored for relative ones only
	Seed      int64     // the thinned copies' random streams derive from it
}

// Resolved is c's number of check windows for a train split of trainJobs
// jobs (0: none), its thinning fractions and its aggregate, defaults
// filled in.
func (c Checks) Resolved(trainJobs int) (windows int, loads []float64, aggregate string) {
	return c.windowCount(trainJobs), c.loads(), c.aggregate()
}
