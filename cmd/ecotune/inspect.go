package main

import (
	"encoding/json"
	"github.com/ecotune/ecotune/docs/help"

	"github.com/urfave/cli/v2"

	"github.com/ecotune/ecotune/datasets"
)

func inspectCommand() *cli.Command {
	return &cli.Command{
		Name:        "inspect",
		Usage:       "what is in a trace",
		UsageText:   "ecotune inspect [TRACE] [--json] [--format F] [--lenient]",
		ArgsUsage:   traceArgsUsage,
		Description: help.Text("inspect"),
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
