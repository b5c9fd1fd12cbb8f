package daemon

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ecotune/ecotune/policy"
)

// fakeSlurm is a Source and Actuator in memory: nodes idle since the
// start, failures on demand.
type fakeSlurm struct {
	mu       sync.Mutex
	nodes    []Node
	jobs     []Job
	failRead int // the next failRead snapshots fail
	failCmd  bool
	downs    [][]string
	ups      [][]string
}

func (f *fakeSlurm) Snapshot(context.Context) (*Snapshot, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failRead > 0 {
		f.failRead--
		return nil, errors.New("slurm_load_node: Unable to contact slurm controller (connect failure)")
	}
	return &Snapshot{Nodes: append([]Node(nil), f.nodes...), Jobs: append([]Job(nil), f.jobs...)}, nil
}

func (f *fakeSlurm) PowerDown(_ context.Context, nodes []string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failCmd {
		return errors.New("scontrol: Invalid node state specified")
	}
	f.downs = append(f.downs, nodes)
	for i := range f.nodes {
		for _, n := range nodes {
			if f.nodes[i].Name == n {
				f.nodes[i].Power = policy.Off
			}
		}
	}
	return nil
}

func (f *fakeSlurm) PowerUp(_ context.Context, nodes []string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ups = append(f.ups, nodes)
	return nil
}

// fakeClock advances by each Sleep.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	sleeps []time.Duration
	stopAt int // cancel after this many sleeps
	cancel context.CancelFunc
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.sleeps = append(c.sleeps, d)
	n := len(c.sleeps)
	c.mu.Unlock()
	if n >= c.stopAt {
		c.cancel()
	}
	return ctx.Err()
}

func fakeRules(t *testing.T) *policy.RuleSet {
	return loopRules(t, "idle-timeout", 3, map[string]float64{"idle_timeout": 60})
}

func threeIdle() []Node {
	return []Node{{Name: "n1", CPUs: 1, Power: policy.Idle, LastBusy: 1000}, {Name: "n2", CPUs: 1, Power: policy.Idle, LastBusy: 1000},
		{Name: "n3", CPUs: 1, Power: policy.Idle, LastBusy: 1000}}
}

// Slurm unreachable for three cycles: each is logged, the waits back off
// (1, 2, 4 s), and deciding resumes; nodes idle 60 s go down once.
func TestRunBackoffAndResume(t *testing.T) {
	f := &fakeSlurm{nodes: threeIdle(), failRead: 3}
	ctx, cancel := context.WithCancel(context.Background())
	clock := &fakeClock{now: time.Unix(1030, 0), stopAt: 9, cancel: cancel}
	log := &syncBuffer{}
	tz := 0
	d, err := New(Config{Rules: fakeRules(t), Source: f, Actuator: f, Log: log, Now: clock.Now, Sleep: clock.Sleep, TZOffset: &tz,
		Exclude: []string{"n3"}, Logf: func(string, ...any) {}})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Run(ctx, false); err != nil {
		t.Fatalf("Run: %v", err)
	}
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second}
	for i, w := range want {
		if clock.sleeps[i] != w {
			t.Errorf("wait %d: %v, want %v (all %v)", i, clock.sleeps[i], w, clock.sleeps)
		}
	}
	recs := log.records(t)
	if len(recs) != 9 || recs[0].Error == "" || recs[3].Error != "" {
		t.Fatalf("%d records, first error %q, fourth %q", len(recs), recs[0].Error, recs[3].Error)
	}
	// Cycles at 1030, 1031, 1033 (failed), 1037, 1042, ..., 1062: the
	// nodes, idle since 1000, reach 60 s at 1060, and the cycle at 1062
	// powers n1, n2 down (n3 is excluded).
	if len(f.downs) != 1 || strings.Join(f.downs[0], ",") != "n1,n2" {
		t.Errorf("power downs %v, want [[n1 n2]]", f.downs)
	}
}

