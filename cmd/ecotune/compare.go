package main

import (
	"encoding/json"
	"github.com/ecotune/ecotune/docs/help"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/reports"
	"github.com/ecotune/ecotune/sim"
	"github.com/ecotune/ecotune/tuner"
)

func compareCommand() *cli.Command {
	return &cli.Command{
		Name:        "compare",
		Usage:       "baseline policies side by side on one trace",
		UsageText:   "ecotune compare [TRACE | --trace T] [--policies a,b,...] [--run RUN_DIR] [--sweep name=a:b:step] [--cluster F | --nodes N] [--scheduler easy|fcfs|conservative] [--json|--csv|--markdown]",
		ArgsUsage:   traceArgsUsage,
		Description: help.Text("compare"),
		Flags: append(traceFlags(),
			&cli.StringFlag{Name: "policies", Usage: "comma-separated policies (default: every policy)"},
			&cli.StringFlag{Name: "run", Usage: "compare the references and presets of this run directory"},
			&cli.StringFlag{Name: "sweep", Usage: "run one parameter over a range: name=from:to:step"},
			&cli.StringFlag{Name: "cluster", Usage: "cluster file (YAML or JSON; default: the trace header's, or the run's)"},
			&cli.IntFlag{Name: "nodes", Usage: "uniform cluster of N nodes"},
			&cli.IntFlag{Name: "slots-per-node", Usage: "slots of each node with --nodes (default 1)"},
			&cli.StringFlag{Name: "model", Value: "escs", Usage: "built-in power model (" + strings.Join(sim.ModelNames(), ", ") + ")"},
			schedulerFlag("; with --run, the run's unless given"),
			&cli.Int64Flag{Name: "period", Value: sim.DefaultPeriod, Usage: "decision cycle in seconds"},
			&cli.IntFlag{Name: "workers", Usage: "parallel simulations (default: GOMAXPROCS)"},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object"},
			&cli.BoolFlag{Name: "csv", Usage: "print CSV"},
			&cli.BoolFlag{Name: "markdown", Usage: "print a Markdown table (the default)"},
		),
		Action: runCompare,
	}
}

func runCompare(c *cli.Context) error {
	if n := countTrue(c.Bool("json"), c.Bool("csv"), c.Bool("markdown")); n > 1 {
		return usageErrorf(c, "--json, --csv and --markdown exclude each other")
	}
	var run *reports.Run
	if dir := c.String("run"); dir != "" {
		var err error
		if run, err = reports.LoadRun(dir); err != nil {
			return err
		}
	}
	entries, err := compareEntries(c, run)
	if err != nil {
		return err
	}
	tr, err := compareTrace(c, run)
	if err != nil {
		return err
	}
	cluster, scheduler, err := compareCluster(c, run, tr)
	if err != nil {
		return err
	}
	cmp, err := reports.Compare(tr, cluster, entries, reports.CompareOptions{
		Sim: sim.Options{Scheduler: scheduler, Period: c.Int64("period")}, Workers: c.Int("workers")})
	if err != nil {
		return err
	}
	return writeComparison(c, cmp)
}

// compareEntries are the configurations to replay: --policies (or the
// run's picks), each swept by --sweep.
func compareEntries(c *cli.Context, run *reports.Run) ([]reports.Entry, error) {
	entries, err := reports.CompareEntries(splitList(c.String("policies")), run)
	if err != nil {
		return nil, err
	}
	s := c.String("sweep")
	if s == "" {
		return entries, nil
	}
	sw, err := reports.ParseSweep(s)
	if err != nil {
		return nil, err
	}
	return sw.Entries(entries)
}

// compareCluster is the cluster and scheduler to replay on: the flags', or
// the run's where the flags leave them out.
func compareCluster(c *cli.Context, run *reports.Run, tr *datasets.Trace) (sim.Cluster, string, error) {
	cluster, err := sim.ClusterSpec{File: c.String("cluster"), Nodes: c.Int("nodes"),
		SlotsPerNode: c.Int("slots-per-node"), Model: c.String("model")}.Resolve(tr.Meta)
	if err != nil {
		return cluster, "", err
	}
	scheduler := c.String("scheduler")
	if run == nil {
		return cluster, scheduler, nil
	}
	if !c.IsSet("cluster") && !c.IsSet("nodes") {
		if cluster, err = tuner.ClusterOf(run.Meta); err != nil {
			return cluster, "", err
		}
	}
	if !c.IsSet("scheduler") {
		scheduler = run.Meta.Scheduler
	}
	return cluster, scheduler, nil
}

// writeComparison prints cmp as JSON, CSV or (the default) Markdown.
func writeComparison(c *cli.Context, cmp *reports.Comparison) error {
	switch {
	case c.Bool("json"):
		return json.NewEncoder(c.App.Writer).Encode(cmp)
	case c.Bool("csv"):
		b, err := cmp.CSV()
		if err != nil {
			return err
		}
		_, err = c.App.Writer.Write(b)
		return err
	}
	_, err := c.App.Writer.Write(cmp.Markdown())
	return err
}

// compareTrace is --trace, else the run's trace, else the embedded one.
func compareTrace(c *cli.Context, run *reports.Run) (*datasets.Trace, error) {
	if run != nil && !c.IsSet("trace") {
		return reports.LoadRunTrace(run.Meta)
	}
	return loadTrace(c)
}

func countTrue(bs ...bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// splitList splits a comma-separated flag value, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
