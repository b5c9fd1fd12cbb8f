package tuner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/policy"
	rundir "github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/tuner/pick"
	"github.com/ecotune/ecotune/tuner/scoring"
)

// SummaryJSON is the file TunePolicies writes in its directory.
const SummaryJSON = "summary.json"

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

// TunePolicies tunes each policy in turn on o's split with o's settings
// and seed (the same budget), each an ordinary run in t.Dir/POLICY, and
// writes t.Dir/summary.json (PoliciesSummary). With t.Resume, the
// finished runs are kept if they are o's (a run of other options is
// refused) and picked again if o's pick checks differ, and an interrupted
// one resumes (resumeRun). Cancelling ctx stops the current policy's run;
// the summary then lists the finished ones, marked interrupted.
func TunePolicies(ctx context.Context, o Options, t rundir.Target, policies []string) (*PoliciesSummary, error) {
	if err := checkPolicyList(policies); err != nil {
		return nil, err
	}
	if t.Dir == "" {
		return nil, errors.New("tuner: no run directory")
	}
	if err := startKind(t, KindPolicies); err != nil {
		return nil, err
	}
	var metas []*RunMeta
	var fronts []*Front
	interrupted := false
	for _, p := range policies {
		po, pt := o, t
		po.Policy = p
		po.Settings.Recorders = slices.Clip(o.Settings.Recorders)
		var err error
		if pt.Dir, err = subDir(t.Dir, p); err != nil {
			return nil, err
		}
		var meta *RunMeta
		var front *Front
		pt.Force = true // the parent was checked: empty, or --force
		if t.Resume {
			if pt.Resume, meta, front, err = resumeRun(po, pt.Dir); err != nil {
				return nil, err
			}
			if meta != nil {
				note(o.Monitor, "%s: finished, kept\n", p)
				if err := fillHindsight(meta, front, po); err != nil {
					return nil, fmt.Errorf("tuner: policy %s: %w", p, err)
				}
			}
		}
		if meta == nil {
			verb := "tuning"
			if pt.Resume {
				verb = "resuming" // an interrupted run, or a finished one to pick again
			}
			note(o.Monitor, "%s %s\n", verb, p)
			out, err := Tune(ctx, po, pt)
			if err != nil {
				return nil, fmt.Errorf("tuner: policy %s: %w", p, err)
			}
			if out.Interrupted {
				interrupted = true
				break
			}
			meta, front = out.Meta, out.Front
		}
		metas, fronts = append(metas, meta), append(fronts, front)
	}
	s, err := summarizePolicies(metas, fronts, o)
	if err != nil {
		return nil, err
	}
	s.Interrupted = interrupted
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, err
	}
	return s, writeFileAtomic(filepath.Join(t.Dir, SummaryJSON), append(b, '\n'))
}

// checkPolicyList checks the policies of a comparison: at least one, each
// a tunable policy (not a reference), none twice.
func checkPolicyList(policies []string) error {
	if len(policies) == 0 {
		return errors.New("tuner: no policies to tune")
	}
	seen := map[string]bool{}
	for _, p := range policies {
		spec, err := policy.Lookup(p)
		if err != nil {
			return err
		}
		if spec.Clairvoyant || p == scoring.AlwaysOn {
			return fmt.Errorf("tuner: policy %s is a reference (always-on, the oracle), compared with every tuned policy already", p)
		}
		if seen[p] {
			return fmt.Errorf("tuner: policy %s named twice", p)
		}
		seen[p] = true
	}
	return nil
}

// summarizePolicies builds the summary from the runs' run.json and fronts.
func summarizePolicies(metas []*RunMeta, fronts []*Front, o Options) (*PoliciesSummary, error) {
	s := &PoliciesSummary{Seed: o.Settings.Seed, Policies: []PolicySummary{}, References: map[string]Pair{}}
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
func hindsightPick(ch PresetChoice, sols []Solution, spec policy.Spec) *HindsightPick {
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

// fillHindsight records the hindsight members of a kept run written
// before they were (run.PresetChoice.HindsightRow), from its front's test
// scores alone: no replay. The presets are o's, which resumeRun found
// to be the run's.
func fillHindsight(m *RunMeta, f *Front, o Options) error {
	ao, ok := m.References[scoring.AlwaysOn]
	if !ok || ao.Test == nil {
		return nil
	}
	o, err := o.withDefaults()
	if err != nil {
		return err
	}
	for k := range m.Presets {
		ch := &m.Presets[k]
		i := slices.IndexFunc(o.Presets, func(p pick.Preset) bool { return p.Name == ch.Name })
		if ch.HindsightRow != nil || ch.Row < 0 || i < 0 {
			continue
		}
		if err := o.Presets[i].Hindsight(ch, f.Solutions, f.Objectives, ao.Test); err != nil {
			return err
		}
	}
	return nil
}
