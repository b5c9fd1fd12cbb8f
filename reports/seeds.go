package reports

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/tuner/summary"
)

// SeedsMarkdown is the report of `ecotune tune --policies … --seeds …` in
// its directory.
const SeedsMarkdown = "seeds.md"

// WriteSeedsRun writes what `ecotune tune --policies … --seeds …` writes
// after tuner.TuneSeeds: each seed's comparison (WritePoliciesRun, forced:
// a resumed seed rewrites its earlier report) in dir/seed-S, then
// dir/seeds.md (SeedsText). It returns seeds.md's path; an error names the
// seed or the summary that failed.
func WriteSeedsRun(dir string, s *summary.SeedsSummary, force bool) (string, error) {
	root, err := run.OpenRoot(dir)
	if err != nil {
		return "", fmt.Errorf("reports: %w", err)
	}
	defer root.Close()
	for i, seed := range s.Seeds {
		if err := writeSeed(root, s.Dirs[i]); err != nil {
			return "", fmt.Errorf("seed %d: %w", seed, err)
		}
	}
	if err := writeFile(root, SeedsMarkdown, []byte(SeedsText(s)), force); err != nil {
		return "", fmt.Errorf("the comparisons are in %s, but the summary failed: %w", dir, err)
	}
	return root.Join(SeedsMarkdown), nil
}

// writeSeed writes the reports of the seed directory name beneath root
// (refused if it is a symbolic link).
func writeSeed(root *run.Root, name string) error {
	sub, err := root.Sub(name)
	if err != nil {
		return err
	}
	defer sub.Close()
	var ps summary.PoliciesSummary
	if err := sub.ReadJSON(summary.SummaryJSON, &ps); err != nil {
		return err
	}
	_, err = writePoliciesRun(sub, &ps, true)
	return err
}

// SeedsText is the Markdown of a comparison over seeds: the policies by
// mean test hypervolume, each with its spread across the seeds; whether
// the seeds tell each policy apart from the next one down; and each
// preset's picks on the test split.
func SeedsText(s *summary.SeedsSummary) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Tuned policies compared over seeds\n\nTrace %s (sha256 %.12s), split %s, scheduler %s, seeds %s (one comparison each: %s).\n",
		s.Trace, s.TraceSHA256, s.Split, s.Scheduler, seedList(s.Seeds), strings.Join(s.Dirs, ", "))
	if s.Interrupted {
		b.WriteString("\nInterrupted: only the seeds listed, those finished before the interruption, are summarised (continue with --resume).\n")
	}
	b.WriteString("\nHypervolume in each split's fixed box, in [0, 1]; mean over the seeds, then the lowest and the highest.\n\n")
	b.WriteString("| policy | test HV mean | test HV min–max | per seed | train HV mean |\n|---|---|---|---|---|\n")
	ranked := rankByTestHV(s.Policies)
	for _, p := range ranked {
		te, tr := p.Hypervolume["test"], p.Hypervolume["train"]
		fmt.Fprintf(&b, "| %s | %s | %s–%s | %s | %s |\n", p.Policy, num(te.Mean), num(te.Min), num(te.Max), numList(te.PerSeed), num(tr.Mean))
	}
	if len(ranked) > 1 && len(s.Seeds) > 1 {
		b.WriteString("\n")
		for i := 0; i+1 < len(ranked); i++ {
			b.WriteString(apartText(ranked[i], ranked[i+1]) + "\n")
		}
	}
	b.WriteString("\nEach preset's pick is chosen on the train split of each seed's run; feasible: the seeds whose pick meets the preset's bound on that split. off % oracle: the pick's test off-node-seconds as a share of the oracle's. hindsight: the same for the front member the preset would have chosen on the test split, and on how many seeds it meets the bound there: what the fronts offered a choice made on train; a pick close to it lost little in the choosing.\n")
	for _, preset := range s.Presets {
		fmt.Fprintf(&b, "\n## Preset %s\n\n", preset)
		b.WriteString("| policy | feasible on train | feasible on test | test qos_p90 mean (min–max) | test off % oracle mean (min–max) | hindsight off % oracle mean (min–max) | hindsight feasible on test |\n|---|---|---|---|---|---|---|\n")
		for _, p := range s.Policies {
			pk, ok := p.Picks[preset]
			if !ok {
				continue
			}
			fmt.Fprintf(&b, "| %s | %d of %d | %d of %d | %s | %s | %s | %s |\n", p.Policy, pk.FeasibleTrain, pk.Seeds, pk.FeasibleTest, pk.Seeds,
				spreadText(pk.TestQoSP90, num), spreadText(pk.TestOffShare, percent), spreadText(pk.HindsightOffShare, percent), ofSeeds(pk.HindsightFeasible, pk.Seeds))
		}
	}
	return b.String()
}

// rankByTestHV returns the policies with a test hypervolume, highest mean
// first (ties in the given order).
func rankByTestHV(ps []summary.SeedsPolicy) []summary.SeedsPolicy {
	var out []summary.SeedsPolicy
	for _, p := range ps {
		if _, ok := p.Hypervolume["test"]; ok {
			out = append(out, p)
		}
	}
	slices.SortStableFunc(out, func(a, b summary.SeedsPolicy) int {
		return cmp.Compare(b.Hypervolume["test"].Mean, a.Hypervolume["test"].Mean)
	})
	return out
}

// apartText says whether the seeds tell policy a (the higher mean test
// hypervolume) apart from b: only when a's lowest seed is above b's
// highest.
func apartText(a, b summary.SeedsPolicy) string {
	ha, hb := a.Hypervolume["test"], b.Hypervolume["test"]
	gap := ha.Mean - hb.Mean
	if ha.Min > hb.Max {
		return fmt.Sprintf("- %s is ahead of %s on every seed: its lowest test HV %s is above the other's highest %s (means %s apart).",
			a.Policy, b.Policy, num(ha.Min), num(hb.Max), num(gap))
	}
	return fmt.Sprintf("- %s and %s are not told apart by these seeds: their means are %s apart, their test HVs overlap (%s–%s and %s–%s).",
		a.Policy, b.Policy, num(gap), num(ha.Min), num(ha.Max), num(hb.Min), num(hb.Max))
}

// spreadText formats s as "mean (min–max)" with f, or "" when absent.
func spreadText(s *summary.Spread, f func(float64) string) string {
	if s == nil {
		return ""
	}
	return fmt.Sprintf("%s (%s–%s)", f(s.Mean), f(s.Min), f(s.Max))
}

// percent formats a share as a percentage with one decimal.
func percent(x float64) string { return strconv.FormatFloat(100*x, 'f', 1, 64) + " %" }

func numList(xs []float64) string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = num(x)
	}
	return strings.Join(out, ", ")
}

func seedList(seeds []int64) string {
	out := make([]string, len(seeds))
	for i, s := range seeds {
		out[i] = strconv.FormatInt(s, 10)
	}
	return strings.Join(out, ", ")
}

// ofSeeds is "n of seeds", or empty when n is not known (nil).
func ofSeeds(n *int, seeds int) string {
	if n == nil {
		return ""
	}
	return fmt.Sprintf("%d of %d", *n, seeds)
}
