package tuner

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	rundir "github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/tuner/pick"
	"github.com/ecotune/ecotune/tuner/search"
)

// resumeRun says how TunePolicies and TuneWindows resume o's run in dir:
// resume it through Tune (resume true), keep it as it is (meta and front
// returned), or start it afresh (neither).
//
// A finished run is kept if it is o's: its checkpoint's fingerprint
// agrees with o on every field o alone decides (trace, split, policy,
// cluster, scheduler, simulator options, constraints, presets, robust
// evaluation, seed), or, without a checkpoint, its run.json names o's
// policy, seed, split and trace; a run that differs is refused, naming
// what differs (policy, seed, split or trace first; the fingerprint's
// other fields in a *rundir.MismatchError). But if its relative presets
// were checked on other train windows, loads or window aggregate than o
// asks for (PickWindows, PickLoads, PickAggregate, which are not part of
// the fingerprint), it resumes through Tune, which chooses the picks
// again at the cost of the front's replays on the test split and the
// check windows, not of a search; and if o's budget (generations,
// evaluations) goes further than the run went, Tune continues its
// search. A run that did not finish resumes from its checkpoint, or
// starts afresh without one.
//
// Why not keep every finished run, as before: a resume with another seed
// or trace kept the old runs under a summary claiming the new ones, and
// one with other pick checks kept the old picks.
func resumeRun(o Options, dir string) (resume bool, meta *RunMeta, front *Front, err error) {
	_, err = os.Stat(filepath.Join(dir, CheckpointJSON))
	hasCheckpoint := err == nil
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return false, nil, nil, err
	}
	m, err := finishedRun(dir)
	if err != nil || m == nil {
		return hasCheckpoint, nil, nil, err
	}
	if o, err = o.withDefaults(); err != nil {
		return false, nil, nil, err
	}
	if err := sameRun(m, o, dir); err != nil {
		return false, nil, nil, err
	}
	if hasCheckpoint {
		ck, err := search.ReadCheckpoint(dir)
		if err != nil {
			return false, nil, nil, err
		}
		want := o.fingerprint()
		want["seed"] = rundir.FingerprintValue(o.Settings.Seed)
		was := rundir.Fingerprint{}
		for k := range want {
			if v, ok := ck.Fields[k]; ok {
				was[k] = v
			}
		}
		if err := rundir.Check(ck.Path(), was, want); err != nil {
			return false, nil, nil, fmt.Errorf("tuner: %w", err)
		}
		if !samePickChecks(m, o) || !reachedBudget(m, o.Settings) {
			return true, nil, nil, nil
		}
	}
	meta, front, err = LoadRun(dir)
	return false, meta, front, err
}

// reachedBudget reports whether the finished run m went as far as s
// asks: its generations, or its evaluation budget. A run given a larger
// budget resumes through Tune, which continues its search.
func reachedBudget(m *RunMeta, s search.Settings) bool {
	return m.Generations >= s.Generations || (s.Evaluations > 0 && m.Evaluations >= s.Evaluations)
}

// samePickChecks reports whether m's relative presets were checked on
// the train windows and loads o asks for, with its window aggregate (a
// run that did not record one checked the mean).
func samePickChecks(m *RunMeta, o Options) bool {
	k, loads, agg := o.pickChecks().Resolved(m.TrainJobs)
	for _, ch := range m.Presets {
		if !ch.Relative || ch.Row < 0 {
			continue
		}
		was := ch.WindowAggregate
		if was == "" {
			was = pick.PickWindowMean
		}
		if ch.Windows != k || !slices.Equal(ch.Loads, loads) || k > 0 && was != agg {
			return false
		}
	}
	return true
}

// finishedRun reads dir's run.json when the run there finished, else
// returns nil.
func finishedRun(dir string) (*RunMeta, error) {
	var m RunMeta
	err := readJSON(filepath.Join(dir, RunJSON), &m)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, err
	case m.Interrupted:
		return nil, nil
	}
	return &m, nil
}

// sameRun checks that a finished run (a window, a policy of several) is
// the one o would run: its policy, seed, split and trace.
func sameRun(m *RunMeta, o Options, dir string) error {
	type id struct {
		Policy, Split, TraceSHA256 string
		Seed                       int64
	}
	want := id{o.Policy, o.Split.String(), traceDigest(o.Trace), o.Settings.Seed}
	got := id{m.Policy, m.Split.String(), m.TraceSHA256, m.Seed}
	if got != want {
		return fmt.Errorf("--resume: %s holds policy %s, seed %d, split %q of trace %.12s; this run tunes policy %s, seed %d, split %q of trace %.12s",
			filepath.Join(dir, RunJSON), got.Policy, got.Seed, got.Split, got.TraceSHA256, want.Policy, want.Seed, want.Split, want.TraceSHA256)
	}
	return nil
}
