package scoring

import rundir "github.com/ecotune/ecotune/run"

// Objective is one objective of a search: a score name and its sense
// (run.Objective).
type Objective = rundir.Objective
