package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// interruptible returns a context that the first SIGINT or SIGTERM
// cancels, and its stop function. Once it is cancelled the signals take
// their default action again: a second Ctrl-C ends the process at once
// (the next import or synth into the same directory removes the
// temporary files that leaves).
func interruptible(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
	}()
	return ctx, stop
}

// interrupted rewrites the error of a command that ctx stopped.
func interrupted(ctx context.Context, cmd string, err error) error {
	if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return fmt.Errorf("%s: interrupted: no output written, temporary files removed", cmd)
	}
	return err
}
