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
)

// interruptContext is ctx cancelled by the first SIGINT or SIGTERM, which
// lets a run stop within its current generation and save what it
// finished; a second signal exits at once (status 130), also when it
// arrives while the run is already stopping.
func interruptContext(ctx context.Context, stderr io.Writer) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	var n atomic.Int32 // signals received
	got := func() {
		if n.Add(1) >= 2 {
			os.Exit(130)
		}
		fmt.Fprintln(stderr, "stopping: saving the finished evaluations (interrupt again to exit at once)")
		cancel()
	}
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-sig:
				got()
			case <-done:
				return
			}
		}
	}()
	return ctx, func() {
		signal.Stop(sig)
		close(done)
		for {
			select {
			case <-sig: // arrived while the run was stopping
				got()
			default:
				cancel()
				return
			}
		}
	}
}

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
