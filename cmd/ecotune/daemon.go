package main

import (
	"fmt"
	"github.com/ecotune/ecotune/docs/help"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/ecotune/ecotune/daemon"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/slurm"
)

func daemonCommand() *cli.Command {
	return &cli.Command{
		Name:        "daemon",
		Usage:       "run a rule set on a live Slurm cluster",
		UsageText:   "ecotune daemon --rules R.json [--nodes-map FILE] [--dry-run] [--once] [--state-dir DIR] [--log F.jsonl] [--metrics ADDR]",
		Description: help.Text("daemon"),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "rules", Usage: "rule-set file `R.json` (required)"},
			&cli.StringFlag{Name: "nodes-map", Usage: "group → Slurm hostlist `FILE` (default: by CPUs per node)"},
			&cli.BoolFlag{Name: "dry-run", Usage: "decide and log, change nothing"},
			&cli.BoolFlag{Name: "once", Usage: "run one cycle and exit"},
			&cli.StringFlag{Name: "state-dir", Usage: "`DIR` keeping the feature history between runs"},
			&cli.StringFlag{Name: "log", Usage: "decision log `F.jsonl` (appended; - for standard output)"},
			&cli.BoolFlag{Name: "log-state", Usage: "also log each cycle's cluster state (the input of ecotune decide)"},
			&cli.StringFlag{Name: "metrics", Usage: "serve Prometheus metrics at `ADDR` (e.g. 127.0.0.1:9464)"},
			&cli.StringFlag{Name: "exclude", Usage: "Slurm `HOSTLIST` never powered down or up"},
			&cli.BoolFlag{Name: "allow-resize", Usage: "run on a cluster whose node counts differ from the rule set's"},
			&cli.IntFlag{Name: "max-booting", Usage: "most `N` nodes booting at once (0: the rule set's max_booting)"},
		},
		Action: runDaemon,
	}
}

func runDaemon(c *cli.Context) error {
	if err := requireFlags(c, "rules"); err != nil {
		return err
	}
	rs, err := policy.LoadRuleSet(c.String("rules"))
	if err != nil {
		return err
	}
	sl := &daemon.Slurm{Client: slurm.NewClient(nil)}
	cfg := daemon.Config{Rules: rs, Source: sl, Actuator: sl, DryRun: c.Bool("dry-run"), StateDir: c.String("state-dir"),
		AllowResize: c.Bool("allow-resize"), MaxBooting: c.Int("max-booting"), LogState: c.Bool("log-state"),
		Logf: func(format string, args ...any) {
			fmt.Fprintf(c.App.ErrWriter, "%s ecotune daemon: %s\n", time.Now().UTC().Format(time.RFC3339), fmt.Sprintf(format, args...))
		}}
	if cfg.DryRun {
		cfg.Actuator = nil
	}
	if p := c.String("nodes-map"); p != "" {
		if cfg.NodeMap, err = daemon.ReadNodeMap(p); err != nil {
			return err
		}
	}
	if x := c.String("exclude"); x != "" {
		if cfg.Exclude, err = slurm.ExpandHostlist(x); err != nil {
			return fmt.Errorf("--exclude: %w", err)
		}
	}
	logw, closeLog, err := daemonLog(c)
	if err != nil {
		return err
	}
	defer closeLog()
	cfg.Log = logw
	if addr := c.String("metrics"); addr != "" {
		cfg.Metrics = daemon.NewMetrics()
		stopMetrics, err := cfg.Metrics.Serve(addr, cfg.Logf)
		if err != nil {
			return err
		}
		defer stopMetrics()
	}
	d, err := daemon.New(cfg)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(c.Context, os.Interrupt, syscall.SIGTERM)
	defer stop()
	mode := "live"
	if cfg.DryRun {
		mode = "dry run"
	}
	cfg.Logf("running %s (%s) every %d s, %s", rs.Policy.Name, strings.TrimSpace(c.String("rules")), rs.Period, mode)
	err = d.Run(ctx, c.Bool("once"))
	if err == nil && ctx.Err() != nil {
		cfg.Logf("stopped by signal after the current cycle")
	}
	return err
}

// daemonLog is where --log sends the decision log: nowhere (""), stdout
// ("-") or a file appended to; close closes that file.
func daemonLog(c *cli.Context) (w io.Writer, close func(), err error) {
	switch p := c.String("log"); p {
	case "":
		return nil, func() {}, nil
	case "-":
		return c.App.Writer, func() {}, nil
	default:
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			return nil, nil, err
		}
		return f, func() { f.Close() }, nil
	}
}
