package main

import (
	"errors"

	"github.com/urfave/cli/v2"
)

func tuneCommand() *cli.Command {
	return &cli.Command{
		Name:   "tune",
		Usage:  "not implemented yet",
		Action: func(*cli.Context) error { return errors.New("tune: not implemented yet") },
	}
}
