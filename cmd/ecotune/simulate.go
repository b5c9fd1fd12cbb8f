package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/reports"
	"github.com/ecotune/ecotune/sim"
)

const simulateHelp = `Replays a trace once under one power policy and prints its scores: the
three EECluster objectives (qos_p90, the p90 wait ratio; off_node_seconds,
energy saved; reconfigurations), energy in kWh, waits, bounded slowdown,
makespan, boots and shutdowns.

The cluster is, in order of preference: --cluster FILE (YAML or JSON node
groups, see "go doc sim.LoadCluster"), --nodes N [--slots-per-node S], or
the trace header (MaxNodes nodes of MaxProcs/MaxNodes slots). --model
names the built-in power model of the last two (escs: off 2 W, idle 150 W,
+80 W per busy slot, boot 555 s 13.71 Wh, shutdown 480 s 10.79 Wh). A
cluster file with partitions replays each partition's jobs on its own
nodes under its own instance of the policy, over the whole trace's window
(README.md, "Cluster files"); the output then lists each partition.

--set name=value sets a policy parameter (repeatable; "ecotune policies"
lists them). --period is the decision cycle in seconds; 0 consults the
policy at every event. sim_seconds in the output is the wall time of the
simulation alone (loading the trace excluded). --timeline writes node-state
changes and requested/powered/busy slots over time (CSV, or Parquet when
the name ends in .parquet). --jobs writes one row per job (CSV, or Parquet
by the name's extension): job_id, user, group, partition (the log's
partition or queue, else "default"), submit, start, end, wait_s, run_s,
slots, nodes (host names, space-separated). Times (submit, start, end,
the timeline's time) are Unix seconds in CSV and UTC timestamps
(milliseconds) in Parquet; wait_s and run_s are seconds in both.

--scheduler is fcfs, easy (EASY backfilling: the blocked head holds a
reservation) or conservative (every queued job holds one); backfilling
estimates jobs by their requested time (--use-run-time: by their run time).
--json adds by_user, by_group and by_partition: for each name its jobs,
mean/median/max wait, p90 wait ratio (qos_p90 over its jobs) and
node-hours; by_partition names the cluster's partitions when it has some
(the jobs file's partition column too), and partitions then gives each
one's nodes, slots, jobs, off_node_seconds, reconfigurations, boots,
shutdowns and energy_kwh.

--rules FILE replays an exported rule set (ecotune export) instead of
--policy/--set: its policy and parameters, its period (unless --period is
given), its scheduler (unless --scheduler is given) and its cluster's power
model. The trace's cluster (from --cluster, --nodes or the header) must
have the rule set's node groups (count and slots of each, in order); a
rule set tuned for another machine is refused, naming both.

Examples:
  ecotune simulate --rules rules.json --trace SDSC-SP2-1998-4.2-cln.swf.gz
  ecotune simulate --trace SDSC-SP2-1998-4.2-cln.swf.gz --policy always-on
  ecotune simulate -t sp2.parquet --policy idle-timeout --set idle_timeout=600 --scheduler fcfs --json
  ecotune simulate -t osc.swf --cluster osc.yaml --policy idle-timeout --timeline osc.csv
  ecotune simulate -t repro.swf --nodes 10 --scheduler easy --period 0 --jobs out.csv`

