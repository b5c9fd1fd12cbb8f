package tuner_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/tuner"
	"github.com/ecotune/ecotune/tuner/scoring"
	"github.com/ecotune/ecotune/tuner/search"
	"github.com/ecotune/ecotune/tuner/summary"
)

// TestTuneSeeds: a comparison over seeds 3 and 4 is the two comparisons
// TunePolicies makes with those seeds, byte for byte, and seeds.json
// holds their figures: each seed's hypervolumes and picks as its
// summary.json has them, their mean, lowest and highest, and the count of
// seeds whose pick met its bound. Resuming keeps it; a seed deleted is
// run again to the same bytes.
func TestTuneSeeds(t *testing.T) {
	base := t.TempDir()
	policies := []string{"idle-timeout", "escs"}
	seeds := []int64{3, 4}
	tune := func(dir string, resume bool) *summary.SeedsSummary {
		t.Helper()
		o, tg := smallTune(t, dir)
		o.Settings.Generations = 2
		tg.Resume = resume
		s, err := tuner.TuneSeeds(context.Background(), o, tg, policies, seeds)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	dir := filepath.Join(base, "seeds")
	s := tune(dir, false)
	if !slices.Equal(s.Seeds, seeds) || !slices.Equal(s.Dirs, []string{"seed-3", "seed-4"}) || s.Interrupted {
		t.Fatalf("seeds %v in %v (interrupted %v), want %v in seed-3, seed-4", s.Seeds, s.Dirs, s.Interrupted, seeds)
	}
	var per []*summary.PoliciesSummary
	for _, seed := range seeds {
		alone := filepath.Join(base, "alone", summary.SeedDir(seed))
		o, tg := smallTune(t, alone)
		o.Settings.Generations, o.Settings.Seed = 2, seed
		ps, err := tuner.TunePolicies(context.Background(), o, tg, policies)
		if err != nil {
			t.Fatal(err)
		}
		sameFiles(t, alone, filepath.Join(dir, summary.SeedDir(seed)), summary.SummaryJSON, "escs/front.csv", "idle-timeout/front.csv")
		per = append(per, ps)
	}
	if len(s.Policies) != len(policies) {
		t.Fatalf("%d policies summarised, want %d", len(s.Policies), len(policies))
	}
	for i, sp := range s.Policies {
		if sp.Policy != policies[i] {
			t.Errorf("policy %d is %s, want %s", i, sp.Policy, policies[i])
		}
		for _, split := range []string{"train", "test"} {
			a, b := per[0].Policies[i].Hypervolume[split], per[1].Policies[i].Hypervolume[split]
			checkSpread(t, sp.Policy+" "+split+" hypervolume", sp.Hypervolume[split], a, b)
		}
		for _, preset := range s.Presets {
			pk := sp.Picks[preset]
			feasible, hindFeasible := 0, 0
			var share, hind []float64
			for _, ps := range per {
				p := ps.Policies[i].Picks[preset]
				if *p.FeasibleTest {
					feasible++
				}
				if p.Hindsight.FeasibleTest {
					hindFeasible++
				}
				oracle := float64(ps.References[scoring.Oracle].Test.OffNodeSeconds)
				share = append(share, float64(p.Test.OffNodeSeconds)/oracle)
				hind = append(hind, float64(p.Hindsight.Test.OffNodeSeconds)/oracle)
			}
			if pk.HindsightFeasible == nil || *pk.HindsightFeasible != hindFeasible || pk.HindsightOffShare == nil {
				t.Errorf("%s %s: hindsight feasible on %v seeds, share %v; want %d seeds and a share", sp.Policy, preset, pk.HindsightFeasible, pk.HindsightOffShare, hindFeasible)
			} else {
				checkSpread(t, sp.Policy+" "+preset+" hindsight off share", *pk.HindsightOffShare, hind[0], hind[1])
			}
			if pk.Seeds != 2 || pk.FeasibleTest != feasible {
				t.Errorf("%s %s: feasible on test on %d of %d seeds, want %d of 2", sp.Policy, preset, pk.FeasibleTest, pk.Seeds, feasible)
			}
			if pk.TestOffShare == nil {
				t.Errorf("%s %s: no share of the oracle's test off-seconds", sp.Policy, preset)
				continue
			}
			checkSpread(t, sp.Policy+" "+preset+" off share", *pk.TestOffShare, share[0], share[1])
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, summary.SeedsJSON))
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"seeds"`, `"per_seed"`, `"mean"`, `"feasible_test"`, `"test_off_share_of_oracle"`,
		`"hindsight_test_off_share_of_oracle"`, `"hindsight_feasible_test"`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("seeds.json has no %s", key)
		}
	}

	// Resumed as it is, and with seed 4 deleted: the same bytes.
	copyDir := filepath.Join(base, "copy")
	if err := os.CopyFS(copyDir, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	tune(dir, true)
	sameFiles(t, copyDir, dir, summary.SeedsJSON)
	if err := os.RemoveAll(filepath.Join(dir, "seed-4")); err != nil {
		t.Fatal(err)
	}
	tune(dir, true)
	sameFiles(t, copyDir, dir, summary.SeedsJSON, "seed-4/summary.json", "seed-4/escs/front.csv")

	// Interrupted in seed 4's first policy: seeds.json covers seed 3
	// alone, marked interrupted; resumed, the same bytes again.
	cut := filepath.Join(base, "cut")
	o, tg := smallTune(t, cut)
	o.Settings.Generations = 2
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o.Settings.Recorders = []search.Recorder{cancelInSearch(3, cancel)}
	part, err := tuner.TuneSeeds(ctx, o, tg, policies, seeds)
	if err != nil {
		t.Fatal(err)
	}
	if !part.Interrupted || !slices.Equal(part.Seeds, seeds[:1]) || len(part.Policies[0].Hypervolume["test"].PerSeed) != 1 {
		t.Fatalf("interrupted in seed 4: interrupted %v, seeds %v, policies %+v; want seed 3 alone", part.Interrupted, part.Seeds, part.Policies)
	}
	tune(cut, true)
	sameFiles(t, copyDir, cut, summary.SeedsJSON, "seed-4/summary.json", "seed-4/idle-timeout/front.csv")
}

// checkSpread checks s against the values of two seeds.
func checkSpread(t *testing.T, what string, s summary.Spread, a, b float64) {
	t.Helper()
	if !slices.Equal(s.PerSeed, []float64{a, b}) || s.Min != min(a, b) || s.Max != max(a, b) || math.Abs(s.Mean-(a+b)/2) > 1e-12 {
		t.Errorf("%s: %+v, want per seed [%g %g], mean %g, min %g, max %g", what, s, a, b, (a+b)/2, min(a, b), max(a, b))
	}
}

// TuneSeeds refuses no seed, a seed named twice and a policy it cannot
// tune before writing anything.
func TestTuneSeedsRefuses(t *testing.T) {
	for _, tc := range []struct {
		policies []string
		seeds    []int64
		want     string
	}{
		{[]string{"idle-timeout"}, nil, "no seeds"},
		{[]string{"idle-timeout"}, []int64{1, 2, 1}, "seed 1 named twice"},
		{[]string{"idle-timeout", "oracle"}, []int64{1, 2}, "oracle is a reference"},
		{[]string{"nope"}, []int64{1, 2}, "nope"},
	} {
		dir := filepath.Join(t.TempDir(), "seeds")
		o, tg := smallTune(t, dir)
		_, err := tuner.TuneSeeds(context.Background(), o, tg, tc.policies, tc.seeds)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("seeds %v: error %v, want %q", tc.seeds, err, tc.want)
		}
		if _, err := os.Stat(dir); err == nil {
			t.Errorf("seeds %v: %s was made", tc.seeds, dir)
		}
	}
}
