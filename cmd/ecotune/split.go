package main

import (
	"fmt"
	"github.com/ecotune/ecotune/docs/help"
	"math"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/ecotune/ecotune/datasets"
)

func splitCommand() *cli.Command {
	return &cli.Command{
		Name:        "split",
		Usage:       "chronological train/test split or time window of a trace",
		UsageText:   "ecotune split [TRACE] --train 0.7 -o PREFIX [--by jobs|time] [--from T] [--to T] [--force]",
		ArgsUsage:   traceArgsUsage,
		Description: help.Text("split"),
		Flags: append(traceFlags(),
			&cli.Float64Flag{Name: "train", Usage: "share for training, in (0, 1)"},
			&cli.StringFlag{Name: "by", Value: "jobs", Usage: "split the share of jobs or of time"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "output prefix (required)"},
			&cli.StringFlag{Name: "from", Usage: "window start: Unix seconds, RFC 3339 or YYYY-MM-DD"},
			&cli.StringFlag{Name: "to", Usage: "window end (exclusive)"},
			&cli.BoolFlag{Name: "force", Usage: "replace existing outputs"},
		),
		Action: runSplit,
	}
}

func runSplit(c *cli.Context) error {
	tr, err := traceArg(c)
	if err != nil {
		return err
	}
	if err := requireFlags(c, "output"); err != nil {
		return err
	}
	opt := datasets.SplitOptions{Train: c.Float64("train"), By: c.String("by")}
	loc := tr.Meta.Location()
	if opt.From, err = optionalTime(c, "from", loc); err != nil {
		return err
	}
	if opt.To, err = optionalTime(c, "to", loc); err != nil {
		return err
	}
	prefix, force := c.String("output"), c.Bool("force")
	if !c.IsSet("train") {
		if !c.IsSet("from") && !c.IsSet("to") {
			return requireFlags(c, "train")
		}
		window := datasets.Window(tr, windowStart(opt.From, c.IsSet("from")), windowEnd(opt.To, c.IsSet("to")))
		return writeTraces(c, force, named{prefix + ".parquet", window})
	}
	train, test, err := datasets.Split(tr, opt)
	if err != nil {
		return err
	}
	return writeTraces(c, force, named{prefix + "-train.parquet", train}, named{prefix + "-test.parquet", test})
}

type named struct {
	path  string
	trace *datasets.Trace
}

// writeTraces writes each trace as Parquet, reporting each on stderr.
func writeTraces(c *cli.Context, force bool, traces ...named) error {
	for _, t := range traces {
		if err := datasets.WriteParquetFile(t.path, t.trace, force); err != nil {
			return err
		}
		if !c.Bool("quiet") {
			fmt.Fprintf(c.App.ErrWriter, "%s: %d jobs\n", t.path, len(t.trace.Jobs))
		}
	}
	return nil
}

// optionalTime reads a time flag (zero when unset).
func optionalTime(c *cli.Context, flag string, loc *time.Location) (int64, error) {
	if !c.IsSet(flag) {
		return 0, nil
	}
	v, err := datasets.ParseTime(c.String(flag), loc)
	if err != nil {
		return 0, fmt.Errorf("split: --%s: %w", flag, err)
	}
	return v, nil
}

func windowStart(v int64, set bool) int64 {
	if !set {
		return math.MinInt64
	}
	return v
}

func windowEnd(v int64, set bool) int64 {
	if !set {
		return math.MaxInt64
	}
	return v
}
