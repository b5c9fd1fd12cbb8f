package main

import (
	"errors"

	"github.com/urfave/cli/v2"
)

func decideCommand() *cli.Command {
	return &cli.Command{
		Name:   "decide",
		Usage:  "not implemented yet",
		Action: func(*cli.Context) error { return errors.New("decide: not implemented yet") },
	}
}