func simulateCommand() *cli.Command {
	return &cli.Command{
		Name:        "simulate",
		Usage:       "one replay of a trace under a policy, and its scores",
		UsageText:   "ecotune simulate [TRACE | --trace T] (--policy NAME [--set k=v ...] | --rules FILE) [--cluster FILE | --nodes N --slots-per-node S] [--model escs] [--scheduler easy|fcfs|conservative] [--period 60] [--timeline FILE] [--jobs FILE] [--json]",
		ArgsUsage:   traceArgsUsage,
		Description: simulateHelp + "\n\nScores (objectives.All: name, better, unit, meaning):\n" + objectives.Help(),
		Flags: append(traceFlags(),
			&cli.StringFlag{Name: "policy", Aliases: []string{"p"}, Value: "always-on", Usage: "policy name (see `ecotune policies`)"},
			&cli.StringSliceFlag{Name: "set", Usage: "policy parameter `name=value` (repeatable)"},
			&cli.StringFlag{Name: "rules", Usage: "replay the exported rule set `FILE` instead of --policy/--set"},
			&cli.StringFlag{Name: "cluster", Usage: "cluster file (YAML or JSON)"},
			&cli.IntFlag{Name: "nodes", Usage: "uniform cluster of N nodes"},
			&cli.IntFlag{Name: "slots-per-node", Usage: "slots of each node with --nodes (default 1)"},
			&cli.StringFlag{Name: "model", Value: "escs", Usage: "built-in power model (" + strings.Join(sim.ModelNames(), ", ") + ")"},
			schedulerFlag(""),
			&cli.BoolFlag{Name: "use-run-time", Usage: "backfilling estimates jobs by their run time, not the requested time"},
			&cli.Int64Flag{Name: "period", Value: sim.DefaultPeriod, Usage: "decision cycle in seconds (0: at every event)"},
			&cli.Float64Flag{Name: "boot-fail", Usage: "probability that a boot fails"},
			&cli.Int64Flag{Name: "seed", Usage: "seed of boot failures and randomised policies"},
			&cli.StringFlag{Name: "timeline", Usage: "write the timeline to `FILE` (.csv or .parquet)"},
			&cli.StringFlag{Name: "jobs", Usage: "write one row per job to `FILE` (.csv or .parquet)"},
			&cli.BoolFlag{Name: "force", Usage: "replace an existing timeline or jobs file"},
			&cli.BoolFlag{Name: "json", Usage: "print one JSON object"},
		),
		Action: runSimulate,
	}
}

// simulateReport is what simulate prints.
type simulateReport struct {
	Trace     string             `json:"trace"`
	Rules     string             `json:"rules,omitempty"` // --rules
	Policy    string             `json:"policy"`
	Params    map[string]float64 `json:"params"`
	Scheduler string             `json:"scheduler"`
	PeriodS   int64              `json:"period_s"`
	Nodes     int                `json:"nodes"`
	Slots     int                `json:"slots"`
	objectives.Scores
	BootFailures    int64   `json:"boot_failures"`
	IgnoredCommands int64   `json:"ignored_commands"`
	SimSeconds      float64 `json:"sim_seconds"`
	objectives.Breakdowns
	parts []objectives.PartitionScores // the text output's
}

