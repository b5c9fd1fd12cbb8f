package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/internal/atomicfile"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/replay"
	"github.com/ecotune/ecotune/reports"
	"github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/sim"
	"github.com/ecotune/ecotune/tuner"
	"github.com/ecotune/ecotune/tuner/pick"
	"github.com/ecotune/ecotune/tuner/scoring"
	"github.com/ecotune/ecotune/tuner/search"
)

// Job states.
const (
	Queued  = "queued"
	Running = "running"
	Done    = "done"
	Failed  = "failed"
	Aborted = "aborted"
)

// Job kinds.
const (
	KindTune     = "tune"
	KindSimulate = "simulate"
)

// Request is what a page asks for: a tuning run or a simulation. It is
// kept in job.json, so a restarted server runs exactly the same thing.
type Request struct {
	Kind      string            `json:"kind"`
	Trace     string            `json:"trace"` // trace ID, or EmbeddedTrace
	Policy    string            `json:"policy"`
	Scheduler string            `json:"scheduler"`
	Seed      int64             `json:"seed"`
	Set       map[string]string `json:"set,omitempty"` // simulate: parameter values
	// Tune's settings.
	Evaluations int      `json:"evaluations,omitempty"`
	Generations int      `json:"generations,omitempty"`
	Population  int      `json:"population,omitempty"`
	Islands     int      `json:"islands,omitempty"`
	Presets     []string `json:"presets,omitempty"`
	// Policies, two or more, are tuned each in turn and compared, as
	// `ecotune tune --policies` does; Policy is then "".
	Policies []string `json:"policies,omitempty"`
	// Cluster is "" for the trace header's nodes with the built-in power
	// model Model ("" the default, escs), or ClusterFile for the cluster
	// file clusterFile in the run's directory; ClusterText is that file's
	// text until the run is submitted.
	Cluster     string `json:"cluster,omitempty"`
	Model       string `json:"model,omitempty"`
	ClusterText string `json:"-"`
}

// Cluster choices of a Request.
const (
	ClusterTrace = "trace"
	ClusterFile  = "file"
)

// defaultModel is the power model of a cluster from the trace header
// (sim.ClusterSpec's default).
const defaultModel = "escs"

// clusterFile is a run's cluster file in its directory.
const clusterFile = "cluster.yaml"

// PolicyText names the request's policy, or its policies.
func (r Request) PolicyText() string {
	if len(r.Policies) > 0 {
		return strings.Join(r.Policies, ",")
	}
	return r.Policy
}

// Job is one run of the workbench as job.json stores it.
type Job struct {
	ID        string    `json:"id"`
	Request   Request   `json:"request"`
	TraceName string    `json:"trace_name"`
	State     string    `json:"state"`
	Error     string    `json:"error,omitempty"`
	Created   time.Time `json:"created"`
	// Command is the equivalent command line.
	Command []string `json:"command"`
	// ResumedAt is the generation a restarted server resumed the tune
	// from (its checkpoint's), 0 when it never was.
	ResumedAt int `json:"resumed_at,omitempty"`
	Progress
}

// Progress is a running tune's last generation.
type Progress struct {
	Generation  int     `json:"generation"`
	Generations int     `json:"generations"`
	Evaluations int     `json:"evaluations"`
	Budget      int     `json:"budget"`
	Hypervolume float64 `json:"hypervolume"` // 0 until known
	// Of a tuning of several policies: the one tuned now, and how many
	// of Steps are done before it.
	Policy string `json:"policy,omitempty"`
	Step   int    `json:"step,omitempty"`
	Steps  int    `json:"steps,omitempty"`
}

// Percent is the progress bar's value: generations, or evaluations
// against the budget when that is nearer to the end.
func (p Progress) Percent() int {
	f := 0.0
	if p.Generations > 0 {
		f = float64(p.Generation) / float64(p.Generations)
	}
	if p.Budget > 0 {
		f = math.Max(f, float64(p.Evaluations)/float64(p.Budget))
	}
	if p.Steps > 0 {
		f = (float64(p.Step) + math.Min(1, f)) / float64(p.Steps)
	}
	return int(math.Min(100, math.Round(100*f)))
}

// job is a Job with what only the running server knows.
type job struct {
	Job
	cancel  context.CancelFunc
	aborted bool
	done    chan struct{}
}

// jobFile is serve's record of a job in its directory.
const jobFile = "job.json"

