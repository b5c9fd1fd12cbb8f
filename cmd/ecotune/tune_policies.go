package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/reports"
	"github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/tuner"
	"github.com/ecotune/ecotune/tuner/summary"
)

// seedList parses --seeds: comma-separated whole numbers.
func seedList(c *cli.Context) ([]int64, error) {
	seeds, err := summary.ParseSeeds(c.String("seeds"))
	if err != nil {
		return nil, fmt.Errorf("tune: --seeds %q: %w", c.String("seeds"), err)
	}
	return seeds, nil
}

// runSeeds is `tune --policies a,b,... --seeds 1,2,...`: the comparison
// once per seed, then their spread.
func runSeeds(ctx context.Context, c *cli.Context, o tuner.Options, t run.Target) error {
	seeds, err := seedList(c)
	if err != nil {
		return err
	}
	names := splitList(c.String("policies"))
	s, err := tuner.TuneSeeds(ctx, o, t, names, seeds)
	if err != nil {
		return err
	}
	md := ""
	if !c.Bool("no-report") {
		if md, err = reports.WriteSeedsRun(t.Dir, s, true); err != nil {
			return fmt.Errorf("tune: %w", err)
		}
	}
	if s.Interrupted {
		fmt.Fprintf(c.App.ErrWriter, "interrupted in seed %d (%d of %d); continue with: ecotune tune ... --policies %s --seeds %s -o %s --resume\n",
			seeds[len(s.Seeds)], len(s.Seeds)+1, len(seeds), c.String("policies"), c.String("seeds"), t.Dir)
	}
	return printSummary(c, s, filepath.Join(t.Dir, summary.SeedsJSON), md)
}

// printSummary prints what a comparison wrote: with --json the summary s
// itself, else the summary's path and the report's, md (if one was
// written).
func printSummary(c *cli.Context, s any, path, md string) error {
	if c.Bool("json") {
		return json.NewEncoder(c.App.Writer).Encode(s)
	}
	if _, err := fmt.Fprintln(c.App.Writer, path); err != nil {
		return err
	}
	if md == "" {
		return nil
	}
	_, err := fmt.Fprintln(c.App.Writer, md)
	return err
}

// runPolicies is `tune --policies a,b,...`: each policy tuned on the same
// split and budget, then compared.
func runPolicies(ctx context.Context, c *cli.Context, o tuner.Options, t run.Target) error {
	names := splitList(c.String("policies"))
	if err := policy.CheckTunable(names); err != nil {
		return err
	}
	s, err := tuner.TunePolicies(ctx, o, t, names)
	if err != nil {
		return err
	}
	md := ""
	if !c.Bool("no-report") {
		if md, err = reports.WritePoliciesRun(t.Dir, s, true); err != nil {
			return fmt.Errorf("tune: %w", err)
		}
	}
	if s.Interrupted {
		fmt.Fprintf(c.App.ErrWriter, "interrupted after %d of %d policies; continue with: ecotune tune ... --policies %s -o %s --resume\n", len(s.Policies), len(names), c.String("policies"), t.Dir)
	}
	return printSummary(c, s, filepath.Join(t.Dir, summary.SummaryJSON), md)
}
