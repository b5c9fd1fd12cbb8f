package replay

import (
	"github.com/ecotune/ecotune/objectives"
)

// Result is one replay's outcome: what `ecotune simulate --json` prints
// (and the workbench's result.json), key for key.
type Result struct {
	Trace     string             `json:"trace"`
	Rules     string             `json:"rules,omitempty"` // the rule-set file replayed, if any
	Policy    string             `json:"policy"`
	Params    map[string]float64 `json:"params"`
	Scheduler string             `json:"scheduler"`
	PeriodS   int64              `json:"period_s"` // as given: 0 is every event
	Nodes     int                `json:"nodes"`
	Slots     int                `json:"slots"`
	objectives.Scores
	BootFailures    int64   `json:"boot_failures"`
	IgnoredCommands int64   `json:"ignored_commands"`
	SimSeconds      float64 `json:"sim_seconds"` // the replay's wall time (reading excluded)
	// Breakdowns are set only when Setup.Breakdowns asks for them.
	objectives.Breakdowns
	// PartitionScores are the cluster's partitions' scores, for the text
	// output (the JSON has them under Breakdowns' partitions).
	PartitionScores []objectives.PartitionScores `json:"-"`
}
