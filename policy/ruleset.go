package policy

// RuleSetVersion is the schema version of rule-set files this package writes.
const RuleSetVersion = 1

// RuleSet is the versioned rule-set file a power-management daemon loads:
// the chosen policy and how it was obtained.
type RuleSet struct {
	Version    int         `json:"version"`
	Policy     Config      `json:"policy"`
	Cluster    []Group     `json:"cluster"` // the cluster it was tuned for
	Period     int64       `json:"period_s"`
	Provenance *Provenance `json:"provenance,omitempty"`
}

// Provenance says where a rule set came from.
type Provenance struct {
	Trace       string             `json:"trace"`
	TraceSHA256 string             `json:"trace_sha256"`
	Split       string             `json:"split"`
	Train       map[string]float64 `json:"train,omitempty"` // objectives on the train split
	Test        map[string]float64 `json:"test,omitempty"`
	Seed        int64              `json:"seed"`
	Version     string             `json:"ecotune_version"`
	Run         string             `json:"run,omitempty"` // run directory
	Pick        string             `json:"pick,omitempty"`
	// Scheduler is the scheduler the run simulated (fcfs, easy), so a
	// replay of the rule set uses it ("" in older rule sets).
	Scheduler string `json:"scheduler,omitempty"`
	// Feasibility is whether the pick, when chosen by a preset, meets the
	// preset's bound on each split (nil: picked by row, or a rule set
	// written before it was recorded).
	Feasibility *Feasibility `json:"feasibility,omitempty"`
}

// Feasibility is a preset pick's verdict on each split: whether it meets
// the preset's bound, resolved on that split (a relative bound against
// always-on's scores there).
type Feasibility struct {
	Train      bool     `json:"train"`
	BoundTrain float64  `json:"bound_train"`
	Test       *bool    `json:"test,omitempty"` // nil: no test split
	BoundTest  *float64 `json:"bound_test,omitempty"`
	// Forced says the pick was exported although infeasible on a split
	// (ecotune export --force).
	Forced bool `json:"forced,omitempty"`
}
