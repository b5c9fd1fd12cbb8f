package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/ecotune/ecotune/docs/help"
	"runtime/debug"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/replay"
	"github.com/ecotune/ecotune/reports"
	"github.com/ecotune/ecotune/sim"
)

func simulateCommand() *cli.Command {
	return &cli.Command{
		Name:        "simulate",
		Usage:       "one replay of a trace under a policy, and its scores",
		UsageText:   "ecotune simulate [TRACE | --trace T] (--policy NAME [--set k=v ...] | --rules FILE) [--cluster FILE | --nodes N --slots-per-node S] [--model escs] [--scheduler easy|fcfs|conservative] [--period 60] [--timeline FILE] [--jobs FILE] [--json]",
		ArgsUsage:   traceArgsUsage,
		Description: help.Text("simulate") + "\n\nScores (objectives.All: name, better, unit, meaning):\n" + objectives.Help(),
		Flags: append(traceFlags(),
			&cli.StringFlag{Name: "policy", Aliases: []string{"p"}, Value: "always-on", Usage: "policy name (see `ecotune policies`)"},
			&cli.StringSliceFlag{Name: "set", Usage: "policy parameter `name=value` (repeatable)"},
			&cli.StringFlag{Name: "rules", Usage: "replay the exported rule set `FILE` instead of --policy/--set"},
			&cli.StringFlag{Name: "cluster", Usage: "cluster file (YAML or JSON)"},
			&cli.IntFlag{Name: "nodes", Usage: "uniform cluster of N nodes"},
			&cli.IntFlag{Name: "slots-per-node", Usage: "slots of each node with --nodes (default 1)"},
			&cli.StringFlag{Name: "model", Value: "escs", Usage: "built-in power model (" + strings.Join(sim.ModelNames(), ", ") + ")"},
			schedulerFlag(""),
			&cli.BoolFlag{Name: "use-run-time", Usage: "backfilling estimates jobs by their run time, not the requested time"},
			&cli.Int64Flag{Name: "period", Value: sim.DefaultPeriod, Usage: "decision cycle in seconds (0: at every event)"},
			&cli.Float64Flag{Name: "boot-fail", Usage: "probability that a boot fails"},
			&cli.Int64Flag{Name: "seed", Usage: "seed of boot failures and randomised policies"},
			&cli.StringFlag{Name: "timeline", Usage: "write the timeline to `FILE` (.csv or .parquet)"},
			&cli.StringFlag{Name: "jobs", Usage: "write one row per job to `FILE` (.csv or .parquet)"},
			&cli.BoolFlag{Name: "force", Usage: "replace an existing timeline or jobs file"},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object"},
		),
		Action: runSimulate,
	}
}

func runSimulate(c *cli.Context) error {
	// Collect often: the garbage of decoding the trace is small, the
	// simulator's jobs hold no pointers and a replay allocates little, so
	// this costs little and keeps the peak near what the jobs take.
	defer debug.SetGCPercent(debug.SetGCPercent(lowGCPercent))
	jobs, err := openJobs(c)
	if err != nil {
		return err
	}
	setup, err := simulateSetup(c, jobs.Meta)
	if err != nil {
		return err
	}
	res, err := replay.Run(c.Context, jobs, setup)
	if err != nil {
		return err
	}
	if c.Bool("json") {
		return json.NewEncoder(c.App.Writer).Encode(res)
	}
	return reports.WriteReplayText(c.App.Writer, &res)
}

// simulateSetup is the replay the flags ask for on a trace with meta.
func simulateSetup(c *cli.Context, meta datasets.Meta) (replay.Setup, error) {
	cluster, err := sim.ClusterSpec{File: c.String("cluster"), Nodes: c.Int("nodes"), SlotsPerNode: c.Int("slots-per-node"), Model: c.String("model")}.Resolve(meta)
	if err != nil {
		return replay.Setup{}, err
	}
	scheduler, period := c.String("scheduler"), c.Int64("period")
	var cfg policy.Config
	if path := c.String("rules"); path != "" {
		if c.IsSet("policy") || c.IsSet("set") {
			return replay.Setup{}, fmt.Errorf("simulate: --rules %s gives the policy and its parameters: leave out --policy and --set", path)
		}
		rs, err := policy.LoadRuleSet(path)
		if err != nil {
			return replay.Setup{}, err
		}
		var me *replay.ClusterMismatchError
		if cluster, err = replay.RulesCluster(rs, cluster); errors.As(err, &me) {
			return replay.Setup{}, fmt.Errorf("simulate: --rules %s was tuned for a cluster of %s nodes, the trace's cluster is %s nodes: replaying on another machine is not supported (give --cluster or --nodes/--slots-per-node matching the rule set, or tune on this trace)", path, me.RuleSet, me.Cluster)
		} else if err != nil {
			return replay.Setup{}, err
		}
		cfg = rs.Policy
		if !c.IsSet("period") {
			period = rs.Period
		}
		if p := rs.Provenance; !c.IsSet("scheduler") && p != nil && p.Scheduler != "" {
			scheduler = p.Scheduler
		}
	} else {
		spec, err := policy.Lookup(c.String("policy"))
		if err != nil {
			return replay.Setup{}, err
		}
		if cfg, err = policy.ParseSet(spec, c.StringSlice("set")); err != nil {
			return replay.Setup{}, fmt.Errorf("simulate: %w", err)
		}
	}
	cfg.Seed = c.Int64("seed")
	return replay.Setup{
		Trace: traceName(c, &datasets.Trace{Meta: meta}), Rules: c.String("rules"), Config: cfg, Cluster: cluster,
		Scheduler: scheduler, UseRunTime: c.Bool("use-run-time"), Period: period,
		BootFailProb: c.Float64("boot-fail"), Seed: c.Int64("seed"),
		Timeline: c.String("timeline"), JobsFile: c.String("jobs"), Force: c.Bool("force"), Breakdowns: c.Bool("json"),
	}, nil
}

// lowGCPercent is the GOGC of loading a trace for simulate and inspect.
const lowGCPercent = 10

// openJobs opens the trace named by --trace, or the embedded default. A
// Parquet trace streams (replay.ParquetJobs); a raw log is read whole (as
// Open reads it), and handed over once: the simulator keeps its own copy.
func openJobs(c *cli.Context) (replay.Jobs, error) {
	path := c.String("trace")
	if path != "" && c.String("format") == "" {
		isParquet, err := datasets.IsParquetFile(path)
		if err != nil {
			return replay.Jobs{}, err
		}
		if isParquet {
			return replay.ParquetJobs(path)
		}
	}
	tr, err := openTrace(c, path)
	if err != nil {
		return replay.Jobs{}, err
	}
	return replay.Jobs{Meta: tr.Meta, Count: len(tr.Jobs), Each: func(fn func([]datasets.Job) error) error {
		jobs := tr.Jobs
		tr.Jobs = nil // the simulator keeps its own copy
		return fn(jobs)
	}}, nil
}
