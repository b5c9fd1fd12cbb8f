package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/ecotune/ecotune/policy"
)

// Config is what a daemon runs with.
type Config struct {
	Rules    *policy.RuleSet
	Source   Source
	Actuator Actuator // nil with DryRun
	NodeMap  *NodeMap // nil: map groups by CPUs per node
	// Exclude names nodes never powered down or up.
	Exclude     []string
	AllowResize bool
	DryRun      bool
	// MaxBooting caps the nodes booting at once (0: the rule set's
	// max_booting parameter if it has one, else no limit).
	MaxBooting int
	// StateDir keeps the feature state between runs ("" keeps none).
	StateDir string
	// Log receives the decision log, one JSON object per line (nil: none).
	Log io.Writer
	// LogState puts each cycle's cluster state (the input of `ecotune
	// decide`) in the decision log.
	LogState bool
	// Logf prints human-readable notices (nil: standard error).
	Logf    func(format string, args ...any)
	Metrics *Metrics // nil: none
	// Now and Sleep stand in for the clock in tests (nil: real time).
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
	// TZOffset is local time − UTC in seconds for hour-of-day features
	// (nil: the machine's zone now).
	TZOffset *int
	// CommandTimeout bounds one cycle's Slurm calls (0: the period, at
	// least 30 s).
	CommandTimeout time.Duration
}

// Daemon is the live loop.
type Daemon struct {
	cfg      Config
	policy   policy.Policy
	guard    Guard
	assign   *Assignment
	history  *History
	loaded   *History // read from the state directory, used once the nodes are known
	failures int      // consecutive failed cycles
	logMu    sync.Mutex
	decision policy.Decision
}

