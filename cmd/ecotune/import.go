package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/ecotune/ecotune/datasets"
)

const importHelp = `Reads one or more accounting logs and writes them as one canonical trace:
Parquet (zstd), jobs sorted by submit time, the trace's metadata (machine
size, time zone, sources with their SHA-256, counts of skipped and adjusted
records) in the file's key-value metadata.

The format of each log is detected from its content; --format forces one
(swf, gwf, slurm, pbs, sge, uge, lsf, oar, argonne). Gzip files are read
directly. Logs of any length import in bounded memory.

A record that cannot be read stops the import with an error naming the file,
the line and the field, and no output is written; with --lenient such
records are skipped and counted by reason (shown by "ecotune inspect").
Doubtful jobs follow one documented rule each (see package datasets):
unknown run time or processors, or more processors than the machine, are
dropped and counted; zero run times are kept.

The output is written to a temporary file and renamed; an existing file is
replaced only with --force. Ctrl-C (or SIGTERM) stops the import and
removes its temporary files; an import killed outright leaves them, and
the next import into the same directory removes them.

Examples:
  ecotune import SDSC-SP2-1998-4.2-cln.swf.gz -o sp2.parquet
  ecotune import sacct-2024-*.log --format slurm --lenient -o cluster.parquet`

func importCommand() *cli.Command {
	return &cli.Command{
		Name:        "import",
		Usage:       "convert accounting logs into a canonical Parquet trace",
		UsageText:   "ecotune import LOG... -o TRACE.parquet [--format F] [--lenient] [--force]",
		Description: importHelp,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "the Parquet trace to write (required)"},
			&cli.StringFlag{Name: "format", Usage: "force the log format (swf, gwf, slurm, pbs, sge, uge, lsf, oar, argonne)"},
			&cli.BoolFlag{Name: "lenient", Usage: "skip unreadable records, counting them by reason"},
			&cli.BoolFlag{Name: "force", Usage: "replace an existing output"},
		},
		Action: runImport,
	}
}

func runImport(c *cli.Context) error {
	logs, err := positionalArgs(c)
	if err != nil {
		return err
	}
	if err := requireFlags(c, "output"); err != nil {
		return err
	}
	if len(logs) == 0 {
		return fmt.Errorf("import: no log given (usage: %s)", c.Command.UsageText)
	}
	out := c.String("output")
	ctx, stop := interruptible(c.Context)
	defer stop()
	meta, err := datasets.ImportContext(ctx, logs, out, datasets.ImportOptions{
		ReadOptions: datasets.ReadOptions{Format: c.String("format"), Lenient: c.Bool("lenient")},
		Force:       c.Bool("force"),
	})
	if err != nil {
		return interrupted(ctx, "import", err)
	}
	if !c.Bool("quiet") {
		fmt.Fprintf(c.App.ErrWriter, "%s: %s\n", out, datasets.Summary(meta))
	}
	return nil
}
