package tuner

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/ecotune/ecotune/policy"
	rundir "github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/tuner/pick"
	"github.com/ecotune/ecotune/tuner/scoring"
	"github.com/ecotune/ecotune/tuner/summary"
)

// TunePolicies tunes each policy in turn on o's split with o's settings
// and seed (the same budget), each an ordinary run in t.Dir/POLICY, and
// writes t.Dir/summary.json (summary.PoliciesSummary). With t.Resume, the
// finished runs are kept if they are o's (a run of other options is
// refused) and picked again if o's pick checks differ, and an interrupted
// one resumes (resumeRun). Cancelling ctx stops the current policy's run;
// the summary then lists the finished ones, marked interrupted.
func TunePolicies(ctx context.Context, o Options, t rundir.Target, policies []string) (*summary.PoliciesSummary, error) {
	if err := checkPolicyList(policies); err != nil {
		return nil, err
	}
	if t.Dir == "" {
		return nil, errors.New("tuner: no run directory")
	}
	if err := t.Start(KindPolicies); err != nil {
		return nil, err
	}
	var metas []*RunMeta
	var fronts []*Front
	interrupted := false
	for _, p := range policies {
		po := o
		po.Policy = p
		po.Settings.Recorders = slices.Clip(o.Settings.Recorders)
		pt, err := t.Beneath(p)
		if err != nil {
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
	s, err := summary.Policies(metas, fronts, o.Settings.Seed)
	if err != nil {
		return nil, err
	}
	s.Interrupted = interrupted
	return s, summary.WritePolicies(t.Dir, s)
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
