package main

import (
	"errors"

	"github.com/urfave/cli/v2"
)

func inspectCommand() *cli.Command {
	return &cli.Command{
		Name:   "inspect",
		Usage:  "not implemented yet",
		Action: func(*cli.Context) error { return errors.New("inspect: not implemented yet") },
	}
}
