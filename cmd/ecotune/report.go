package main

import (
	"errors"

	"github.com/urfave/cli/v2"
)

func reportCommand() *cli.Command {
	return &cli.Command{
		Name:   "report",
		Usage:  "not implemented yet",
		Action: func(*cli.Context) error { return errors.New("report: not implemented yet") },
	}
}
