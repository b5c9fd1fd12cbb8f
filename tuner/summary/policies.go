package summary

import (
	"path/filepath"

	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/policy"
	rundir "github.com/ecotune/ecotune/run"
)

// SummaryJSON is the file TunePolicies writes in its directory.
const SummaryJSON = rundir.SummaryJSON

// PoliciesSummary is DIR/summary.json of TunePolicies: every policy tuned
// on the same split with the same budget and seed, side by side with the
// references. Scores use the keys of `ecotune simulate --json`
// (objectives.Scores: qos_p90, off_node_seconds, reconfigurations,
// energy_kwh, mean_wait_s, max_wait_s, …); hypervolumes are in each
// split's fixed box (Normalizer), in [0, 1], comparable across policies.
type PoliciesSummary struct {
	Trace       string                       `json:"trace"`
	TraceSHA256 string                       `json:"trace_sha256"`
	Split       string                       `json:"split"`
	Scheduler   string                       `json:"scheduler"`
	Seed        int64                        `json:"seed"`
	Policies    []PolicySummary              `json:"policies"`
	References  map[string]Pair              `json:"references"` // "always-on", "oracle"
	Presets     []string                     `json:"presets"`    // the presets' names, in order
	Interrupted bool                         `json:"interrupted,omitempty"`
	Normalizers map[string]rundir.Normalizer `json:"normalizers,omitempty"` // the boxes, per split
}

// Pair is scores on the train and the test split.
type Pair struct {
	Train objectives.Scores  `json:"train"`
	Test  *objectives.Scores `json:"test,omitempty"`
}

// PolicySummary is one tuned policy of a PoliciesSummary.
type PolicySummary struct {
	Policy      string             `json:"policy"`
	Dir         string             `json:"dir"` // its run directory, relative to the summary's
	Evaluations int                `json:"evaluations"`
	Hypervolume map[string]float64 `json:"hypervolume"` // "train", "test"
	// ScheduleRule is the policy's own scheduling rule and whether the
	// search used it ("drain searched", "drain off"; "" none).
	ScheduleRule string                `json:"schedule_rule,omitempty"`
	Picks        map[string]PresetPick `json:"picks"` // by preset name
}

// PresetPick is one preset's pick of a policy's front.
type PresetPick struct {
	Row           int                `json:"row"`
	Train         objectives.Scores  `json:"train"`
	Test          *objectives.Scores `json:"test,omitempty"`
	FeasibleTrain bool               `json:"feasible_train"`
	FeasibleTest  *bool              `json:"feasible_test,omitempty"` // nil without a test split
	// ScheduleRuleOn says the pick has its policy's scheduling rule on
	// (hgfs: it drains), so part of its gain may be a schedule change.
	ScheduleRuleOn bool `json:"schedule_rule_on,omitempty"`
	// Hindsight is the member the preset would have chosen had it seen
	// the test split (run.PresetChoice.HindsightRow): what the pick's
	// test scores are measured against to tell a poor choice from a
	// front that holds nothing better. Nil without a test split.
	Hindsight *HindsightPick `json:"hindsight,omitempty"`
}

// HindsightPick is the front member a preset chooses on the test
// split's scores, and whether it meets the preset's bound there.
type HindsightPick struct {
	Row            int               `json:"row"`
	Test           objectives.Scores `json:"test"`
	FeasibleTest   bool              `json:"feasible_test"`
	ScheduleRuleOn bool              `json:"schedule_rule_on,omitempty"`
}

// Policies is the summary of a comparison from its runs' run.json and
// fronts (metas[i] and fronts[i] of one policy, in order), all tuned with
// seed.
func Policies(metas []*rundir.Manifest, fronts []*rundir.Front, seed int64) (*PoliciesSummary, error) {
	s := &PoliciesSummary{Seed: seed, Policies: []PolicySummary{}, References: map[string]Pair{}}
	for i, m := range metas {
		if i == 0 {
			for _, ch := range m.Presets {
				s.Presets = append(s.Presets, ch.Name)
			}
			s.Trace, s.TraceSHA256, s.Split, s.Scheduler, s.Normalizers = m.Trace, m.TraceSHA256, m.Split.String(), m.Scheduler, m.Normalizers
			for name, r := range m.References {
				s.References[name] = Pair{Train: r.Train, Test: r.Test}
			}
		}
		spec, err := policy.Lookup(m.Policy)
		if err != nil {
			return nil, err
		}
		ps := PolicySummary{Policy: m.Policy, Dir: m.Policy, Evaluations: m.Evaluations, Hypervolume: m.Hypervolume,
			ScheduleRule: m.ScheduleRule, Picks: map[string]PresetPick{}}
		for _, ch := range m.Presets {
			if ch.Row < 0 || ch.Row >= len(fronts[i].Solutions) {
				continue
			}
			sol := fronts[i].Solutions[ch.Row]
			pick := PresetPick{Row: ch.Row, Train: sol.Train, Test: sol.Test, FeasibleTrain: ch.Feasible, FeasibleTest: ch.FeasibleTest,
				ScheduleRuleOn: spec.ScheduleRule.On(spec, sol.Config)}
			pick.Hindsight = hindsightPick(ch, fronts[i].Solutions, spec)
			ps.Picks[ch.Name] = pick
		}
		s.Policies = append(s.Policies, ps)
	}
	return s, nil
}

// hindsightPick is ch's hindsight member of sols (policy spec's), nil
// when ch records none.
func hindsightPick(ch rundir.PresetChoice, sols []rundir.Solution, spec policy.Spec) *HindsightPick {
	if ch.HindsightRow == nil || ch.HindsightFeasible == nil {
		return nil
	}
	row := *ch.HindsightRow
	if row < 0 || row >= len(sols) || sols[row].Test == nil {
		return nil
	}
	return &HindsightPick{Row: row, Test: *sols[row].Test, FeasibleTest: *ch.HindsightFeasible,
		ScheduleRuleOn: spec.ScheduleRule.On(spec, sols[row].Config)}
}

// LoadPolicies reads the summary.json of a TunePolicies directory.
func LoadPolicies(dir string) (*PoliciesSummary, error) {
	var s PoliciesSummary
	if err := rundir.ReadJSON(filepath.Join(dir, SummaryJSON), &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// WritePolicies writes s as dir's summary.json, atomically.
func WritePolicies(dir string, s *PoliciesSummary) error {
	return writeJSON(filepath.Join(dir, SummaryJSON), s)
}
