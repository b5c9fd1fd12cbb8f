package main

import (
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/sim"
)

// traceFlags are the flags of every command that reads a trace.
func traceFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "trace", Aliases: []string{"t"}, Usage: "trace: canonical Parquet or any supported raw log (default: the embedded trace)", EnvVars: []string{"ECOTUNE_TRACE"}},
		&cli.StringFlag{Name: "format", Usage: "force the raw log format (swf, gwf, slurm, pbs, sge, uge, lsf, oar, argonne)"},
		&cli.BoolFlag{Name: "lenient", Usage: "skip unreadable records, counting them"},
	}
}

// schedulerFlag is the --scheduler flag of every command that replays a
// trace; note adds to its usage.
func schedulerFlag(note string) cli.Flag {
	return &cli.StringFlag{Name: "scheduler", Value: sim.DefaultScheduler,
		Usage: "easy (backfilling, as real sites run), fcfs (strict first come, first served) or conservative (every queued job holds a reservation)" + note}
}

// loadTrace reads the trace named by --trace, or the embedded default.
func loadTrace(c *cli.Context) (*datasets.Trace, error) {
	return openTrace(c, c.String("trace"))
}

// openTrace reads the trace at path (Parquet or a raw log, read with the
// --format and --lenient flags), or the embedded default when path is "".
func openTrace(c *cli.Context, path string) (*datasets.Trace, error) {
	if path == "" {
		return datasets.Default()
	}
	return datasets.Open(path, readOptions(c))
}

// readOptions are the --format and --lenient flags.
func readOptions(c *cli.Context) datasets.ReadOptions {
	return datasets.ReadOptions{Format: c.String("format"), Lenient: c.Bool("lenient")}
}

// positionalArgs returns the command's positional arguments, applying the
// command's flags that follow them ("ecotune import A.swf B.swf -o t.parquet"):
// urfave/cli stops parsing flags at the first positional argument.
func positionalArgs(c *cli.Context) ([]string, error) {
	var args []string
	rest := c.Args().Slice()
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" {
			return append(args, rest[i+1:]...), nil
		}
		if len(a) < 2 || a[0] != '-' {
			args = append(args, a)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		flag := commandFlag(c.Command, name)
		if flag == nil {
			return nil, usageErrorf(c, "unknown flag %s", a)
		}
		if _, isBool := flag.(*cli.BoolFlag); isBool && !hasValue {
			value, hasValue = "true", true
		}
		if !hasValue {
			if i+1 == len(rest) {
				return nil, usageErrorf(c, "flag %s needs a value", a)
			}
			i++
			value = rest[i]
		}
		if err := c.Set(flag.Names()[0], value); err != nil {
			return nil, usageErrorf(c, "flag %s: %v", a, err)
		}
	}
	return args, nil
}

func commandFlag(cmd *cli.Command, name string) cli.Flag {
	for _, f := range cmd.Flags {
		for _, n := range f.Names() {
			if n == name {
				return f
			}
		}
	}
	return nil
}

// requireFlags fails when one of the named flags is unset; flags that may
// follow positional arguments cannot be marked Required in urfave/cli.
func requireFlags(c *cli.Context, names ...string) error {
	for _, n := range names {
		if !c.IsSet(n) {
			return usageErrorf(c, "--%s is required", n)
		}
	}
	return nil
}