// New checks the configuration and makes a daemon. The cluster mapping
// is made at the first cycle that reads Slurm.
func New(cfg Config) (*Daemon, error) {
	if cfg.Rules == nil || cfg.Source == nil {
		return nil, errors.New("daemon: a rule set and a source are needed")
	}
	if cfg.Actuator == nil && !cfg.DryRun {
		return nil, errors.New("daemon: no actuator (use dry run)")
	}
	p, err := cfg.Rules.NewPolicy()
	if err != nil {
		return nil, err
	}
	cfg.setDefaults()
	d := &Daemon{cfg: cfg, policy: p, guard: Guard{Exclude: map[string]bool{}, MaxBooting: cfg.MaxBooting}}
	for _, n := range cfg.Exclude {
		d.guard.Exclude[n] = true
	}
	if d.guard.MaxBooting == 0 {
		if mb, ok := cfg.Rules.Policy.Params["max_booting"]; ok && mb > 0 {
			d.guard.MaxBooting = int(mb)
		}
	}
	if cfg.StateDir != "" {
		if err := d.loadState(); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// setDefaults fills in the clock, sleep, log, time zone and command
// timeout a configuration leaves unset.
func (cfg *Config) setDefaults() {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Sleep == nil {
		cfg.Sleep = sleepCtx
	}
	if cfg.Logf == nil {
		cfg.Logf = func(format string, args ...any) { fmt.Fprintf(os.Stderr, "ecotune daemon: "+format+"\n", args...) }
	}
	if cfg.TZOffset == nil {
		_, off := time.Now().Zone()
		cfg.TZOffset = &off
	}
	if cfg.CommandTimeout <= 0 {
		cfg.CommandTimeout = max(time.Duration(cfg.Rules.Period)*time.Second, 30*time.Second)
	}
}

// loadState makes the state directory and reads the feature history it
// holds, if any; the first cycle takes it up when it is of the same nodes.
func (d *Daemon) loadState() error {
	if err := os.MkdirAll(d.cfg.StateDir, 0o755); err != nil {
		return fmt.Errorf("state dir: %w", err)
	}
	h, ok, err := LoadHistory(d.cfg.StateDir)
	if err != nil {
		return err
	}
	if ok {
		d.loaded = h
	}
	return nil
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// ErrStartup marks errors that stop the daemon at start: the rule set's
// cluster does not match Slurm's.
var ErrStartup = errors.New("startup")

// Run runs cycles every period until ctx is done (a signal): the cycle
// under way is finished first. Slurm being unreachable or a command
// failing is logged and retried with backoff; only a cluster that does
// not match the rule set stops it. With once, it runs one cycle.
func (d *Daemon) Run(ctx context.Context, once bool) error {
	period := time.Duration(d.cfg.Rules.Period) * time.Second
	for {
		start := d.cfg.Now()
		err := d.Cycle(context.WithoutCancel(ctx))
		if errors.Is(err, ErrStartup) {
			return err
		}
		if once {
			return err
		}
		wait := period - d.cfg.Now().Sub(start)
		if err != nil {
			d.failures++
			wait = backoff(period, d.failures)
			d.cfg.Logf("cycle failed (%d in a row), retrying in %s: %v", d.failures, wait, err)
		} else {
			if d.failures > 0 {
				d.cfg.Logf("Slurm answers again after %d failed cycles", d.failures)
			}
			d.failures = 0
		}
		if ctx.Err() != nil {
			return nil
		}
		if wait > 0 {
			if d.cfg.Sleep(ctx, wait) != nil {
				return nil
			}
		}
	}
}

// backoff is the wait after the k-th failure in a row: a second, doubled
// each time, at most four periods.
func backoff(period time.Duration, k int) time.Duration {
	w := time.Second << min(k-1, 20)
	return min(w, max(4*period, time.Second))
}

// Record is one line of the decision log.
type Record struct {
	Time     string              `json:"time"`
	Now      int64               `json:"now"`
	View     *Summary            `json:"view,omitempty"`
	Decision *policy.DecisionOut `json:"decision,omitempty"`
	Commands []Command           `json:"commands,omitempty"`
	Refused  []Refusal           `json:"refused,omitempty"`
	Events   []Event             `json:"events,omitempty"`
	Error    string              `json:"error,omitempty"`
	Warnings []string            `json:"warnings,omitempty"`
	DryRun   bool                `json:"dry_run,omitempty"`
	// State is the cluster state the view was built from: the input of
	// `ecotune decide`, which takes the same decision from it. In the log
	// only with Config.LogState.
	State *policy.State `json:"state,omitempty"`
}

// Summary is the View in a few numbers.
type Summary struct {
	Nodes        int `json:"nodes"`
	Off          int `json:"off"`
	Booting      int `json:"booting"`
	Idle         int `json:"idle"`
	Busy         int `json:"busy"`
	ShuttingDown int `json:"shutting_down"`
	Unavailable  int `json:"unavailable"`
	QueuedJobs   int `json:"queued_jobs"`
	QueuedSlots  int `json:"queued_slots"`
	RunningJobs  int `json:"running_jobs"`
	BusySlots    int `json:"busy_slots"`
	PoweredSlots int `json:"powered_slots"`
}

// Cycle reads the cluster, updates the features, decides and acts once.
func (d *Daemon) Cycle(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, d.cfg.CommandTimeout)
	defer cancel()
	now := d.cfg.Now()
	rec := &Record{Time: now.UTC().Format(time.RFC3339), Now: now.Unix(), DryRun: d.cfg.DryRun}
	err := d.cycle(ctx, now.Unix(), rec)
	if err != nil {
		rec.Error = err.Error()
		d.cfg.Metrics.slurmError()
	}
	d.writeRecord(rec)
	return err
}

// cycle is one Cycle: it records in rec what it saw, decided and did.
func (d *Daemon) cycle(ctx context.Context, now int64, rec *Record) error {
	snap, err := d.cfg.Source.Snapshot(ctx)
	if err != nil {
		return fmt.Errorf("reading Slurm: %w", err)
	}
	snap.Time = now
	if d.assign == nil {
		if err := d.mapCluster(now, snap, rec); err != nil {
			return err
		}
	}
	h := d.history
	if now < h.F.Now() {
		now = h.F.Now() // the clock went back: keep time monotonic
		snap.Time = now
	}
	if err := d.update(now, snap, rec); err != nil {
		return err
	}
	st := BuildState(d.cfg.Rules, d.assign, h, *d.cfg.TZOffset, snap)
	v, err := st.View(groupsFor(d.cfg.Rules, d.assign), d.cfg.Rules.Period)
	if err != nil {
		return fmt.Errorf("building the view: %w", err)
	}
	if d.cfg.LogState {
		rec.State = st
	}
	rec.View = summarize(v, snap, d.assign)
	d.cfg.Metrics.observe(rec.View, d.cfg.Rules, v)
	d.decision.Reset()
	d.policy.Decide(v, &d.decision)
	out := d.decision.Out(d.policy, v)
	rec.Decision = &out
	d.cfg.Metrics.decided()
	cmds, refused := d.guard.Translate(&d.decision, v, snap)
	rec.Refused, err = d.act(ctx, cmds, refused)
	for _, c := range cmds {
		if len(c.Nodes) > 0 || c.Error != "" {
			rec.Commands = append(rec.Commands, c)
		}
	}
	return err
}

// mapCluster maps the rule set's cluster onto Slurm's nodes at the first
// cycle, checks the excluded nodes and takes up the feature history of the
// state directory when it is of the same nodes. Its errors are
// ErrStartup.
func (d *Daemon) mapCluster(now int64, snap *Snapshot, rec *Record) error {
	a, err := Assign(d.cfg.Rules, snap.Nodes, d.cfg.NodeMap, d.cfg.AllowResize)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrStartup, err)
	}
	for _, w := range a.Warnings {
		d.cfg.Logf("warning: %s", w)
	}
	rec.Warnings = a.Warnings
	for _, n := range d.cfg.Exclude {
		if _, ok := a.Group[n]; !ok {
			return fmt.Errorf("%w: excluded node %s is not a managed node", ErrStartup, n)
		}
	}
	d.assign = a
	if h := d.loaded; h != nil && slices.Equal(h.Names, a.Order) {
		d.history = h
		d.cfg.Logf("continuing the feature history of %s (started %s, %d arrivals)", d.cfg.StateDir,
			time.Unix(h.F.Start(), 0).UTC().Format(time.RFC3339), len(h.F.Recent()))
	} else {
		if h != nil {
			d.cfg.Logf("warning: %s holds the history of other nodes (%d): starting a new one", d.cfg.StateDir, len(h.Names))
		}
		d.history = NewHistory(now, *d.cfg.TZOffset, a.Order)
	}
	d.loaded = nil
	return nil
}

