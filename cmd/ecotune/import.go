package main

import (
	"errors"

	"github.com/urfave/cli/v2"
)

func importCommand() *cli.Command {
	return &cli.Command{
		Name:   "import",
		Usage:  "not implemented yet",
		Action: func(*cli.Context) error { return errors.New("import: not implemented yet") },
	}
}
