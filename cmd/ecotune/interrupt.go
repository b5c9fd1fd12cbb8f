package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/ecotune/ecotune/internal/interrupt"
)

// A signal stops the long commands (tune, import, synth, simulate, report)
// in one way, whichever of them runs: the exit status is 128 + the first
// signal's number, as a shell reports a command the signal killed (130
// for SIGINT, 143 for SIGTERM), so scripts and schedulers can tell an
// interrupted run from a finished or failed one. What the first signal
// does depends on the command (interruptMessage): tune, import and synth
// stop within their current step and save what they finished (tune's
// checkpoint) or remove their temporary files; simulate and report, which
// have nothing to save before they end, exit at once. A second signal
// always exits at once.

// interruptMessage is what the first signal prints for the command name,
// whose run it lets stop and save; "" for a command that exits at once.
func interruptMessage(name string) (msg string, handled bool) {
	switch name {
	case "tune":
		return "stopping: saving the finished evaluations (interrupt again to exit at once)", true
	case "import", "synth":
		return "stopping: removing the temporary files (interrupt again to exit at once)", true
	case "simulate", "report":
		return "", true
	}
	return "", false
}

// interruptCommands wraps the action of each command that interruptMessage
// names, and of its subcommands (tune island), with onInterrupt.
func interruptCommands(cmds []*cli.Command) {
	for _, cmd := range cmds {
		if msg, ok := interruptMessage(cmd.Name); ok {
			wrapActions(cmd, msg)
		}
	}
}

func wrapActions(cmd *cli.Command, msg string) {
	if cmd.Action != nil {
		cmd.Action = onInterrupt(msg, cmd.Action)
	}
	for _, sub := range cmd.Subcommands {
		wrapActions(sub, msg)
	}
}

// onInterrupt runs action under interrupt.Run: c.Context is cancelled by
// the first SIGINT or SIGTERM, which prints msg on c.App.ErrWriter; the
// command then returns as soon as it has saved what it finished, and its
// error becomes an *interrupt.Error (exit 130 or 143, a cli.ExitCoder).
// With msg "" the first signal exits at once with that status; so does a
// second signal in any case.
func onInterrupt(msg string, action cli.ActionFunc) cli.ActionFunc {
	return func(c *cli.Context) error {
		parent := c.Context
		defer func() { c.Context = parent }()
		return interrupt.Run(parent, c.App.ErrWriter, c.Command.FullName(), msg, func(ctx context.Context) error {
			c.Context = ctx
			return action(c)
		})
	}
}

// interrupted rewrites the error of a command that ctx stopped.
func interrupted(ctx context.Context, cmd string, err error) error {
	if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return fmt.Errorf("%s: interrupted: no output written, temporary files removed", cmd)
	}
	return err
}
