package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/ecotune/ecotune/daemon"
	"github.com/ecotune/ecotune/docs/help"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/reports"
	rundir "github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/slurm"
)

func exportCommand() *cli.Command {
	return &cli.Command{
		Name:        "export",
		Usage:       "the rule set of a chosen solution, for a daemon (and slurm.conf lines)",
		UsageText:   "ecotune export RUN_DIR --pick PRESET|ROW -o rules.json [--slurm] [--force] [--json]",
		ArgsUsage:   "RUN_DIR",
		Description: help.Text("export"),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "pick", Usage: "preset name or front row (required)"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "rule-set file to write (required)"},
			&cli.BoolFlag{Name: "slurm", Usage: "also print the slurm.conf power-saving lines"},
			&cli.StringFlag{Name: "nodes-map", Usage: "with --slurm: group → Slurm hostlist `FILE` (as for ecotune daemon)"},
			&cli.StringFlag{Name: "exclude", Usage: "with --slurm: Slurm `HOSTLIST` never powered down (SuspendExcNodes)"},
			&cli.StringFlag{Name: "suspend-program", Value: reports.DefaultSuspendProgram, Usage: "with --slurm: SuspendProgram `PATH`"},
			&cli.StringFlag{Name: "resume-program", Value: reports.DefaultResumeProgram, Usage: "with --slurm: ResumeProgram `PATH`"},
			&cli.StringFlag{Name: "slurm-version", Value: "22.05", Usage: "with --slurm: target Slurm `VERSION`"},
			&cli.Int64Flag{Name: "backstop", Value: 86400, Usage: "with --slurm: SuspendTime `SECONDS` when ecotune daemon drives shutdowns"},
			&cli.BoolFlag{Name: "force", Usage: "overwrite an existing file; export an infeasible preset pick, or a front.json that does not match run.json's front_sha256"},
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
		return usageErrorf(c, "want one RUN_DIR, got %d arguments %q", len(args), args)
	}
	if err := requireFlags(c, "pick", "output"); err != nil {
		return err
	}
	var opts reports.SlurmOptions
	if c.Bool("slurm") {
		if opts, err = slurmOptions(c); err != nil {
			return err
		}
	}
	switch recorded, err := rundir.CheckFrontSum(args[0]); {
	case err != nil && recorded && !c.Bool("force"):
		return fmt.Errorf("export: %w; export it anyway with --force", err)
	case err != nil && recorded:
		fmt.Fprintf(c.App.ErrWriter, "export: warning: %v; exported because of --force\n", err)
	case err == nil && !recorded:
		fmt.Fprintf(c.App.ErrWriter, "export: note: %s records no front_sha256 (written before it was): its front.json is not checked\n", args[0])
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
		s, err := reports.Slurm(rs, opts)
		if err != nil {
			return err
		}
		slurm = &s
	}
	if c.Bool("json") {
		return json.NewEncoder(c.App.Writer).Encode(map[string]any{"path": out, "rule_set": rs, "slurm": slurm})
	}
	fmt.Fprintf(c.App.ErrWriter, "wrote %s (%s, %s)\n", out, rs.Policy.Name, pick.Label)
	if slurm != nil {
		return slurm.WriteText(c.App.Writer, rs.Policy.Name, pick.Label, run.Dir)
	}
	return nil
}

// slurmOptions reads export's --slurm flags.
func slurmOptions(c *cli.Context) (reports.SlurmOptions, error) {
	o := reports.SlurmOptions{SuspendProgram: c.String("suspend-program"), ResumeProgram: c.String("resume-program"), Backstop: c.Int64("backstop")}
	v, err := slurm.ParseVersion(c.String("slurm-version"))
	if err != nil {
		return o, fmt.Errorf("--slurm-version: %w", err)
	}
	o.Version = v
	if o.Backstop < 1 {
		return o, fmt.Errorf("--backstop: %d, want at least 1 s", o.Backstop)
	}
	for _, p := range []string{o.SuspendProgram, o.ResumeProgram} {
		if !filepath.IsAbs(p) || strings.ContainsAny(p, " \t\n") {
			return o, fmt.Errorf("--suspend-program, --resume-program: %q, want an absolute path without spaces", p)
		}
	}
	if x := c.String("exclude"); x != "" {
		if o.Exclude, err = slurm.ExpandHostlist(x); err != nil {
			return o, fmt.Errorf("--exclude: %w", err)
		}
	}
	if p := c.String("nodes-map"); p != "" {
		m, err := daemon.ReadNodeMap(p)
		if err != nil {
			return o, err
		}
		o.Nodes = map[string][]string{}
		for _, e := range m.Groups {
			o.Nodes[e.Group] = e.Hosts
		}
	}
	return o, nil
}
