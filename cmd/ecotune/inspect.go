package main

import (
	"encoding/json"

	"github.com/urfave/cli/v2"

	"github.com/ecotune/ecotune/datasets"
)

const inspectHelp = `Shows what is in a trace: jobs, span, machine size, the utilization the
log implies (Σ procs × run / (machine procs × span)), arrivals by hour of
day and day of week (local time of the trace), quantiles of job size and
run time, how many jobs lack each field, and the records skipped or
adjusted at import, by reason. For logs that name the hosts jobs ran on
(Slurm, PBS/TORQUE, SGE/UGE) it shows the node layout: the hosts grouped
by slots per node, as host lists ("4 × 32 slots: cn[01-04]").

TRACE is a Parquet trace or any raw log (imported on the fly); without it
the embedded default trace is shown. --json prints one JSON object with at
least the keys jobs, nodes, procs, span_s, utilization and skipped, and
layout (a list of {slots, count, hosts}) when the trace has one.

Examples:
  ecotune inspect
  ecotune inspect sp2.parquet --json
  ecotune inspect SDSC-SP2-1998-4.2-cln.swf.gz`

func inspectCommand() *cli.Command {
	return &cli.Command{
		Name:        "inspect",
		Usage:       "what is in a trace",
		UsageText:   "ecotune inspect [TRACE] [--json] [--format F] [--lenient]",
		ArgsUsage:   traceArgsUsage,
		Description: inspectHelp,
		Flags: append(traceFlags(),
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object"},
		),
		Action: runInspect,
	}
}

func runInspect(c *cli.Context) error {
	stats, err := inspectTrace(c)
	if err != nil {
		return err
	}
	if c.Bool("json") {
		enc := json.NewEncoder(c.App.Writer)
		enc.SetIndent("", "  ")
		return enc.Encode(stats)
	}
	return stats.WriteText(c.App.Writer)
}

// inspectTrace computes the statistics of the trace named as traceArg
// names it: a Parquet trace streams (its jobs are never all in memory).
func inspectTrace(c *cli.Context) (*datasets.Stats, error) {
	path := c.String("trace")
	if path == "" {
		tr, err := datasets.Default()
		if err != nil {
			return nil, err
		}
		return datasets.Inspect(tr), nil
	}
	return datasets.InspectFile(path, readOptions(c))
}

// traceArg reads the trace named by the single positional argument, else
// by --trace, else the embedded default (strictArgs has bound the argument
// to --trace before the command runs).
func traceArg(c *cli.Context) (*datasets.Trace, error) {
	return loadTrace(c)
}
