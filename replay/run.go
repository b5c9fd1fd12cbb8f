package replay

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
)

// Jobs is a trace to replay: its metadata, how many jobs it has (or an
// upper bound, which sizes the buffers) and its jobs handed over in trace
// order, a batch at a time, to fn.
type Jobs struct {
	Meta  datasets.Meta
	Count int
	Each  func(fn func([]datasets.Job) error) error
}

// TraceJobs is the jobs of tr, in memory.
func TraceJobs(tr *datasets.Trace) Jobs {
	return Jobs{Meta: tr.Meta, Count: len(tr.Jobs), Each: func(fn func([]datasets.Job) error) error { return fn(tr.Jobs) }}
}

// ParquetJobs streams the Parquet trace at path: its jobs are read when
// handed over, a batch at a time, never all in memory.
func ParquetJobs(path string) (Jobs, error) {
	meta, rows, err := datasets.ReadParquetFileMeta(path)
	if err != nil {
		return Jobs{}, err
	}
	// A real trace takes a byte a job or more: a footer that claims more
	// rows sizes no buffer by them.
	st, err := os.Stat(path)
	if err != nil {
		return Jobs{}, err
	}
	return Jobs{Meta: meta, Count: int(min(rows, st.Size())), Each: func(fn func([]datasets.Job) error) error {
		return datasets.ScanParquetFile(path, func(datasets.Meta, int64) error { return nil }, fn)
	}}, nil
}

// Setup is one replay's configuration.
type Setup struct {
	Trace   string // the trace's name, as the Result gives it
	Rules   string // the rule-set file Config came from, if any
	Config  policy.Config
	Cluster sim.Cluster
	// Scheduler is sim.FCFS, sim.EASY or sim.Conservative ("" is FCFS,
	// as sim.Options reads it).
	Scheduler  string
	UseRunTime bool
	// Period is the decision cycle in seconds; 0 consults the policy at
	// every event (sim.EveryEvent), unlike sim.Options.Period.
	Period       int64
	BootFailProb float64
	Seed         int64 // of boot failures (the policy's is Config.Seed)
	// Timeline and JobsFile name the files to write the timeline and the
	// per-job rows to (CSV, or Parquet by the extension); "" writes none.
	// Force replaces existing files.
	Timeline, JobsFile string
	Force              bool
	// Breakdowns scores the replay per user, group and partition too.
	Breakdowns bool
}

// options are the simulator's options of s.
func (s *Setup) options() sim.Options {
	opt := sim.Options{
		Scheduler: s.Scheduler, UseRunTime: s.UseRunTime, Period: s.Period,
		BootFailProb: s.BootFailProb, Seed: s.Seed, Timeline: s.Timeline != "",
		// Where jobs ran: for the jobs file, and for node-hours when nodes
		// differ in slots (else slots give them exactly).
		JobNodes: s.JobsFile != "" || s.Breakdowns && !sameSlots(s.Cluster),
		// Result.Jobs made on demand: 16 bytes a job, not 40.
		LeanJobs: true,
	}
	if opt.Period == 0 {
		opt.Period = sim.EveryEvent
	}
	return opt
}

// Run replays jobs once under setup and scores the replay, writing the
// timeline and jobs files it asks for. A cluster without partitions
// replays the jobs as they stream in (sim.Builder: the simulator's copy
// is the only one); one with partitions reads them into memory first.
// Errors name the policy, as the tuner's scorer's do.
func Run(ctx context.Context, jobs Jobs, setup Setup) (Result, error) {
	if _, err := policy.New(setup.Config); err != nil {
		return Result{}, err
	}
	// The scores' scratch space is made before the trace is read, as the
	// simulator's buffers are: big allocations late in a run, in a heap
	// the reading has fragmented, would need more address space.
	var scorer objectives.Scorer
	scorer.Reserve(jobs.Count)
	var o outcome
	if err := o.replay(ctx, jobs, &setup); err != nil {
		return Result{}, err
	}
	if err := o.writeFiles(&setup); err != nil {
		return Result{}, err
	}
	return o.result(&setup, &scorer)
}

