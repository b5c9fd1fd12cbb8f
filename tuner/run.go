package tuner

import (
	rundir "github.com/ecotune/ecotune/run"
)

// The run directory's types belong to package run; these names keep the
// tuner's API.
type (
	// Objective is one objective of a search: a score name and its sense.
	Objective = rundir.Objective
	// Solution is one member of a front.
	Solution = rundir.Solution
	// Front is the result of a search (front.json).
	Front = rundir.Front
	// Reference is a fixed policy evaluated on the same splits.
	Reference = rundir.Reference
	// PresetChoice is how an administrator preference was resolved.
	PresetChoice = rundir.PresetChoice
	// RunMeta is RUN_DIR/run.json.
	RunMeta = rundir.Manifest
	// JobSplit is a chronological split by job index.
	JobSplit = rundir.JobSplit
)

// ScoreNames are the scores the flat front files carry, per split.
var ScoreNames = rundir.ScoreNames
