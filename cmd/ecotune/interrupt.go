package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"github.com/urfave/cli/v2"
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

// signalError is the error of a command a signal stopped: its exit code
// is 128 + the signal's number.
type signalError struct {
	sig syscall.Signal
	err error // the command's own error, or nil
}

func (e *signalError) Error() string {
	if e.err != nil {
		return e.err.Error()
	}
	return fmt.Sprintf("interrupted (%s)", signalName(e.sig))
}

func (e *signalError) Unwrap() error { return e.err }

// ExitCode makes signalError a cli.ExitCoder.
func (e *signalError) ExitCode() int { return 128 + int(e.sig) }

func signalName(sig syscall.Signal) string {
	if sig == syscall.SIGTERM {
		return "SIGTERM"
	}
	return "SIGINT"
}

// interruptKey marks a context that onInterrupt already watches.
type interruptKey struct{}

// onInterrupt runs action with c.Context cancelled by the first SIGINT or
// SIGTERM, which prints msg on c.App.ErrWriter; the command then returns
// as soon as it has saved what it finished, and its error becomes a
// signalError (exit 130 or 143). With msg "" the first signal exits at
// once with that status; so does a second signal in any case, also when
// it arrives while the command is already stopping.
func onInterrupt(msg string, action cli.ActionFunc) cli.ActionFunc {
	return func(c *cli.Context) error {
		parent := c.Context
		if parent == nil {
			parent = context.Background()
		}
		ctx, cancel := context.WithCancel(context.WithValue(parent, interruptKey{}, true))
		defer cancel()
		sig := make(chan os.Signal, 2)
		signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
		var first atomic.Int32 // the first signal's number, 0 before it
		got := func(s os.Signal) {
			n, _ := s.(syscall.Signal)
			if first.CompareAndSwap(0, int32(n)) && msg != "" {
				fmt.Fprintln(c.App.ErrWriter, msg)
				cancel()
				return
			}
			fmt.Fprintf(c.App.ErrWriter, "ecotune: %s: interrupted (%s): exiting at once\n", c.Command.FullName(), signalName(n))
			os.Exit(128 + int(first.Load()))
		}
		done := make(chan struct{})
		go func() {
			for {
				select {
				case s := <-sig:
					got(s)
				case <-done:
					return
				}
			}
		}()
		c.Context = ctx
		err := action(c)
		c.Context = parent
		close(done)
		signal.Stop(sig)
		select {
		case s := <-sig: // arrived while the command was ending
			got(s)
		default:
		}
		if n := first.Load(); n != 0 {
			return &signalError{sig: syscall.Signal(n), err: err}
		}
		return err
	}
}

// interruptContext returns ctx and a no-op stop when onInterrupt already
// watches ctx (the commands run from the command line); otherwise (a
// command's function called directly) a context that the first SIGINT or
// SIGTERM cancels, as onInterrupt's, and the function that stops watching.
// (stderr is kept for the callers: onInterrupt prints the message.)
func interruptContext(ctx context.Context, _ io.Writer) (context.Context, func()) {
	if ctx.Value(interruptKey{}) != nil {
		return ctx, func() {}
	}
	ctx, cancel := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	return ctx, cancel
}

// interrupted rewrites the error of a command that ctx stopped.
func interrupted(ctx context.Context, cmd string, err error) error {
	if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return fmt.Errorf("%s: interrupted: no output written, temporary files removed", cmd)
	}
	return err
}
