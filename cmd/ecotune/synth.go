package main

import (
	"fmt"
	"github.com/ecotune/ecotune/docs/help"

	"github.com/urfave/cli/v2"

	"github.com/ecotune/ecotune/datasets"
)

func synthCommand() *cli.Command {
	return &cli.Command{
		Name:        "synth",
		Usage:       "synthetic Lublin–Feitelson workload",
		UsageText:   "ecotune synth --jobs N --nodes N [--seed S] [--typeless] -o OUT.parquet|OUT.swf[.gz] [--force]",
		Description: help.Text("synth"),
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "jobs", Value: 10000, Usage: "number of jobs"},
			&cli.IntFlag{Name: "nodes", Value: 128, Usage: "machine size in nodes (one processor each)"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "random seed"},
			&cli.BoolFlag{Name: "typeless", Usage: "one job type (the model's whole-sample parameters)"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "output: .parquet, .swf or .swf.gz (required)"},
			&cli.BoolFlag{Name: "force", Usage: "replace an existing output"},
		},
		Action: runSynth,
	}
}

func runSynth(c *cli.Context) error {
	args, err := positionalArgs(c)
	if err != nil {
		return err
	}
	if len(args) > 0 {
		return usageErrorf(c, "unexpected arguments %q", args)
	}
	if err := requireFlags(c, "output"); err != nil {
		return err
	}
	out := c.String("output")
	ctx := c.Context // the first signal cancels it (onInterrupt)
	meta, err := datasets.WriteSynthContext(ctx, out, datasets.SynthOptions{
		Jobs: c.Int("jobs"), Nodes: c.Int("nodes"), Seed: c.Uint64("seed"), Typeless: c.Bool("typeless"),
	}, c.Bool("force"))
	if err != nil {
		return interrupted(ctx, "synth", err)
	}
	if !c.Bool("quiet") {
		fmt.Fprintf(c.App.ErrWriter, "%s: %d jobs, %s\n", out, c.Int("jobs"), meta.Name)
	}
	return nil
}