func runSimulate(c *cli.Context) error {
	// Collect often: the garbage of decoding the trace is small, the
	// simulator's jobs hold no pointers and a replay allocates little, so
	// this costs little and keeps the peak near what the jobs take.
	defer debug.SetGCPercent(debug.SetGCPercent(lowGCPercent))
	src, err := openJobs(c)
	if err != nil {
		return err
	}
	cluster, err := sim.ClusterSpec{File: c.String("cluster"), Nodes: c.Int("nodes"), SlotsPerNode: c.Int("slots-per-node"), Model: c.String("model")}.Resolve(src.meta)
	if err != nil {
		return err
	}
	scheduler, period := c.String("scheduler"), c.Int64("period")
	var cfg policy.Config
	if path := c.String("rules"); path != "" {
		if c.IsSet("policy") || c.IsSet("set") {
			return fmt.Errorf("simulate: --rules %s gives the policy and its parameters: leave out --policy and --set", path)
		}
		rs, err := policy.LoadRuleSet(path)
		if err != nil {
			return err
		}
		if cluster, err = rulesCluster(path, rs, cluster); err != nil {
			return err
		}
		cfg = rs.Policy
		if !c.IsSet("period") {
			period = rs.Period
		}
		if p := rs.Provenance; !c.IsSet("scheduler") && p != nil && p.Scheduler != "" {
			scheduler = p.Scheduler
		}
	} else {
		spec, err := policy.Lookup(c.String("policy"))
		if err != nil {
			return err
		}
		if cfg, err = policy.ParseSet(spec, c.StringSlice("set")); err != nil {
			return fmt.Errorf("simulate: %w", err)
		}
	}
	cfg.Seed = c.Int64("seed")
	if _, err := policy.New(cfg); err != nil {
		return err
	}
	opt := sim.Options{
		Scheduler: scheduler, UseRunTime: c.Bool("use-run-time"), Period: period,
		BootFailProb: c.Float64("boot-fail"), Seed: c.Int64("seed"), Timeline: c.String("timeline") != "",
		// Where jobs ran: for the jobs file, and for node-hours when nodes
		// differ in slots (else slots give them exactly).
		JobNodes: c.String("jobs") != "" || c.Bool("json") && !sameSlots(cluster),
		// Result.Jobs made on demand: 16 bytes a job, not 40.
		LeanJobs: true,
	}
	if opt.Period == 0 {
		opt.Period = sim.EveryEvent
	}
	// The scores' scratch space is made before the trace is read, as the
	// simulator's buffers are: big allocations late in a run, in a heap
	// the reading has fragmented, would need more address space.
	var scorer objectives.Scorer
	scorer.Reserve(src.jobs)
	var (
		r       sim.Result
		elapsed float64
		s       *sim.Simulator  // a lean replay's, or
		tr      *datasets.Trace // a partitioned one's (the trace in memory)
	)
	if len(cluster.Partitions) > 0 {
		if tr, err = src.trace(); err != nil {
			return err
		}
		if elapsed, err = replayPartitioned(c.Context, tr, cluster, opt, cfg, &r); err != nil {
			return err
		}
	} else {
		if s, err = src.simulator(cluster, opt, cfg.Name); err != nil {
			return err
		}
		began := time.Now()
		if err := replay(c.Context, s, cfg, &r); err != nil {
			return err
		}
		elapsed = time.Since(began).Seconds()
	}
	if path := c.String("timeline"); path != "" {
		if err := sim.WriteTimelineFile(path, r.Timeline, c.Bool("force")); err != nil {
			return err
		}
	}
	if path := c.String("jobs"); path != "" {
		if err := writeJobsFile(path, s, tr, &r, c.Bool("force")); err != nil {
			return err
		}
	}
	rep := simulateReport{
		Trace: traceName(c, &datasets.Trace{Meta: src.meta}), Rules: c.String("rules"), Policy: cfg.Name, Params: cfg.Params, Scheduler: scheduler,
		PeriodS: period, Nodes: r.Nodes, Slots: r.Slots, Scores: scorer.Compute(&r),
		BootFailures: r.BootFailures, IgnoredCommands: r.IgnoredCommands, SimSeconds: elapsed,
		parts: objectives.Partitions(&r),
	}
	if c.Bool("json") {
		if s == nil {
			rep.Breakdowns, err = reports.Breakdowns(tr, &r)
		} else {
			rep.Breakdowns, err = simulatorBreakdowns(s, &r)
		}
		if err != nil {
			return err
		}
		return json.NewEncoder(c.App.Writer).Encode(rep)
	}
	return rep.writeText(c)
}

// lowGCPercent is the GOGC of loading a trace for simulate and inspect.
const lowGCPercent = 10

// A jobSource is the trace simulate replays: its metadata, how many jobs
// it has (or an upper bound), and its jobs handed over in trace order.
type jobSource struct {
	meta datasets.Meta
	jobs int
	each func(fn func([]datasets.Job) error) error
}

// openJobs opens the trace named by --trace, or the embedded default. A
// Parquet trace streams: its jobs are read when handed over, a batch at a
// time, never all in memory; a raw log is read whole (as Open reads it).
func openJobs(c *cli.Context) (*jobSource, error) {
	path := c.String("trace")
	if path != "" && c.String("format") == "" {
		isParquet, err := datasets.IsParquetFile(path)
		if err != nil {
			return nil, err
		}
		if isParquet {
			meta, rows, err := datasets.ReadParquetFileMeta(path)
			if err != nil {
				return nil, err
			}
			// A real trace takes a byte a job or more: a footer that
			// claims more rows sizes no buffer by them.
			size, err := fileSize(path)
			if err != nil {
				return nil, err
			}
			return &jobSource{meta: meta, jobs: int(min(rows, size)), each: func(fn func([]datasets.Job) error) error {
				return datasets.ScanParquetFile(path, func(datasets.Meta, int64) error { return nil }, fn)
			}}, nil
		}
	}
	tr, err := openTrace(c, path)
	if err != nil {
		return nil, err
	}
	return &jobSource{meta: tr.Meta, jobs: len(tr.Jobs), each: func(fn func([]datasets.Job) error) error {
		jobs := tr.Jobs
		tr.Jobs = nil // the simulator keeps its own copy
		return fn(jobs)
	}}, nil
}

