package main

import (
	"errors"

	"github.com/urfave/cli/v2"
)

func simulateCommand() *cli.Command {
	return &cli.Command{
		Name:   "simulate",
		Usage:  "not implemented yet",
		Action: func(*cli.Context) error { return errors.New("simulate: not implemented yet") },
	}
}