// runSubdir is the tuner's run directory inside a job's directory.
const runSubdir = "run"

// manager runs jobs, at most cap(sem) at once, and tells subscribers.
type manager struct {
	s    *Server
	mu   sync.Mutex
	jobs map[string]*job
	sem  chan struct{}
	subs map[chan []byte]struct{}
	ctx  context.Context // the server's life
	wg   sync.WaitGroup
}

func (m *manager) dir(id string) string { return filepath.Join(m.s.data, "runs", id) }

// load lists the jobs in the data directory and restarts those that were
// queued or running (a tune resumes from its checkpoint).
func (m *manager) load() error {
	entries, err := os.ReadDir(filepath.Join(m.s.data, "runs"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("serve: %w", err)
	}
	var restart []*job
	for _, e := range entries {
		if !e.IsDir() || !validID(e.Name()) {
			continue
		}
		var j Job
		if err := run.ReadJSON(filepath.Join(m.dir(e.Name()), jobFile), &j); err != nil {
			fmt.Fprintf(m.s.log, "serve: skipping run %s: %v\n", e.Name(), err)
			continue
		}
		jb := &job{Job: j, done: make(chan struct{})}
		m.jobs[j.ID] = jb
		switch j.State {
		case Queued, Running:
			jb.State = Queued
			restart = append(restart, jb)
		default:
			close(jb.done)
		}
	}
	sort.Slice(restart, func(a, b int) bool { return restart[a].Created.Before(restart[b].Created) })
	for _, jb := range restart {
		m.start(jb)
	}
	return nil
}

// submit records a new job and queues it.
func (m *manager) submit(req Request, traceName, traceFile string) (*Job, error) {
	id, err := newID()
	if err != nil {
		return nil, err
	}
	jb := &job{Job: Job{ID: id, Request: req, TraceName: traceName, State: Queued, Created: time.Now().UTC(), Command: m.s.command(req, traceFile, m.dir(id))}, done: make(chan struct{})}
	rd, err := m.s.sub(runsDir + id)
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	if req.Cluster == ClusterFile {
		if err := rd.WriteFile(clusterFile, []byte(req.ClusterText), atomicfile.Options{}); err != nil {
			os.RemoveAll(m.dir(id))
			return nil, fmt.Errorf("serve: %w", err)
		}
	}
	j := jb.Job
	if err := m.save(jb); err != nil {
		return nil, err
	}
	m.mu.Lock()
	m.jobs[id] = jb
	m.mu.Unlock()
	m.start(jb)
	return &j, nil
}

func (m *manager) start(jb *job) {
	ctx, cancel := context.WithCancel(m.ctx)
	m.mu.Lock()
	jb.cancel = cancel
	m.mu.Unlock()
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		defer close(jb.done)
		defer cancel()
		select {
		case m.sem <- struct{}{}:
		case <-ctx.Done():
			m.finish(jb, nil, false)
			return
		}
		defer func() { <-m.sem }()
		if ctx.Err() != nil {
			m.finish(jb, nil, false)
			return
		}
		m.update(jb, func(j *Job) { j.State = Running })
		var err error
		interrupted := false
		func() {
			defer func() {
				if r := recover(); r != nil {
					fmt.Fprintf(m.s.log, "serve: run %s: panic: %v\n", jb.ID, r)
					err = fmt.Errorf("internal error (see the server's log)")
				}
			}()
			if jb.Request.Kind == KindTune {
				interrupted, err = m.tune(ctx, jb)
			} else {
				err = m.simulate(ctx, jb)
				interrupted = err != nil && ctx.Err() != nil
			}
		}()
		// The tuner writes by path, with the umask's modes.
		if rerr := m.s.restrict(runsDir + jb.ID); rerr != nil {
			fmt.Fprintf(m.s.log, "serve: run %s: %v\n", jb.ID, rerr)
		}
		m.finish(jb, err, !interrupted)
	}()
}

// finish sets a job's final state: done or failed when it ended, aborted
// when asked; a job the server's shutdown stopped stays as it was on
// disk (queued or running), to be resumed at the next start.
func (m *manager) finish(jb *job, err error, ended bool) {
	m.mu.Lock()
	aborted := jb.aborted
	m.mu.Unlock()
	switch {
	case aborted:
		m.update(jb, func(j *Job) { j.State = Aborted })
	case !ended:
		return // shutdown
	case err != nil:
		m.update(jb, func(j *Job) { j.State, j.Error = Failed, err.Error() })
	default:
		m.update(jb, func(j *Job) { j.State = Done })
	}
}

