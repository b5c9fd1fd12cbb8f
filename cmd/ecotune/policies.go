package main

import (
	"encoding/json"
	"github.com/ecotune/ecotune/docs/help"

	"github.com/urfave/cli/v2"

	"github.com/ecotune/ecotune/policy"
)

func policiesCommand() *cli.Command {
	return &cli.Command{
		Name:        "policies",
		Usage:       "the policies, their parameters and sources",
		UsageText:   "ecotune policies [--json]",
		Description: help.Text("policies"),
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