// outcome is a replay's result and what made it.
type outcome struct {
	r       sim.Result
	elapsed float64         // the replay's wall time, in seconds
	s       *sim.Simulator  // a lean replay's, or
	tr      *datasets.Trace // a partitioned one's (the trace in memory)
}

// replay replays jobs under setup into o.
func (o *outcome) replay(ctx context.Context, jobs Jobs, setup *Setup) (err error) {
	opt := setup.options()
	if len(setup.Cluster.Partitions) > 0 {
		if o.tr, err = collect(jobs); err != nil {
			return err
		}
		o.elapsed, err = runPartitioned(ctx, o.tr, setup.Cluster, opt, setup.Config, &o.r)
		return err
	}
	if o.s, err = build(jobs, setup.Cluster, opt, setup.Config.Name); err != nil {
		return err
	}
	began := time.Now()
	if err := runOnce(ctx, o.s, setup.Config, &o.r); err != nil {
		return err
	}
	o.elapsed = time.Since(began).Seconds()
	return nil
}

// writeFiles writes the timeline and jobs files setup asks for.
func (o *outcome) writeFiles(setup *Setup) error {
	if setup.Timeline != "" {
		if err := sim.WriteTimelineFile(setup.Timeline, o.r.Timeline, setup.Force); err != nil {
			return err
		}
	}
	if setup.JobsFile != "" {
		return writeJobsFile(setup.JobsFile, o.s, o.tr, &o.r, setup.Force)
	}
	return nil
}

// result scores the replay.
func (o *outcome) result(setup *Setup, scorer *objectives.Scorer) (Result, error) {
	cfg, r := setup.Config, &o.r
	res := Result{
		Trace: setup.Trace, Rules: setup.Rules, Policy: cfg.Name, Params: cfg.Params, Scheduler: setup.Scheduler,
		PeriodS: setup.Period, Nodes: r.Nodes, Slots: r.Slots, Scores: scorer.Compute(r),
		BootFailures: r.BootFailures, IgnoredCommands: r.IgnoredCommands, SimSeconds: o.elapsed,
		PartitionScores: objectives.Partitions(r),
	}
	if !setup.Breakdowns {
		return res, nil
	}
	var err error
	if o.s == nil {
		res.Breakdowns, err = Breakdowns(o.tr, r)
	} else {
		res.Breakdowns, err = simulatorBreakdowns(o.s, r)
	}
	if err != nil {
		return Result{}, err
	}
	return res, nil
}

// errStopScan stops a scan of the trace whose jobs a simulator refused.
var errStopScan = errors.New("stop")

// build makes the simulator of jobs on cluster, reading them as they
// stream in.
func build(jobs Jobs, cluster sim.Cluster, opt sim.Options, policyName string) (*sim.Simulator, error) {
	b, err := sim.NewBuilder(jobs.Meta, cluster, opt, jobs.Count)
	if err != nil {
		return nil, fmt.Errorf("tuner: %s: %w", policyName, err)
	}
	var addErr error
	err = jobs.Each(func(batch []datasets.Job) error {
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

// collect reads jobs into memory.
func collect(jobs Jobs) (*datasets.Trace, error) {
	tr := &datasets.Trace{Meta: jobs.Meta}
	err := jobs.Each(func(batch []datasets.Job) error {
		tr.Jobs = append(tr.Jobs, batch...)
		return nil
	})
	return tr, err
}

// runOnce replays s once under cfg into r.
func runOnce(ctx context.Context, s *sim.Simulator, cfg policy.Config, r *sim.Result) error {
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

// runPartitioned replays tr on a cluster with partitions, one partition
// at a time (sim.Partitioned), into r; it returns the replay's time in
// seconds.
func runPartitioned(ctx context.Context, tr *datasets.Trace, cluster sim.Cluster, opt sim.Options, cfg policy.Config, r *sim.Result) (float64, error) {
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

// sameSlots reports whether every node of c has as many slots.
func sameSlots(c sim.Cluster) bool {
	for _, g := range c.Groups {
		if g.Slots != c.Groups[0].Slots {
			return false
		}
	}
	return true
}
