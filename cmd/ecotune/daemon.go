package main

import (
	"fmt"
	"net"
	"net/http"
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

const daemonHelp = `Runs a rule set on a live Slurm cluster. Every period_s of the rule set it
reads the nodes (sinfo --json) and the pending and running jobs (squeue
--json), updates the feature state (when each node became idle, recent
arrivals, submitted slots per hour of the day), builds the policy's view
exactly as the simulator and "ecotune decide" do, asks the rule set's
policy, and carries the decision out with Slurm's power-saving verbs
(scontrol update nodename=NODES state=power_down|power_up). Slurm keeps
resuming powered-down nodes for jobs that need them: keep power saving on
in slurm.conf ("ecotune export --slurm" writes the block).

It never powers down a node that is down, draining or drained, failed, in
maintenance, reserved, not responding, excluded (--exclude) or running a
job, never boots more than max_booting nodes at once (the rule set's, or
--max-booting), and leaves nodes that failed to resume to Slurm (counted).
If Slurm cannot be reached or a command fails it logs it, backs off and
retries. SIGINT or SIGTERM end it after the current cycle.

Rule-set groups map to Slurm nodes by --nodes-map, a file of lines
"GROUP HOSTLIST" (e.g. "node node[001-096]"), or else by CPUs per node. A
node count that differs from the rule set's is an error, or a warning with
--allow-resize (the policy then sees the live counts).

--state-dir keeps the feature history (features.json): a daemon restarted
with the same directory continues it. --log appends the decision log, one
JSON object per cycle (time, the view in numbers, the decision, each
command and its result, what was refused and why; with --log-state also
the cluster state, from which "ecotune decide" takes the same decision).
--dry-run decides and logs, and changes nothing. --metrics serves
Prometheus metrics at http://ADDR/metrics: nodes per state, decisions,
commands and failures, resume failures, estimated energy saved.

Examples:
  ecotune daemon --rules rules.json --dry-run --log decisions.jsonl --state-dir /var/lib/ecotune
  ecotune daemon --rules rules.json --nodes-map nodes.map --state-dir /var/lib/ecotune \
      --log /var/log/ecotune/decisions.jsonl --metrics 127.0.0.1:9464`

func daemonCommand() *cli.Command {
	return &cli.Command{
		Name:        "daemon",
		Usage:       "run a rule set on a live Slurm cluster",
		UsageText:   "ecotune daemon --rules R.json [--nodes-map FILE] [--dry-run] [--once] [--state-dir DIR] [--log F.jsonl] [--metrics ADDR]",
		Description: daemonHelp,
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
	switch p := c.String("log"); p {
	case "":
	case "-":
		cfg.Log = c.App.Writer
	default:
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			return err
		}
		defer f.Close()
		cfg.Log = f
	}
	if addr := c.String("metrics"); addr != "" {
		cfg.Metrics = daemon.NewMetrics()
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return fmt.Errorf("--metrics: %w", err)
		}
		mux := http.NewServeMux()
		mux.Handle("/metrics", cfg.Metrics.Handler())
		srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		go srv.Serve(ln) //nolint:errcheck // ends with the process
		defer srv.Close()
		cfg.Logf("metrics at http://%s/metrics", ln.Addr())
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