// update changes a job, saves it and tells the subscribers.
func (m *manager) update(jb *job, f func(*Job)) {
	m.mu.Lock()
	f(&jb.Job)
	m.mu.Unlock()
	if err := m.save(jb); err != nil {
		fmt.Fprintf(m.s.log, "serve: %v\n", err)
	}
	m.publish(jb)
}

func (m *manager) save(jb *job) error {
	m.mu.Lock()
	j := jb.Job
	m.mu.Unlock()
	return m.writeJSON(j.ID, jobFile, &j)
}

// runsDir is the data directory's directory of runs, as a prefix.
const runsDir = "runs/"

// writeJSON writes v as JSON to name in the run id's directory, through
// the data directory's root (0600).
func (m *manager) writeJSON(id, name string, v any) error {
	rd, err := m.s.sub(runsDir + id)
	if err != nil {
		return err
	}
	defer rd.Close()
	return rd.WriteJSON(name, v)
}

// event is what the runs page receives for each change.
type event struct {
	ID          string  `json:"id"`
	State       string  `json:"state"`
	Percent     int     `json:"percent"`
	Generation  int     `json:"generation"`
	Generations int     `json:"generations"`
	Evaluations int     `json:"evaluations"`
	Hypervolume float64 `json:"hypervolume"`
	Policy      string  `json:"policy,omitempty"`
	Step        int     `json:"step,omitempty"`
	Steps       int     `json:"steps,omitempty"`
	Error       string  `json:"error,omitempty"`
}

func eventOf(j *Job) []byte {
	b, _ := json.Marshal(event{ID: j.ID, State: j.State, Percent: j.Percent(), Generation: j.Generation, Generations: j.Generations,
		Evaluations: j.Evaluations, Hypervolume: j.Hypervolume, Policy: j.Policy, Step: j.Step, Steps: j.Steps, Error: j.Error})
	return b
}

func (m *manager) publish(jb *job) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b := eventOf(&jb.Job)
	for c := range m.subs {
		select {
		case c <- b:
		default: // a slow reader misses an update, not the next one
		}
	}
}

func (m *manager) subscribe() (chan []byte, []Job) {
	c := make(chan []byte, 64)
	m.mu.Lock()
	defer m.mu.Unlock()
	m.subs[c] = struct{}{}
	return c, m.listLocked()
}

func (m *manager) unsubscribe(c chan []byte) {
	m.mu.Lock()
	delete(m.subs, c)
	m.mu.Unlock()
}

// list returns the jobs, newest first.
func (m *manager) list() []Job {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.listLocked()
}

func (m *manager) listLocked() []Job {
	out := make([]Job, 0, len(m.jobs))
	for _, jb := range m.jobs {
		out = append(out, jb.Job)
	}
	sort.Slice(out, func(a, b int) bool {
		if !out[a].Created.Equal(out[b].Created) {
			return out[a].Created.After(out[b].Created)
		}
		return out[a].ID < out[b].ID
	})
	return out
}

func (m *manager) get(id string) (Job, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	jb, ok := m.jobs[id]
	if !ok {
		return Job{}, false
	}
	return jb.Job, true
}

// abort stops a queued or running job; it ends as aborted.
func (m *manager) abort(id string) bool {
	m.mu.Lock()
	jb, ok := m.jobs[id]
	if ok && (jb.State == Queued || jb.State == Running) {
		jb.aborted = true
		if jb.cancel != nil {
			jb.cancel()
		}
	}
	m.mu.Unlock()
	return ok
}

// remove aborts a job, waits for it and deletes its directory.
func (m *manager) remove(id string) (bool, error) {
	m.mu.Lock()
	jb, ok := m.jobs[id]
	m.mu.Unlock()
	if !ok {
		return false, nil
	}
	m.abort(id)
	<-jb.done
	m.mu.Lock()
	delete(m.jobs, id)
	m.mu.Unlock()
	if err := os.RemoveAll(m.dir(id)); err != nil {
		return true, fmt.Errorf("serve: deleting run %s: %w", id, err)
	}
	return true, nil
}

// monitor is a tuner.Monitor that feeds a job's progress; of a tuning
// of several policies, step counts the finished ones.
type monitor struct {
	m        *manager
	jb       *job
	resume   bool
	seen     *bool
	policies []string
	step     *int
}

