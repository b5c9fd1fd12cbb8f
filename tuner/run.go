package tuner

import (
	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
)

// Objective is one objective of a search: a score name and its sense.
type Objective struct {
	Name     string `json:"name"`
	Maximize bool   `json:"maximize"`
}

// Solution is one member of a front.
type Solution struct {
	Config  policy.Config      `json:"config"`
	Train   objectives.Scores  `json:"train"`
	Test    *objectives.Scores `json:"test,omitempty"` // nil when there is no test split
	Rank    int                `json:"rank"`           // non-domination rank on train (0 = front)
	Presets []string           `json:"presets,omitempty"`
}

// Front is the result of a search, as stored in RUN_DIR/front.json (full
// fidelity) and RUN_DIR/front.{parquet,csv} (flat).
type Front struct {
	Policy     string      `json:"policy"`
	ParamNames []string    `json:"param_names"`
	Objectives []Objective `json:"objectives"`
	Solutions  []Solution  `json:"solutions"`
}

// Reference is a fixed policy evaluated on the same splits (always-on,
// the oracle, untuned baselines).
type Reference struct {
	Config policy.Config      `json:"config"`
	Train  objectives.Scores  `json:"train"`
	Test   *objectives.Scores `json:"test,omitempty"`
}

// PresetChoice is how an administrator preference was resolved on a front.
type PresetChoice struct {
	Name     string  `json:"name"`     // qos0, qos0.1, qos0.5, knee, ...
	Bound    float64 `json:"bound"`    // as given
	Relative bool    `json:"relative"` // bound is added to always-on's qos_p90
	Resolved float64 `json:"resolved"` // absolute bound used
	Feasible bool    `json:"feasible"`
	Row      int     `json:"row"` // index in Front.Solutions (least violating when infeasible)
}

// RunMeta is RUN_DIR/run.json.
type RunMeta struct {
	Command     []string `json:"command"`
	Version     string   `json:"version"`
	Seed        int64    `json:"seed"`
	Policy      string   `json:"policy"`
	Trace       string   `json:"trace"`
	TraceSHA256 string   `json:"trace_sha256"`
	// TraceFile is the file the trace was read from (absolute; empty for
	// the embedded trace), TraceFormat and TraceLenient how it was read:
	// what reports need to read it again.
	TraceFile    string               `json:"trace_file,omitempty"`
	TraceFormat  string               `json:"trace_format,omitempty"`
	TraceLenient bool                 `json:"trace_lenient,omitempty"`
	Split        string               `json:"split"` // e.g. "chronological jobs 0.7"
	Cluster      sim.Cluster          `json:"cluster"`
	Scheduler    string               `json:"scheduler"`
	Evaluations  int                  `json:"evaluations"`
	WallSeconds  float64              `json:"wall_seconds"`
	Generations  int                  `json:"generations"`
	Hypervolume  map[string]float64   `json:"hypervolume"` // "train", "test"
	References   map[string]Reference `json:"references"`  // "always-on", "oracle", ...
	Presets      []PresetChoice       `json:"presets"`

	Objectives  []Objective           `json:"objectives,omitempty"`
	Constraints []string              `json:"constraints,omitempty"` // as given, e.g. "qos_p90<=always_on+0.1"
	Population  int                   `json:"population,omitempty"`  // per island
	Islands     int                   `json:"islands,omitempty"`
	TrainJobs   int                   `json:"train_jobs,omitempty"`
	TestJobs    int                   `json:"test_jobs,omitempty"`
	Interrupted bool                  `json:"interrupted,omitempty"` // stopped before the last generation; --resume continues
	Normalizers map[string]Normalizer `json:"normalizers,omitempty"` // hypervolume box per split ("train", "test")
}
