package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/ecotune/ecotune/serve"
)

const serveHelp = `Starts the web workbench: upload and inspect traces, start simulations
and tuning runs (the same code as "ecotune simulate" and "ecotune tune"),
watch their progress live, abort them, read their fronts, holdout tables
and learned rules, and export a pick as rules.json with its slurm.conf
lines.

It prints the URL to open, with a random access token, as the line
  http://127.0.0.1:PORT/?token=TOKEN
(scripts read it); every request needs the token (a cookie after the
first visit). It listens on 127.0.0.1 unless --listen says otherwise.
Everything is kept under --data: traces/, runs/ (one directory per run,
the tuner's run directory in RUN/run), uploads/. Runs survive a restart:
finished runs are listed again, an interrupted tune resumes from its
checkpoint. --jobs runs that many runs at once (the rest queue).

Example:
  ecotune serve --data ~/ecotune-data --jobs 2`

func serveCommand() *cli.Command {
	return &cli.Command{
		Name:        "serve",
		Usage:       "the web workbench",
		UsageText:   "ecotune serve [--listen 127.0.0.1:8080] [--data DIR] [--max-upload 2GiB] [--jobs N]",
		Description: serveHelp,
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