func (mo monitor) Record(s *search.Status) error {
	hv := s.Hypervolume
	if math.IsNaN(hv) || math.IsInf(hv, 0) {
		hv = 0
	}
	first := !*mo.seen
	*mo.seen = true
	mo.m.update(mo.jb, func(j *Job) {
		if first && mo.resume {
			j.ResumedAt = s.Generation
		}
		j.Progress = Progress{Generation: s.Generation, Generations: s.Generations, Evaluations: s.Evaluations, Budget: s.Budget, Hypervolume: hv}
		if n := len(mo.policies); n > 0 {
			k := min(*mo.step, n-1)
			j.Policy, j.Step, j.Steps = mo.policies[k], k, n
		}
	})
	return nil
}
func (monitor) Note(string) {}

// Done counts a finished search (one policy's, of several).
func (mo monitor) Done() {
	if mo.step != nil {
		*mo.step++
	}
}

// tune runs a tuning job as `ecotune tune` does, resuming from the
// checkpoint when one is there; it says whether it was interrupted.
func (m *manager) tune(ctx context.Context, jb *job) (bool, error) {
	o, t, err := m.s.tuneOptions(jb.Request, m.dir(jb.ID), jb.Command)
	if err != nil {
		return false, err
	}
	if len(jb.Request.Policies) > 0 {
		return m.tunePolicies(ctx, jb, o, t)
	}
	if _, err := os.Stat(run.Dir(t.Dir).Checkpoint()); err == nil {
		t.Resume = true
	} else {
		t.Force = true
	}
	o.Monitor = monitor{m: m, jb: jb, resume: t.Resume, seen: new(bool)}
	out, err := tuner.Tune(ctx, o, t)
	if err != nil {
		if ctx.Err() != nil {
			return true, err
		}
		return false, err
	}
	if out.Interrupted {
		return true, nil
	}
	if _, err := reports.Write(t.Dir, reports.Options{Force: true}); err != nil {
		return false, fmt.Errorf("the run is done, but its report failed: %w", err)
	}
	return false, nil
}

// tunePolicies runs a tuning of several policies as `ecotune tune
// --policies` does (tuner.TunePolicies, then reports.WritePoliciesRun),
// resuming the finished and interrupted policies' runs after a restart.
func (m *manager) tunePolicies(ctx context.Context, jb *job, o tuner.Options, t run.Target) (bool, error) {
	pols := jb.Request.Policies
	step := 0
	if _, err := os.Stat(t.Dir); err == nil {
		t.Resume = true
		for _, p := range pols { // the runs kept are the first ones
			var meta tuner.RunMeta
			if run.ReadJSON(filepath.Join(t.Dir, p, tuner.RunJSON), &meta) != nil || meta.Interrupted {
				break
			}
			step++
		}
	} else {
		t.Force = true
	}
	o.Monitor = monitor{m: m, jb: jb, resume: t.Resume, seen: new(bool), policies: pols, step: &step}
	s, err := tuner.TunePolicies(ctx, o, t, pols)
	if err != nil {
		return ctx.Err() != nil, err
	}
	if s.Interrupted {
		return true, nil
	}
	if _, err := reports.WritePoliciesRun(t.Dir, s, true); err != nil {
		return false, fmt.Errorf("the runs are done, but their report failed: %w", err)
	}
	return false, nil
}

// tuneOptions builds tuner.Options and the target from a request, with
// `ecotune tune`'s defaults.
func (s *Server) tuneOptions(req Request, dir string, command []string) (tuner.Options, run.Target, error) {
	var o tuner.Options
	var t run.Target
	tr, name, file, err := s.openTrace(req.Trace)
	if err != nil {
		return o, t, err
	}
	objs, err := scoring.ParseObjectives(defaultObjectives())
	if err != nil {
		return o, t, err
	}
	for _, p := range req.Presets {
		pr, err := pick.ParsePreset(p)
		if err != nil {
			return o, t, err
		}
		o.Presets = append(o.Presets, pr)
	}
	if req.Cluster == ClusterFile {
		cl, err := sim.LoadCluster(filepath.Join(dir, clusterFile))
		if err != nil {
			return o, t, err
		}
		o.Cluster = &cl
	}
	o.Policy, o.Trace, o.Split, o.Objectives = req.Policy, tr, run.Holdout(0.7), objs
	o.Sim = sim.Options{Scheduler: req.Scheduler}
	o.Settings = search.Settings{Generations: req.Generations, Evaluations: req.Evaluations, Seed: req.Seed, Workers: s.workers}
	o.Method = search.NSGA2{Population: req.Population, Islands: req.Islands, MigrationEvery: search.DefaultNSGA2().MigrationEvery}
	t.Dir = filepath.Join(dir, runSubdir)
	t.Provenance = run.Provenance{Trace: name, TraceFile: file, Command: command, Version: s.version}
	return o, t, nil
}

