package main

import (
	"github.com/ecotune/ecotune/datasets"
	"github.com/urfave/cli/v2"
)

// traceFlags are the flags of every command that reads a trace.
func traceFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "trace", Aliases: []string{"t"}, Usage: "trace: canonical Parquet or any supported raw log (default: the embedded trace)", EnvVars: []string{"ECOTUNE_TRACE"}},
		&cli.StringFlag{Name: "format", Usage: "force the raw log format (swf, gwf, slurm, pbs, sge, uge, lsf, oar, argonne)"},
		&cli.BoolFlag{Name: "lenient", Usage: "skip unreadable records, counting them"},
	}
}

// loadTrace reads the trace named by --trace, or the embedded default.
func loadTrace(c *cli.Context) (*datasets.Trace, error) {
	path := c.String("trace")
	if path == "" {
		return datasets.Default()
	}
	return datasets.Open(path, datasets.ReadOptions{Format: c.String("format"), Lenient: c.Bool("lenient")})
}
