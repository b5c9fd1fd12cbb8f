package main

import (
	"errors"

	"github.com/urfave/cli/v2"
)

func splitCommand() *cli.Command {
	return &cli.Command{
		Name:   "split",
		Usage:  "not implemented yet",
		Action: func(*cli.Context) error { return errors.New("split: not implemented yet") },
	}
}