// A failing command is logged with its error, counted, and the loop goes
// on.
func TestRunCommandFails(t *testing.T) {
	f := &fakeSlurm{nodes: threeIdle(), failCmd: true}
	ctx, cancel := context.WithCancel(context.Background())
	clock := &fakeClock{now: time.Unix(1100, 0), stopAt: 3, cancel: cancel}
	log := &syncBuffer{}
	m := NewMetrics()
	d, err := New(Config{Rules: fakeRules(t), Source: f, Actuator: f, Log: log, Now: clock.Now, Sleep: clock.Sleep, Metrics: m, Logf: func(string, ...any) {}})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Run(ctx, false); err != nil {
		t.Fatalf("Run: %v", err)
	}
	recs := log.records(t)
	if len(recs) != 3 || len(recs[0].Commands) != 1 || recs[0].Commands[0].Error == "" {
		t.Fatalf("records %+v: want each cycle's failed power_down logged", recs)
	}
	if got := testutilCounter(t, m, "ecotune_command_failures_total"); got != 3 {
		t.Errorf("command failures %v, want 3", got)
	}
}

// A cluster that does not match the rule set stops the daemon at once.
func TestRunStartupMismatch(t *testing.T) {
	f := &fakeSlurm{nodes: threeIdle()[:2]}
	d, err := New(Config{Rules: fakeRules(t), Source: f, Actuator: f, Logf: func(string, ...any) {}})
	if err != nil {
		t.Fatal(err)
	}
	err = d.Run(context.Background(), false)
	if !errors.Is(err, ErrStartup) || !strings.Contains(err.Error(), "rule set has 3 nodes, Slurm cluster 2") {
		t.Errorf("Run: %v", err)
	}
}

// Dry run: the commands are logged, none is carried out; a restart with
// the same state directory continues the feature history.
func TestDryRunAndStateDir(t *testing.T) {
	f := &fakeSlurm{nodes: threeIdle(), jobs: []Job{{ID: 9, CPUs: 1, Submit: 1050}}}
	dir := t.TempDir()
	clock := &fakeClock{now: time.Unix(1100, 0)}
	log := &syncBuffer{}
	cfg := Config{Rules: fakeRules(t), Source: f, DryRun: true, Log: log, Now: clock.Now, StateDir: dir, Logf: func(string, ...any) {}}
	d, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Run(context.Background(), true); err != nil {
		t.Fatal(err)
	}
	recs := log.records(t)
	if len(recs) != 1 || len(recs[0].Commands) == 0 || !recs[0].Commands[0].DryRun || len(f.downs) != 0 {
		t.Fatalf("dry run: records %+v, downs %v", recs, f.downs)
	}
	start := d.Features().Start
	clock.now = clock.now.Add(time.Hour)
	d2, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := d2.Run(context.Background(), true); err != nil {
		t.Fatal(err)
	}
	if g := d2.Features(); g.Start != start || len(g.Recent) != 1 {
		t.Errorf("restart: start %d (want %d), recent %+v (want job 9 once)", g.Start, start, g.Recent)
	}
}

// The metrics endpoint serves the Prometheus text format: nodes per
// state, decisions, commands, and the energy saved while nodes are off.
func TestMetricsEndpoint(t *testing.T) {
	f := &fakeSlurm{nodes: threeIdle()}
	ctx, cancel := context.WithCancel(context.Background())
	clock := &fakeClock{now: time.Unix(1100, 0), stopAt: 3, cancel: cancel}
	m := NewMetrics()
	d, err := New(Config{Rules: fakeRules(t), Source: f, Actuator: f, Now: clock.Now, Sleep: clock.Sleep, Metrics: m, Logf: func(string, ...any) {}})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Run(ctx, false); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(m.Handler())
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	// Cycles at 1100 (three idle nodes powered down), 1105 and 1110 (three
	// off): the interval 1105–1110 counts, 5 s × 3 nodes × (150 − 2) W
	// = 2220 Ws = 0.6167 Wh.
	for _, want := range []string{
		`ecotune_nodes{state="off"} 3`,
		`ecotune_decisions_total 3`,
		`ecotune_commands_total{dry_run="false",verb="power_down"} 3`,
		`ecotune_energy_saved_wh_total 0.6166`,
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("metrics lack %q:\n%s", want, body)
		}
	}
}
