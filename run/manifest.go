package run

import (
	"encoding/json"

	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/policy"
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

// On returns the solution's scores on a split ("train" or "test"), nil if
// it has none.
func (s Solution) On(split string) *objectives.Scores {
	if split == "train" {
		return &s.Train
	}
	return s.Test
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

// On returns the reference's scores on a split, nil if it has none.
func (r Reference) On(split string) *objectives.Scores {
	if split == "train" {
		return &r.Train
	}
	return r.Test
}

// PresetChoice is how an administrator preference was resolved on a front.
// The choice is made on the train split; the chosen solution's scores on
// both splits and whether it meets the preset's bound on each (the bound
// resolved against always-on's scores on the same split) are recorded
// beside it.
type PresetChoice struct {
	Name     string  `json:"name"`     // qos0, qos0.1, qos0.5, rel10, knee, ...
	Bound    float64 `json:"bound"`    // as given
	Relative bool    `json:"relative"` // bound is added to always-on's qos_p90
	// Factor, when not 0, makes a relative bound max(Factor × always-on's,
	// always-on's + Bound) (rel10: 1.1 and 0.1).
	Factor   float64 `json:"factor,omitempty"`
	Resolved float64 `json:"resolved"` // absolute bound used on the train split
	Feasible bool    `json:"feasible"` // the pick meets the bound on the train split
	Row      int     `json:"row"`      // index in Front.Solutions (least violating when infeasible)
	// ResolvedTest is the bound on the test split, FeasibleTest whether
	// the pick meets it there (nil: no test split, or a run written
	// before they were recorded).
	ResolvedTest *float64 `json:"resolved_test,omitempty"`
	FeasibleTest *bool    `json:"feasible_test,omitempty"`
	// Windows is the number of consecutive train windows on which a
	// relative bound was also checked, each resolved against always-on on
	// that window (0: not checked: an absolute bound, or a run written
	// before). Feasible then means the pick meets the bound on the whole
	// train split and its WindowLevel, the WindowAggregate ("median" or
	// "mean") over the windows of value / window bound, is at most 1; a
	// run written before WindowAggregate was recorded checked the mean.
	// WindowMeanLevel is that mean whatever the aggregate, WindowBounds
	// the windows' resolved bounds, WindowsFeasible how many windows the
	// pick meets on their own, WorstWindowMargin its smallest margin over
	// them (bound − value for <=; negative: a miss).
	Windows           int       `json:"windows,omitempty"`
	WindowAggregate   string    `json:"window_aggregate,omitempty"`
	WindowLevel       *float64  `json:"window_level,omitempty"`
	WindowBounds      []float64 `json:"window_bounds,omitempty"`
	WindowMeanLevel   *float64  `json:"window_mean_level,omitempty"`
	WindowsFeasible   *int      `json:"windows_feasible,omitempty"`
	WorstWindowMargin *float64  `json:"worst_window_margin,omitempty"`
	// Loads are the fractions of the train split's jobs kept in thinned
	// copies on which a relative bound was also checked (empty: not
	// checked), LoadBounds the bound resolved against always-on on each,
	// LoadLevels the pick's value / bound there (for >=, bound / value;
	// above 1 a miss). Feasible then also means every load level is at
	// most 1.
	Loads      []float64 `json:"loads,omitempty"`
	LoadBounds []float64 `json:"load_bounds,omitempty"`
	LoadLevels []float64 `json:"load_levels,omitempty"`
	// Train and Test are the pick's scores (nil in runs written before
	// they were recorded; Test nil without a test split).
	Train *objectives.Scores `json:"train,omitempty"`
	Test  *objectives.Scores `json:"test,omitempty"`
	// HindsightRow is the row the preset would have chosen had it seen
	// the test split: its order and bound applied to the front's test
	// scores, the bound resolved against always-on's there (the knee on
	// the test scores). HindsightFeasible is whether that row meets the
	// bound on test; false when no member does. Beside the pick's test
	// scores they part what choosing on train cost from what the front
	// holds at all: when the hindsight row keeps little more than the
	// pick, no choice from this front could have done better. Nil without
	// a test split, or in runs written before they were recorded.
	HindsightRow      *int  `json:"hindsight_row,omitempty"`
	HindsightFeasible *bool `json:"hindsight_feasible,omitempty"`
}

// Normalizer is the hypervolume box of one split: raw objective values
// map to (v − Best)/Span, sign-flipped for maximised objectives
// (tuner.Normalizer computes with it).
type Normalizer struct {
	Objectives []Objective `json:"objectives"`
	Best       []float64   `json:"best"` // raw value mapped to 0
	Span       []float64   `json:"span"` // raw distance mapped to 1
}

// Provenance says where a run's trace came from and what started the run:
// what the tool above the tuner (the command line, a web server) knows and
// the search does not need.
type Provenance struct {
	Trace string // the trace's short name, as the user named it
	// TraceFile is the file the trace was read from (absolute; empty for
	// the embedded trace), TraceFormat and TraceLenient how it was read:
	// what reports need to read it again.
	TraceFile    string
	TraceFormat  string
	TraceLenient bool
	Command      []string
	Version      string
}

// Manifest is RUN_DIR/run.json.
type Manifest struct {
	Command     []string `json:"command"`
	Version     string   `json:"version"`
	Seed        int64    `json:"seed"`
	Policy      string   `json:"policy"`
	Trace       string   `json:"trace"`
	TraceSHA256 string   `json:"trace_sha256"`
	// TraceFile is the file the trace was read from (absolute; empty for
	// the embedded trace), TraceFormat and TraceLenient how it was read:
	// what reports need to read it again.
	TraceFile    string `json:"trace_file,omitempty"`
	TraceFormat  string `json:"trace_format,omitempty"`
	TraceLenient bool   `json:"trace_lenient,omitempty"`
	Split        Split  `json:"split"` // on disk as text, e.g. "chronological jobs 0.7"
	// Cluster is the sim.Cluster the run simulated, as JSON: this package
	// sits below sim (docs/architecture.md), tuner.ClusterOf decodes it.
	Cluster     json.RawMessage      `json:"cluster"`
	Scheduler   string               `json:"scheduler"`
	Evaluations int                  `json:"evaluations"`
	WallSeconds float64              `json:"wall_seconds"`
	Generations int                  `json:"generations"`
	Hypervolume map[string]float64   `json:"hypervolume"` // "train", "test"
	References  map[string]Reference `json:"references"`  // "always-on", "oracle", ...
	Presets     []PresetChoice       `json:"presets"`

	Objectives  []Objective           `json:"objectives,omitempty"`
	Constraints []string              `json:"constraints,omitempty"` // as given, e.g. "qos_p90<=always_on+0.1"
	Population  int                   `json:"population,omitempty"`  // per island
	Islands     int                   `json:"islands,omitempty"`
	TrainJobs   int                   `json:"train_jobs,omitempty"`
	TestJobs    int                   `json:"test_jobs,omitempty"`
	Interrupted bool                  `json:"interrupted,omitempty"` // stopped before the last generation; --resume continues
	Normalizers map[string]Normalizer `json:"normalizers,omitempty"` // hypervolume box per split ("train", "test")
	// ScheduleRule is the policy's own scheduling rule (hgfs: "drain") and
	// whether the search could use it: "drain searched" or "drain off"
	// (empty for policies without one).
	ScheduleRule string `json:"schedule_rule,omitempty"`
	// MissingIslands are the islands of a distributed run (islands as
	// separate processes or Slurm array tasks) that did not take their
	// whole part: never ran, stopped early, or were skipped by a
	// neighbour's migration after its timeout. The front is then the
	// merge of what the islands did.
	MissingIslands []MissingIsland `json:"missing_islands,omitempty"`
	// Robust, when set, is how the search scored candidates on the train
	// split: the front's and the references' train scores are then the
	// aggregate of those replays (tuner.Robust), the test scores plain.
	Robust *Robust `json:"robust,omitempty"`
	// FrontSHA256 is the SHA-256 of front.json as Save wrote it: export
	// refuses a front.json that does not match it (CheckFrontSum). Runs
	// written before it have none.
	FrontSHA256 string `json:"front_sha256,omitempty"`
}

// MissingIsland is an island of a distributed run that did not take its
// whole part, and why.
type MissingIsland struct {
	Island int    `json:"island"`
	Reason string `json:"reason"`
}

// SetProvenance copies p into m.
func (m *Manifest) SetProvenance(p Provenance) {
	m.Trace, m.TraceFile, m.TraceFormat, m.TraceLenient = p.Trace, p.TraceFile, p.TraceFormat, p.TraceLenient
	m.Command, m.Version = p.Command, p.Version
}
