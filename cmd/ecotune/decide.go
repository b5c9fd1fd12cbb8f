package main

import (
	"encoding/json"
	"fmt"
	"github.com/ecotune/ecotune/docs/help"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/ecotune/ecotune/policy"
)

func decideCommand() *cli.Command {
	return &cli.Command{
		Name:        "decide",
		Usage:       "one decision, as a daemon takes it",
		UsageText:   "ecotune decide --rules R.json --state S.json [--json]",
		Description: help.Text("decide"),
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
