package main

import (
	"encoding/json"
	"fmt"
	"github.com/ecotune/ecotune/docs/help"

	"github.com/urfave/cli/v2"

	"github.com/ecotune/ecotune/reports"
)

func reportCommand() *cli.Command {
	return &cli.Command{
		Name:        "report",
		Usage:       "HTML, Markdown and CSV report of a run, with plots and a Paraver trace",
		UsageText:   "ecotune report RUN_DIR [--pick PRESET|ROW] [--from T] [--to T] [-o DIR] [--force] [--json]",
		ArgsUsage:   "RUN_DIR",
		Description: help.Text("report"),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "pick", Usage: "preset name or front row (default: first feasible preset)"},
			&cli.StringFlag{Name: "from", Usage: "start of the timeline window"},
			&cli.StringFlag{Name: "to", Usage: "end of the timeline window"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "report directory (default RUN_DIR/report)"},
			&cli.BoolFlag{Name: "force", Usage: "overwrite an existing report"},
			&cli.BoolFlag{Name: "no-timeline", Usage: "skip the re-simulation (no timelines, no Paraver trace)"},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object with the report's path"},
		},
		Action: runReport,
	}
}

func runReport(c *cli.Context) error {
	args, err := positionalArgs(c)
	if err != nil {
		return err
	}
	if len(args) != 1 {
		return usageErrorf(c, "want one RUN_DIR, got %d arguments %q", len(args), args)
	}
	from, err := reports.ParseTime(c.String("from"))
	if err != nil {
		return err
	}
	to, err := reports.ParseTime(c.String("to"))
	if err != nil {
		return err
	}
	path, err := reports.Write(args[0], reports.Options{
		Pick: c.String("pick"), From: from, To: to, OutDir: c.String("output"),
		Force: c.Bool("force"), NoTimeline: c.Bool("no-timeline"),
	})
	if err != nil {
		return err
	}
	if c.Bool("json") {
		return json.NewEncoder(c.App.Writer).Encode(map[string]string{"html": path})
	}
	fmt.Fprintln(c.App.Writer, path)
	return nil
}
