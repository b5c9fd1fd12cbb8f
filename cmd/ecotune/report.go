package main

import (
	"encoding/json"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/ecotune/ecotune/reports"
)

const reportHelp = `Writes the report of a tuning run into RUN_DIR/report (or -o DIR): one
self-contained HTML file (plots embedded, readable offline), report.md and
report.csv (the holdout table), every plot as SVG, PNG and PDF (Pareto
fronts for each pair of objectives, train and test side by side, with the
references and presets marked; requested vs powered slots and node states
of the picked solution on the test split), and a Paraver trace
(solution.prv, .pcf, .row) of the picked solution's node states.

--pick chooses the solution re-simulated for the timelines (a preset or a
front row; default: the first feasible preset). --from/--to bound the
node-state window (Unix seconds, RFC 3339 or 2006-01-02[T15:04], UTC;
default: the first two days of the test split).

To check that the page renders offline in a browser:
  scripts/screenshot-report.sh RUN_DIR/report/report.html shot.png
(headless Chromium; Debian: apt-get install -y chromium).

Example:
  ecotune report runs/nasa --pick qos0.1 --from 1993-12-10 --to 1993-12-12`

func reportCommand() *cli.Command {
	return &cli.Command{
		Name:        "report",
		Usage:       "HTML, Markdown and CSV report of a run, with plots and a Paraver trace",
		UsageText:   "ecotune report RUN_DIR [--pick PRESET|ROW] [--from T] [--to T] [-o DIR] [--force] [--json]",
		ArgsUsage:   "RUN_DIR",
		Description: reportHelp,
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
