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
}
