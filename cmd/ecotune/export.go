package main

import (
	"errors"

	"github.com/urfave/cli/v2"
)

func exportCommand() *cli.Command {
	return &cli.Command{
		Name:   "export",
		Usage:  "not implemented yet",
		Action: func(*cli.Context) error { return errors.New("export: not implemented yet") },
	}
}