func fileSize(path string) (int64, error) {
	st, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}

// errStopScan stops a scan of the trace whose jobs a simulator refused.
var errStopScan = errors.New("stop")

// simulator builds the simulator of the source's jobs on cluster. Its
// errors name the policy, as the tuner's scorer's do.
func (src *jobSource) simulator(cluster sim.Cluster, opt sim.Options, policyName string) (*sim.Simulator, error) {
	b, err := sim.NewBuilder(src.meta, cluster, opt, src.jobs)
	if err != nil {
		return nil, fmt.Errorf("tuner: %s: %w", policyName, err)
	}
	var addErr error
	err = src.each(func(batch []datasets.Job) error {
		for i := range batch {
			if addErr = b.Add(&batch[i]); addErr != nil {
				return errStopScan
			}
		}
		return nil
	})
	if addErr != nil {
		return nil, fmt.Errorf("tuner: %s: %w", policyName, addErr)
	}
	if err != nil {
		return nil, err
	}
	runtime.GC() // the garbage of reading makes room for the replay's buffers
	s, err := b.Simulator()
	if err != nil {
		return nil, fmt.Errorf("tuner: %s: %w", policyName, err)
	}
	return s, nil
}

// trace reads the source's jobs into memory.
func (src *jobSource) trace() (*datasets.Trace, error) {
	tr := &datasets.Trace{Meta: src.meta}
	err := src.each(func(batch []datasets.Job) error {
		tr.Jobs = append(tr.Jobs, batch...)
		return nil
	})
	return tr, err
}

// replayPartitioned replays tr on a cluster with partitions, one
// partition at a time (sim.Partitioned), into r; it returns the replay's
// time in seconds.
func replayPartitioned(ctx context.Context, tr *datasets.Trace, cluster sim.Cluster, opt sim.Options, cfg policy.Config, r *sim.Result) (float64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	ps, err := sim.NewPartitioned(tr, cluster, opt)
	if err != nil {
		return 0, fmt.Errorf("tuner: %s: %w", cfg.Name, err)
	}
	began := time.Now()
	if err := ps.RunInto(func() (policy.Policy, error) { return policy.New(cfg) }, r); err != nil {
		return 0, fmt.Errorf("tuner: %s: %w", cfg.Name, err)
	}
	return time.Since(began).Seconds(), nil
}

// writeJobsFile writes the jobs file of a lean replay by s, or of a
// partitioned replay of tr.
func writeJobsFile(path string, s *sim.Simulator, tr *datasets.Trace, r *sim.Result, force bool) error {
	if s != nil {
		return sim.WriteResultJobsFile(path, s, r, force)
	}
	rows, err := sim.JobRows(tr, r)
	if err != nil {
		return err
	}
	return sim.WriteJobsFile(path, rows, force)
}

// replay replays s once under cfg into r, as the tuner's scorer replays
// a trace (its errors name the config as the scorer's do).
func replay(ctx context.Context, s *sim.Simulator, cfg policy.Config, r *sim.Result) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	p, err := policy.New(cfg)
	if err == nil {
		err = s.RunInto(p, r)
	}
	if err != nil {
		return fmt.Errorf("tuner: %s: %w", cfg.Name, err)
	}
	return nil
}

