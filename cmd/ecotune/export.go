package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/ecotune/ecotune/daemon"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/reports"
	rundir "github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/slurm"
)

const exportHelp = `Writes the rule-set file of one solution of a run: the policy and its
parameters (and fuzzy rules), the cluster it was tuned for and where it
came from (trace and its sha256, split, objectives on train and test, seed,
version). The file is validated before it is written; a daemon, or
"ecotune decide --rules", loads it.

--pick names a preset of the run (qos0, qos0.1, qos0.5, rel10, knee, ...)
or a row of its front. A preset pick that misses its bound on the train or
the test split is refused unless --force (which also overwrites); the rule
set records the pick's feasibility on each split (provenance.feasibility). --slurm also prints a complete slurm.conf power-saving block
for the solution: SuspendProgram and ResumeProgram (--suspend-program,
--resume-program; example scripts for IPMI and Wake-on-LAN in docs/),
SuspendTime, SuspendTimeout, ResumeTimeout, SuspendRate and ResumeRate
(nodes per minute), SuspendExcNodes (--exclude, and an idle-timeout
solution's spare nodes with the real node names of --nodes-map, the map
"ecotune daemon" uses), in the syntax of --slurm-version (default 22.05).
An idle-timeout solution is Slurm's own power saving (SuspendTime is its
timeout); every other policy needs "ecotune daemon", and SuspendTime is
then a long backstop (--backstop, a day): never INFINITE, which on 22.05
switches power saving off and makes Slurm refuse the daemon's commands.
Comment lines say which and what Slurm cannot express.

Example:
  ecotune export runs/nasa --pick qos0.1 -o rules.json --slurm --nodes-map nodes.map >> slurm.conf`

func exportCommand() *cli.Command {
	return &cli.Command{
		Name:        "export",
		Usage:       "the rule set of a chosen solution, for a daemon (and slurm.conf lines)",
		UsageText:   "ecotune export RUN_DIR --pick PRESET|ROW -o rules.json [--slurm] [--force] [--json]",
		ArgsUsage:   "RUN_DIR",
		Description: exportHelp,
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
