package main

import (
	"encoding/json"

	"github.com/urfave/cli/v2"

	"github.com/ecotune/ecotune/policy"
)

const policiesHelp = `Lists every power policy ecotune can simulate and tune: its CLI name,
what it does, its source in the literature, and its parameters with unit,
bounds, default, type (integer or real) and search scale (linear or log).
Set parameters with --set NAME=VALUE in simulate and compare; parameters
marked "per group" also take NAME@GROUP=VALUE for one user group.
Clairvoyant policies (oracle, break-even-oracle) know the future: bounds
for reports, never deployable.

--json prints one JSON object {"policies": [...]}, each policy with the
keys name, doc, source, clairvoyant, params (name, unit, doc, min, max,
default, type, scale, per_group) and, for learned policies, fuzzy (the
template rule base).

Examples:
  ecotune policies
  ecotune policies --json | jq '.policies[].name'`

func policiesCommand() *cli.Command {
	return &cli.Command{
		Name:        "policies",
		Usage:       "the policies, their parameters and sources",
		UsageText:   "ecotune policies [--json]",
		Description: policiesHelp,
		Flags:       []cli.Flag{&cli.BoolFlag{Name: "json", Usage: "print one JSON object"}},
		Action: func(c *cli.Context) error {
			specs := policy.Catalog()
			if c.Bool("json") {
				enc := json.NewEncoder(c.App.Writer)
				enc.SetIndent("", "  ")
				return enc.Encode(struct {
					Policies []policy.SpecOut `json:"policies"`
				}{specs})
			}
			return policy.WriteCatalog(c.App.Writer, specs)
		},
	}
}
