package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/ecotune/ecotune/policy"
)

const decideHelp = `Takes one power decision, exactly as the simulator does and as a
power-management daemon should each cycle: the rule set's policy applied to
a cluster state.

--rules is a rule-set file (written by "ecotune export"): the policy, its
parameters and fuzzy rules, the cluster's node groups and the decision
period. --state is the cluster now, as JSON ("-" reads standard input;
the schema every daemon follows; times in Unix seconds):

  {
    "now": 1700000000,
    "tz_offset_s": 3600,
    "nodes": [
      {"name": "node001", "group": "node", "state": "idle", "since": 1699999000},
      {"name": "node002", "group": "node", "state": "busy", "since": 1699990000, "busy_slots": 8},
      {"name": "node003", "group": "node", "state": "off", "since": 1699000000}
    ],
    "queue":   [{"id": 7, "slots": 16, "submit": 1699999500, "req_time": 3600, "group": "physics"}],
    "running": [{"id": 6, "slots": 8, "start": 1699990000, "req_time": 7200, "nodes": ["node002"]}],
    "recent":  [{"time": 1699999500, "slots": 16, "req_time": 3600}],
    "hourly_slots": [24 numbers: slots submitted per hour of the local day, smoothed]
  }

The state must be the rule set's cluster: every node once, as many of
each group as the rule set says; now, nodes and each node's name, group,
state and since are required; unknown keys and negative times or counts
are errors naming the field, and so are numbers out of range: times beyond
the horizon 2200-01-01T00:00:00Z (7258118400), requested times over 100
years, a job asking more slots than the cluster has.

Node states: off, booting, idle, busy, shutting-down, or Slurm's as sinfo
and scontrol print them (idle, mixed, allocated, completing, idle~
powered down, idle# powering up, IDLE+DRAIN, ...). Down, drained,
draining, fail, maint and not-responding (*) nodes are out of service:
never powered on or off. Optional node keys:
idle_since (default since), sleep_level and freq (level indices of the
group's model), last_failed (time its last power command failed).
"group" must name a group of the rule set's cluster; slots come from it.

The answer lists the nodes to power on, to power off (with the sleep level)
and frequency changes, and when to ask again with no event in between.
--json prints one JSON object with the keys policy, now, power_on (node
names), power_off and freq (objects node, level, level_name) and wake (Unix
seconds, or null: at the next event only).

Examples:
  ecotune decide --rules rules.json --state now.json
  ecotune decide --rules rules.json --state now.json --json
  my-state-exporter | ecotune decide --rules rules.json --state - --json`

func decideCommand() *cli.Command {
	return &cli.Command{
		Name:        "decide",
		Usage:       "one decision, as a daemon takes it",
		UsageText:   "ecotune decide --rules R.json --state S.json [--json]",
		Description: decideHelp,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "rules", Usage: "rule-set file `R.json` (required)"},
			&cli.StringFlag{Name: "state", Usage: "cluster state file `S.json` (- for standard input; required)"},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object"},
		},
		Action: runDecide,
	}
}

func runDecide(c *cli.Context) error {
	if err := requireFlags(c, "rules", "state"); err != nil {
		return err
	}
	rs, err := policy.LoadRuleSet(c.String("rules"))
	if err != nil {
		return err
	}
	v, err := readState(c, rs)
	if err != nil {
		return err
	}
	out, err := policy.DecideState(rs, v)
	if err != nil {
		return err
	}
	if c.Bool("json") {
		enc := json.NewEncoder(c.App.Writer)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	return out.WriteText(c.App.Writer)
}

// readState reads the --state file, or standard input for "-".
func readState(c *cli.Context, rs *policy.RuleSet) (*policy.View, error) {
	path := c.String("state")
	if path != "-" {
		return policy.ReadState(path, rs)
	}
	data, err := io.ReadAll(io.LimitReader(c.App.Reader, policy.MaxRuleSetBytes))
	if err != nil {
		return nil, fmt.Errorf("standard input: %w", err)
	}
	v, err := policy.ParseState(data, rs)
	if err != nil {
		return nil, fmt.Errorf("standard input: %w", err)
	}
	return v, nil
}