func defaultObjectives() string {
	s := ""
	for i, o := range scoring.DefaultObjectives() {
		if i > 0 {
			s += ","
		}
		s += o.Name
	}
	return s
}

// SimResult is a simulation's outcome (result.json): what `ecotune
// simulate --json` prints.
type SimResult = replay.Result

const simResultFile = "result.json"

// simulate replays the trace once, as `ecotune simulate` does.
func (m *manager) simulate(ctx context.Context, jb *job) error {
	req := jb.Request
	tr, name, _, err := m.s.openTrace(req.Trace)
	if err != nil {
		return err
	}
	pspec, err := policy.Lookup(req.Policy)
	if err != nil {
		return err
	}
	cfg, err := policy.ParseSet(pspec, setArgs(req.Set))
	if err != nil {
		return err
	}
	cfg.Seed = req.Seed
	if _, err := policy.New(cfg); err != nil {
		return err
	}
	spec := sim.ClusterSpec{Model: req.Model}
	if req.Cluster == ClusterFile {
		spec = sim.ClusterSpec{File: filepath.Join(m.dir(jb.ID), clusterFile)}
	}
	cluster, err := spec.Resolve(tr.Meta)
	if err != nil {
		return err
	}
	res, err := replay.Run(ctx, replay.TraceJobs(tr), replay.Setup{Trace: name, Config: cfg, Cluster: cluster,
		Scheduler: req.Scheduler, Period: sim.DefaultPeriod, Seed: req.Seed, Breakdowns: true})
	if err != nil {
		return err
	}
	return m.writeJSON(jb.ID, simResultFile, &res)
}

// setArgs turns parameter values into `--set name=value` arguments, in
// name order.
func setArgs(set map[string]string) []string {
	var out []string
	for k, v := range set {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// openTrace reads a trace by ID: its name, the file (empty for the
// embedded trace).
func (s *Server) openTrace(id string) (*datasets.Trace, string, string, error) {
	if id == EmbeddedTrace || id == "" {
		tr, err := datasets.Default()
		if err != nil {
			return nil, "", "", err
		}
		return tr, tr.Meta.Name, "", nil
	}
	if !validID(id) {
		return nil, "", "", fmt.Errorf("no trace %q", id)
	}
	info, err := s.traceInfo(id)
	if err != nil {
		return nil, "", "", err
	}
	path := filepath.Join(s.data, "traces", id, traceFile)
	tr, err := datasets.ReadParquetFile(path)
	if err != nil {
		return nil, "", "", err
	}
	return tr, info.Name, path, nil
}

// command is the command line equivalent to a request.
func (s *Server) command(req Request, traceFile, dir string) []string {
	c := []string{"ecotune", req.Kind}
	if traceFile != "" {
		c = append(c, "--trace", traceFile)
	}
	if len(req.Policies) > 0 {
		c = append(c, "--policies", strings.Join(req.Policies, ","))
	} else {
		c = append(c, "--policy", req.Policy)
	}
	c = append(c, "--scheduler", req.Scheduler, "--seed", strconv.FormatInt(req.Seed, 10))
	switch {
	case req.Cluster == ClusterFile:
		c = append(c, "--cluster", filepath.Join(dir, clusterFile))
	case req.Model != "":
		c = append(c, "--model", req.Model)
	}
	if req.Kind == KindSimulate {
		for _, a := range setArgs(req.Set) {
			c = append(c, "--set", a)
		}
		return c
	}
	c = append(c, "--evaluations", strconv.Itoa(req.Evaluations), "--generations", strconv.Itoa(req.Generations),
		"--population", strconv.Itoa(req.Population), "--islands", strconv.Itoa(req.Islands), "--migration", strconv.Itoa(search.DefaultNSGA2().MigrationEvery))
	for _, p := range req.Presets {
		c = append(c, "--preset", p)
	}
	return append(c, "-o", filepath.Join(dir, runSubdir))
}
