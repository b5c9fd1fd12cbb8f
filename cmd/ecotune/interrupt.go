package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// interruptContext is ctx cancelled by the first SIGINT or SIGTERM, which
// lets a run stop within its current generation and save what it
// finished; a second signal exits at once (status 130).
func interruptContext(ctx context.Context, stderr io.Writer) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case <-sig:
		case <-done:
			return
		}
		fmt.Fprintln(stderr, "stopping: saving the finished evaluations (interrupt again to exit at once)")
		cancel()
		select {
		case <-sig:
			os.Exit(130)
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(sig)
		close(done)
		cancel()
	}
}
