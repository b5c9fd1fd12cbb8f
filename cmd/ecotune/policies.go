package main

import (
	"errors"

	"github.com/urfave/cli/v2"
)

func policiesCommand() *cli.Command {
	return &cli.Command{
		Name:   "policies",
		Usage:  "not implemented yet",
		Action: func(*cli.Context) error { return errors.New("policies: not implemented yet") },
	}
}
