package main

import (
	"fmt"
	"os"

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

Logs that name the hosts jobs ran on (Slurm NodeList, PBS exec_host,
SGE/UGE hostname) give the trace a node layout: the hosts grouped by slots
per node as observed ("ecotune inspect" shows it, "ecotune cluster" turns
it into a cluster file).

--anonymize replaces users, groups, queues/partitions and node names with
keyed hashes (HMAC-SHA256, "u_3fa2c19d0b7e", "g_…", "q_…", "n_…") before
anything is written: the same key (--anonymize-key or ECOTUNE_ANON_KEY,
required) gives the same names in every import, another key other names.

The output is written to a temporary file and renamed; an existing file is
replaced only with --force. Ctrl-C (or SIGTERM) stops the import and
removes its temporary files; an import killed outright leaves them, and
the next import into the same directory removes them.

Examples:
  ecotune import SDSC-SP2-1998-4.2-cln.swf.gz -o sp2.parquet
  ecotune import sacct-2024-*.log --format slurm --lenient -o cluster.parquet
  ECOTUNE_ANON_KEY=site-secret ecotune import sacct.log --anonymize -o shared.parquet`

func importCommand() *cli.Command {
	return &cli.Command{
		Name:        "import",
		Usage:       "convert accounting logs into a canonical Parquet trace",
		UsageText:   "ecotune import LOG... -o TRACE.parquet [--format F] [--lenient] [--force] [--anonymize [--anonymize-key K]]",
		ArgsUsage:   "LOG...",
		Description: importHelp,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "the Parquet trace to write (required)"},
			&cli.StringFlag{Name: "format", Usage: "force the log format (swf, gwf, slurm, pbs, sge, uge, lsf, oar, argonne)"},
			&cli.BoolFlag{Name: "lenient", Usage: "skip unreadable records, counting them by reason"},
			&cli.BoolFlag{Name: "force", Usage: "replace an existing output"},
			&cli.BoolFlag{Name: "anonymize", Usage: "replace users, groups, queues and node names with keyed hashes"},
			&cli.StringFlag{Name: "anonymize-key", Usage: "secret key of --anonymize", EnvVars: []string{"ECOTUNE_ANON_KEY"}},
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
		return usageErrorf(c, "no log given")
	}
	out := c.String("output")
	var anon *datasets.Anonymizer
	if c.Bool("anonymize") {
		if anon, err = datasets.NewAnonymizer([]byte(c.String("anonymize-key"))); err != nil {
			return fmt.Errorf("import: %w", err)
		}
	} else if c.IsSet("anonymize-key") && c.String("anonymize-key") != os.Getenv("ECOTUNE_ANON_KEY") {
		// given on the command line, not only in the environment
		return fmt.Errorf("import: --anonymize-key without --anonymize")
	}
	ctx := c.Context // the first signal cancels it (onInterrupt)
	meta, err := datasets.ImportContext(ctx, logs, out, datasets.ImportOptions{
		ReadOptions: datasets.ReadOptions{Format: c.String("format"), Lenient: c.Bool("lenient")},
		Force:       c.Bool("force"),
		Anonymize:   anon,
	})
	if err != nil {
		return interrupted(ctx, "import", err)
	}
	if !c.Bool("quiet") {
		fmt.Fprintf(c.App.ErrWriter, "%s: %s\n", out, datasets.Summary(meta))
	}
	return nil
}
