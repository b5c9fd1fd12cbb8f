package main

import (
	"fmt"
	"github.com/ecotune/ecotune/docs/help"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/ecotune/ecotune/datasets"
)

func importCommand() *cli.Command {
	return &cli.Command{
		Name:        "import",
		Usage:       "convert accounting logs into a canonical Parquet trace",
		UsageText:   "ecotune import LOG... -o TRACE.parquet [--format F] [--lenient] [--force] [--anonymize [--anonymize-key K]]",
		ArgsUsage:   "LOG...",
		Description: help.Text("import"),
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