// update clamps snap to the cluster's bounds, brings the feature history
// up to now and saves it in the state directory, recording the warnings
// and node events in rec.
func (d *Daemon) update(now int64, snap *Snapshot, rec *Record) error {
	h := d.history
	notes, err := clampSnapshot(snap, clusterSlots(groupsFor(d.cfg.Rules, d.assign)))
	if err != nil {
		return err
	}
	for _, n := range notes {
		d.cfg.Logf("warning: %s", n)
	}
	rec.Warnings = append(rec.Warnings, notes...)
	rec.Events = h.Update(now, snap.Nodes, snap.Jobs)
	for _, e := range rec.Events {
		d.cfg.Logf("%s: %s", e.Node, e.What)
		d.cfg.Metrics.resumeFailed()
	}
	if d.cfg.StateDir != "" {
		if err := h.Save(d.cfg.StateDir); err != nil {
			d.cfg.Logf("saving the feature state: %v", err)
		}
	}
	return nil
}

// act runs the commands (a dry run only marks them), a power-down only
// on the nodes still idle when Slurm is read again. It returns refused
// with the refusals of those rechecks, and the first error.
func (d *Daemon) act(ctx context.Context, cmds []Command, refused []Refusal) ([]Refusal, error) {
	var firstErr error
	for i := range cmds {
		c := &cmds[i]
		c.DryRun = d.cfg.DryRun
		if c.Verb == VerbPowerDown && !d.cfg.DryRun {
			more, err := d.recheck(ctx, c)
			if err != nil {
				firstErr = firstOf(firstErr, err)
				continue
			}
			refused = append(refused, more...)
			if len(c.Nodes) == 0 {
				continue
			}
		}
		if !d.cfg.DryRun {
			firstErr = firstOf(firstErr, d.execute(ctx, c))
		}
		d.cfg.Metrics.command(c)
	}
	return refused, firstErr
}

// recheck reads Slurm again before power-down c (a job may have landed on
// a node since the poll) and drops from c the nodes no longer idle.
func (d *Daemon) recheck(ctx context.Context, c *Command) ([]Refusal, error) {
	fresh, err := d.cfg.Source.Snapshot(ctx)
	if err != nil {
		c.Error = fmt.Sprintf("not run: reading Slurm again: %v", err)
		return nil, fmt.Errorf("%s: reading Slurm again: %w", c.Verb, err)
	}
	return d.guard.Recheck(c, fresh), nil
}

// execute runs command c with the actuator, recording and logging its
// error.
func (d *Daemon) execute(ctx context.Context, c *Command) error {
	var err error
	if c.Verb == VerbPowerDown {
		err = d.cfg.Actuator.PowerDown(ctx, c.Nodes)
	} else {
		err = d.cfg.Actuator.PowerUp(ctx, c.Nodes)
	}
	if err != nil {
		c.Error = err.Error()
		d.cfg.Logf("%s %v failed: %v", c.Verb, c.Nodes, err)
		return fmt.Errorf("%s: %w", c.Verb, err)
	}
	return nil
}

func firstOf(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

func summarize(v *policy.View, snap *Snapshot, a *Assignment) *Summary {
	s := &Summary{Nodes: len(a.Order), QueuedJobs: len(v.Queue), QueuedSlots: v.QueuedSlots,
		RunningJobs: len(v.Running), BusySlots: v.BusySlots, PoweredSlots: v.PoweredSlots}
	for i := range v.Nodes {
		switch v.Nodes[i].State {
		case policy.Off:
			s.Off++
		case policy.Booting:
			s.Booting++
		case policy.Idle:
			s.Idle++
		case policy.Busy:
			s.Busy++
		case policy.ShuttingDown:
			s.ShuttingDown++
		}
	}
	for _, n := range snap.Nodes {
		if _, ok := a.Group[n.Name]; ok && n.Unavailable != "" {
			s.Unavailable++
		}
	}
	return s
}

func (d *Daemon) writeRecord(rec *Record) {
	if d.cfg.Log == nil {
		return
	}
	b, err := json.Marshal(rec)
	if err != nil {
		d.cfg.Logf("decision log: %v", err)
		return
	}
	d.logMu.Lock()
	defer d.logMu.Unlock()
	if _, err := d.cfg.Log.Write(append(b, '\n')); err != nil {
		d.cfg.Logf("decision log: %v", err)
	}
}

// History returns the daemon's feature history (nil before the first
// cycle that read Slurm).
func (d *Daemon) History() *History { return d.history }
