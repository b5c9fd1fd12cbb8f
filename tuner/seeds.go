package tuner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"

	rundir "github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/tuner/summary"
)

// TuneSeeds runs the comparison of TunePolicies once per seed, each in
// t.Dir/seed-S (an ordinary comparison directory, with its
// summary.json), and writes t.Dir/seeds.json (summary.SeedsSummary). o's own seed
// is not used. With t.Resume, each seed's comparison resumes as
// TunePolicies does (a seed not started yet starts). Cancelling ctx stops
// the current seed's comparison (its directory keeps what it finished);
// the summary then covers the seeds finished before it and marks itself
// interrupted.
func TuneSeeds(ctx context.Context, o Options, t rundir.Target, policies []string, seeds []int64) (*summary.SeedsSummary, error) {
	if err := checkPolicyList(policies); err != nil {
		return nil, err
	}
	if len(seeds) == 0 {
		return nil, errors.New("tuner: no seeds")
	}
	for i, s := range seeds {
		if slices.Contains(seeds[:i], s) {
			return nil, fmt.Errorf("tuner: seed %d named twice", s)
		}
	}
	if err := t.Start(KindSeeds); err != nil {
		return nil, err
	}
	var runs []*summary.PoliciesSummary
	var cut *summary.PoliciesSummary // the seed interrupted
	for _, seed := range seeds {
		so, st := o, t
		so.Settings.Seed = seed
		so.Settings.Recorders = slices.Clip(o.Settings.Recorders)
		st, err := t.Beneath(summary.SeedDir(seed))
		if err != nil {
			return nil, err
		}
		st.Force = true // the parent was checked: empty, or --force
		if _, err := os.Stat(st.Dir); t.Resume && errors.Is(err, os.ErrNotExist) {
			st.Resume = false // not started yet
		}
		note(o.Monitor, "seed %d\n", seed)
		s, err := TunePolicies(ctx, so, st, policies)
		if err != nil {
			return nil, fmt.Errorf("tuner: seed %d: %w", seed, err)
		}
		if s.Interrupted {
			cut = s
			break
		}
		runs = append(runs, s)
	}
	s := summary.Seeds(runs, policies, cut)
	return s, summary.WriteSeeds(t.Dir, s)
}