// simulatorBreakdowns is reports.Breakdowns for the jobs of s: the scores
// by user, group and partition (sim.JobPartition).
func simulatorBreakdowns(s *sim.Simulator, r *sim.Result) (b objectives.Breakdowns, err error) {
	keys := make([]string, r.NumJobs())
	for k, out := range []*[]objectives.GroupScores{&b.ByUser, &b.ByGroup, &b.ByPartition} {
		for i := range keys {
			nm := s.JobNames(i)
			switch k {
			case 0:
				keys[i] = nm.User
			case 1:
				keys[i] = nm.Group
			default:
				keys[i] = sim.NamesPartition(nm)
			}
		}
		if *out, err = objectives.Breakdown(r, keys); err != nil {
			return b, err
		}
	}
	return b, nil
}

// sameSlots reports whether every node of c has as many slots.
func sameSlots(c sim.Cluster) bool {
	for _, g := range c.Groups {
		if g.Slots != c.Groups[0].Slots {
			return false
		}
	}
	return true
}

// rulesCluster is the cluster a rule set replays on: the trace's (c), with
// the rule set's power models, when its node groups have the counts and
// slots of the rule set's; otherwise an error naming both.
func rulesCluster(path string, rs *policy.RuleSet, c sim.Cluster) (sim.Cluster, error) {
	describe := func(n int, at func(int) (int, int)) string {
		parts := make([]string, n)
		for i := range parts {
			count, slots := at(i)
			parts[i] = fmt.Sprintf("%d × %d slots", count, slots)
		}
		return strings.Join(parts, " + ")
	}
	same := len(rs.Cluster) == len(c.Groups)
	for i := 0; same && i < len(c.Groups); i++ {
		same = rs.Cluster[i].Count == c.Groups[i].Count && rs.Cluster[i].Slots == c.Groups[i].Slots
	}
	if !same {
		return c, fmt.Errorf("simulate: --rules %s was tuned for a cluster of %s nodes, the trace's cluster is %s nodes: replaying on another machine is not supported (give --cluster or --nodes/--slots-per-node matching the rule set, or tune on this trace)",
			path, describe(len(rs.Cluster), func(i int) (int, int) { return rs.Cluster[i].Count, rs.Cluster[i].Slots }),
			describe(len(c.Groups), func(i int) (int, int) { return c.Groups[i].Count, c.Groups[i].Slots }))
	}
	out := sim.Cluster{Name: c.Name, Groups: make([]sim.NodeGroup, len(c.Groups)), Partitions: c.Partitions}
	for i, g := range c.Groups {
		g.Model, g.GFLOPS = rs.Cluster[i].Model, rs.Cluster[i].GFLOPS
		out.Groups[i] = g
	}
	return out, nil
}

func (r simulateReport) writeText(c *cli.Context) error {
	w := tabwriter.NewWriter(c.App.Writer, 0, 0, 2, ' ', 0)
	row := func(k, format string, v ...any) { fmt.Fprintf(w, "%s\t"+format+"\n", append([]any{k}, v...)...) }
	s := r.Scores
	row("trace", "%s", r.Trace)
	row("policy", "%s %v", r.Policy, r.Params)
	row("cluster", "%d nodes, %d slots, %s, period %d s", r.Nodes, r.Slots, r.Scheduler, r.PeriodS)
	row("jobs", "%d", s.Jobs)
	for _, o := range objectives.All() {
		v := o.Text(o.Of(s))
		switch o.Name {
		case objectives.Makespan:
			v += fmt.Sprintf(" (%dd %02dh %02dm %02ds)", s.Makespan/86400, s.Makespan%86400/3600, s.Makespan%3600/60, s.Makespan%60)
		case objectives.Boots:
			v += fmt.Sprintf(" (%d failed)", r.BootFailures)
		}
		row(o.Name, "%s", v)
	}
	for _, p := range r.parts {
		row("partition "+p.Name, "%d nodes, %d jobs, %d off_node_seconds, %d reconfigurations, %.3f kWh",
			p.Nodes, p.Jobs, p.OffNodeSeconds, p.Reconfigurations, p.EnergyKWh)
	}
	row("ignored_commands", "%d", r.IgnoredCommands)
	row("sim_seconds", "%.3f", r.SimSeconds)
	return w.Flush()
}
