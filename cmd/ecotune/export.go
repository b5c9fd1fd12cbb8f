package main

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/reports"
)

const exportHelp = `Writes the rule-set file of one solution of a run: the policy and its
parameters (and fuzzy rules), the cluster it was tuned for and where it
came from (trace and its sha256, split, objectives on train and test, seed,
version). The file is validated before it is written; a daemon, or
"ecotune decide --rules", loads it.

--pick names a preset of the run (qos0, qos0.1, qos0.5, rel10, knee, ...)
or a row of its front. A preset pick that misses its bound on the train or
the test split is refused unless --force (which also overwrites); the rule
set records the pick's feasibility on each split (provenance.feasibility). --slurm also prints the slurm.conf power-saving lines the
solution maps to (idle-timeout solutions: SuspendTime, SuspendRate,
ResumeRate, ResumeTimeout, SuspendTimeout, SuspendExcNodes), followed by
comment lines saying what Slurm cannot express.

Example:
  ecotune export runs/nasa --pick qos0.1 -o rules.json --slurm`

func exportCommand() *cli.Command {
	return &cli.Command{
		Name:        "export",
		Usage:       "the rule set of a chosen solution, for a daemon (and slurm.conf lines)",
		UsageText:   "ecotune export RUN_DIR --pick PRESET|ROW -o rules.json [--slurm] [--force] [--json]",
		Description: exportHelp,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "pick", Usage: "preset name or front row (required)"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "rule-set file to write (required)"},
			&cli.BoolFlag{Name: "slurm", Usage: "also print the slurm.conf power-saving lines"},
			&cli.BoolFlag{Name: "force", Usage: "overwrite an existing file; export an infeasible preset pick"},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object (path, rule set, slurm)"},
		},
		Action: runExport,
	}
}

func runExport(c *cli.Context) error {
	args, err := positionalArgs(c)
	if err != nil {
		return err
	}
	if len(args) != 1 {
		return errors.New("export: want one RUN_DIR")
	}
	if err := requireFlags(c, "pick", "output"); err != nil {
		return err
	}
	run, err := reports.LoadRun(args[0])
	if err != nil {
		return err
	}
	pick, err := run.Pick(c.String("pick"))
	if err != nil {
		return err
	}
	rs, err := reports.RuleSet(run, pick)
	if err != nil {
		return err
	}
	if why := pick.Infeasible(); why != "" {
		if !c.Bool("force") {
			return fmt.Errorf("export: preset %s of %s is infeasible: %s; pick another preset (rel10 is relative to always-on) or a row, or export it anyway with --force", pick.Label, run.Dir, why)
		}
		rs.Provenance.Feasibility.Forced = true
		fmt.Fprintf(c.App.ErrWriter, "export: warning: preset %s is infeasible (%s); exported because of --force, marked in the rule set\n", pick.Label, why)
	}
	out := c.String("output")
	if err := policy.WriteRuleSet(out, rs, c.Bool("force")); err != nil {
		return err
	}
	var slurm *reports.SlurmConfig
	if c.Bool("slurm") {
		s := reports.Slurm(rs)
		slurm = &s
	}
	if c.Bool("json") {
		return json.NewEncoder(c.App.Writer).Encode(map[string]any{"path": out, "rule_set": rs, "slurm": slurm})
	}
	fmt.Fprintf(c.App.ErrWriter, "wrote %s (%s, %s)\n", out, rs.Policy.Name, pick.Label)
	if slurm != nil {
		fmt.Fprintf(c.App.Writer, "# slurm.conf power saving for %s (%s), from %s\n", rs.Policy.Name, pick.Label, run.Dir)
		for _, l := range slurm.Lines {
			fmt.Fprintln(c.App.Writer, l)
		}
		fmt.Fprintln(c.App.Writer, "# What Slurm cannot express:")
		for _, u := range slurm.Unmapped {
			fmt.Fprintln(c.App.Writer, "#   "+u)
		}
	}
	return nil
}
