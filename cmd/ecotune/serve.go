package main

import (
	"context"
	"errors"
	"fmt"
	"github.com/ecotune/ecotune/docs/help"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/ecotune/ecotune/serve"
)

func serveCommand() *cli.Command {
	return &cli.Command{
		Name:        "serve",
		Usage:       "the web workbench",
		UsageText:   "ecotune serve [--listen 127.0.0.1:8080] [--data DIR] [--max-upload 2GiB] [--jobs N]",
		Description: help.Text("serve"),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "listen", Value: "127.0.0.1:8080", Usage: "address to listen on (port 0: any free port)"},
			&cli.StringFlag{Name: "data", Value: "ecotune-data", Usage: "data directory (traces, runs)"},
			&cli.StringFlag{Name: "max-upload", Value: "2GiB", Usage: "largest upload (B, KiB, MiB, GiB)"},
			&cli.IntFlag{Name: "jobs", Value: 1, Usage: "runs at once (the rest queue)"},
			&cli.IntFlag{Name: "workers", Usage: "simulation workers of each run (default: GOMAXPROCS / jobs)"},
		},
		Action: runServe,
	}
}

func runServe(c *cli.Context) error {
	maxUp, err := serve.ParseSize(c.String("max-upload"))
	if err != nil {
		return fmt.Errorf("serve: --max-upload: %w", err)
	}
	s, err := serve.New(serve.Options{Data: c.String("data"), MaxUpload: maxUp, Jobs: c.Int("jobs"), Workers: c.Int("workers"), Version: version, Log: c.App.ErrWriter})
	if err != nil {
		return err
	}
	defer s.Close()
	l, err := net.Listen("tcp", c.String("listen"))
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(c.App.Writer, "http://%s/?token=%s\n", l.Addr(), s.Token())
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(l) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	fmt.Fprintln(c.App.ErrWriter, "serve: stopping; running tunes resume at the next start")
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s.Close()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}
