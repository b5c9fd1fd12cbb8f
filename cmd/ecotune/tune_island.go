package main

import (
	"encoding/json"
	"fmt"
	"github.com/ecotune/ecotune/docs/help"

	"github.com/urfave/cli/v2"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/internal/interrupt"
	"github.com/ecotune/ecotune/reports"
	"github.com/ecotune/ecotune/tuner"
)

// tuneSubcommands are `tune island`, `tune merge` and `tune status`.
func tuneSubcommands() []*cli.Command {
	return []*cli.Command{
		{
			Name:        "island",
			Usage:       "run one island of a distributed run (a Slurm array task, or a local process)",
			UsageText:   "ecotune tune island DIR --index I [--workers N]",
			ArgsUsage:   "DIR",
			Description: help.Text("tune-island"),
			Flags: []cli.Flag{
				&cli.IntFlag{Name: "index", Value: -1, Usage: "the island, 0..N-1 ($SLURM_ARRAY_TASK_ID)"},
				&cli.IntFlag{Name: "workers", Usage: "parallel simulations (default: GOMAXPROCS)"},
			},
			Action: runTuneIsland,
		},
		{
			Name:        "merge",
			Usage:       "merge the islands of a distributed run into its front, presets and report",
			UsageText:   "ecotune tune merge DIR [--workers N] [--no-report] [--json]",
			ArgsUsage:   "DIR",
			Description: help.Text("tune-merge"),
			Flags: []cli.Flag{
				&cli.IntFlag{Name: "workers", Usage: "parallel simulations (default: GOMAXPROCS)"},
				&cli.BoolFlag{Name: "no-report", Usage: "do not write DIR/report"},
				&cli.BoolFlag{Name: "json", Usage: "print run.json instead of the paths"},
			},
			Action: runTuneMerge,
		},
		{
			Name:      "status",
			Usage:     "each island's generation, evaluations and hypervolume",
			UsageText: "ecotune tune status DIR [--json]",
			ArgsUsage: "DIR",
			Flags:     []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print one JSON object"}},
			Action:    runTuneStatus,
		},
	}
}

// planOf reads the plan of the run directory that is the command's one
// argument, and its trace.
func planOf(c *cli.Context, name string) (string, *tuner.Plan, tuner.Options, error) {
	var o tuner.Options
	args, err := positionalArgs(c)
	if err != nil {
		return "", nil, o, err
	}
	if len(args) != 1 {
		return "", nil, o, usageErrorf(c, "want one run directory (DIR of 'ecotune tune --slurm -o DIR'), got %d arguments %q", len(args), args)
	}
	dir := args[0]
	p, err := tuner.ReadPlan(dir)
	if err != nil {
		return "", nil, o, fmt.Errorf("tune %s: %w", name, err)
	}
	var tr *datasets.Trace
	if p.TraceFile == "" {
		tr, err = datasets.Default()
	} else {
		tr, err = datasets.Open(p.TraceFile, datasets.ReadOptions{Format: p.TraceFormat, Lenient: p.TraceLenient})
	}
	if err != nil {
		return "", nil, o, fmt.Errorf("tune %s: the plan's trace: %w", name, err)
	}
	o, err = p.Options(tr, c.Int("workers"))
	if err != nil {
		return "", nil, o, fmt.Errorf("tune %s: %w", name, err)
	}
	return dir, p, o, nil
}

func runTuneIsland(c *cli.Context) error {
	dir, p, o, err := planOf(c, "island")
	if err != nil {
		return err
	}
	i := c.Int("index")
	if i < 0 || i >= p.Islands {
		return fmt.Errorf("tune island: --index %d: the plan has islands 0..%d", i, p.Islands-1)
	}
	ctx, stop := interrupt.Context(c.Context)
	defer stop()
	st, err := tuner.TuneIsland(ctx, p, o, dir, i, nil)
	if err != nil {
		return err
	}
	if st.Interrupted {
		fmt.Fprintf(c.App.ErrWriter, "island %d interrupted after generation %d; run the same command again to continue\n", i, st.Generation)
		return fmt.Errorf("tune island: island %d interrupted", i) // non-zero: the array's afterok must wait for a resumed run
	}
	_, err = fmt.Fprintf(c.App.Writer, "island %d: %d generations, %d evaluations, hypervolume %.4f\n", i, st.Generation, st.Evaluations, st.Hypervolume)
	return err
}

func runTuneMerge(c *cli.Context) error {
	dir, p, o, err := planOf(c, "merge")
	if err != nil {
		return err
	}
	out, err := tuner.Merge(c.Context, p, o, dir)
	if err != nil {
		return err
	}
	for _, m := range out.Meta.MissingIslands {
		fmt.Fprintf(c.App.ErrWriter, "island %d: %s\n", m.Island, m.Reason)
	}
	html := ""
	if !c.Bool("no-report") {
		if html, err = reports.Write(dir, reports.Options{Force: true}); err != nil {
			return fmt.Errorf("tune merge: the run is in %s, but its report failed: %w", dir, err)
		}
	}
	if c.Bool("json") {
		return json.NewEncoder(c.App.Writer).Encode(out.Meta)
	}
	warnInfeasible(c, out.Meta)
	if _, err := fmt.Fprintln(c.App.Writer, dir); err != nil {
		return err
	}
	if html != "" {
		_, err = fmt.Fprintln(c.App.Writer, html)
	}
	return err
}

func runTuneStatus(c *cli.Context) error {
	args, err := positionalArgs(c)
	if err != nil {
		return err
	}
	if len(args) != 1 {
		return usageErrorf(c, "want one run directory, got %d arguments %q", len(args), args)
	}
	s, err := reports.ReadRunStatus(args[0])
	if err != nil {
		return fmt.Errorf("tune status: %w", err)
	}
	if c.Bool("json") {
		return json.NewEncoder(c.App.Writer).Encode(s)
	}
	return reports.WriteRunStatus(c.App.Writer, s)
}
