package tuner

import rundir "github.com/ecotune/ecotune/run"

// The kinds of run directory, and where a run records its own, are the
// run package's (run.Kind): these names keep tuner's callers whole.
type Kind = rundir.Kind

// The kinds of run directory (run.KindSingle, ...).
const (
	KindSingle   = rundir.KindSingle
	KindWindows  = rundir.KindWindows
	KindPolicies = rundir.KindPolicies
	KindSeeds    = rundir.KindSeeds
	KindIslands  = rundir.KindIslands
	KindJSON     = rundir.KindJSON
)
