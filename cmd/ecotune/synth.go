package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/ecotune/ecotune/datasets"
)

const synthHelp = `Generates a synthetic workload from the Lublin–Feitelson model ("The
workload on parallel supercomputers: modeling the characteristics of rigid
jobs", JPDC 2003) with its published parameters: separate batch and
interactive arrival processes with a daily cycle, serial and power-of-two
job sizes scaled to --nodes, hyper-gamma run times correlated with size.
--typeless uses the parameters fitted to all jobs together (as the
archive's lublin_256 file). The same --seed gives the same jobs.

The output is SWF when its name ends in .swf (.swf.gz: compressed), else
a canonical Parquet trace; it is written as it is generated, so millions
of jobs take constant memory. Existing files are replaced only with --force.
Ctrl-C (or SIGTERM) stops it and removes the temporary output.

Examples:
  ecotune synth --jobs 100000 --nodes 256 --seed 1 -o lublin.parquet
  ecotune synth --jobs 10000000 --nodes 1024 -o big.swf.gz`

func synthCommand() *cli.Command {
	return &cli.Command{
		Name:        "synth",
		Usage:       "synthetic Lublin–Feitelson workload",
		UsageText:   "ecotune synth --jobs N --nodes N [--seed S] [--typeless] -o OUT.parquet|OUT.swf[.gz] [--force]",
		Description: synthHelp,
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
