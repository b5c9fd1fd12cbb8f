package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
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
	calls    int
	hook     func(f *fakeSlurm, call int) // before each snapshot, locked
}

func (f *fakeSlurm) Snapshot(context.Context) (*Snapshot, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if f.hook != nil {
		f.hook(f, f.calls)
	}
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
	clock := &fakeClock{now: time.Unix(1030, 0), stopAt: 16, cancel: cancel}
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
	if len(recs) != 16 || recs[0].Error == "" || recs[3].Error != "" {
		t.Fatalf("%d records, first error %q, fourth %q", len(recs), recs[0].Error, recs[3].Error)
	}
	// Cycles at 1030, 1031, 1033 (failed), then 1037, 1042, ..., 1097:
	// the history starts at the first cycle that read Slurm, the nodes
	// idle since 1037 reach 60 s at 1097, and that cycle powers n1, n2
	// down (n3 is excluded).
	if len(f.downs) != 1 || strings.Join(f.downs[0], ",") != "n1,n2" {
		t.Errorf("power downs %v, want [[n1 n2]]", f.downs)
	}
}

// A failing command is logged with its error, counted, and the loop goes
// on.
func TestRunCommandFails(t *testing.T) {
	f := &fakeSlurm{nodes: threeIdle(), failCmd: true}
	ctx, cancel := context.WithCancel(context.Background())
	clock := &fakeClock{now: time.Unix(1100, 0), stopAt: 15, cancel: cancel}
	log := &syncBuffer{}
	m := NewMetrics()
	d, err := New(Config{Rules: fakeRules(t), Source: f, Actuator: f, Log: log, Now: clock.Now, Sleep: clock.Sleep, Metrics: m, Logf: func(string, ...any) {}})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Run(ctx, false); err != nil {
		t.Fatalf("Run: %v", err)
	}
	// The nodes are due at 1160 (cycle 13 of 15): each of the last three
	// cycles fails to power them down, logs it and goes on.
	failed := 0
	for _, r := range log.records(t) {
		if len(r.Commands) == 1 && r.Commands[0].Error != "" && r.Error != "" {
			failed++
		}
	}
	if failed != 3 {
		t.Errorf("%d cycles with a failed power_down logged, want 3", failed)
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

// A restart with the same state directory continues the feature
// history; a dry run logs its commands and carries none out.
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
	if recs := log.records(t); len(recs) != 1 || len(recs[0].Commands) != 0 {
		t.Fatalf("first cycle: records %+v, want one with no command (idle since now)", recs)
	}
	start := d.History().F.Start()
	clock.now = clock.now.Add(time.Hour)
	d2, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := d2.Run(context.Background(), true); err != nil {
		t.Fatal(err)
	}
	if g := d2.History().F; g.Start() != start || len(g.Recent()) != 1 {
		t.Errorf("restart: start %d (want %d), recent %+v (want job 9 once)", g.Start(), start, g.Recent())
	}
	// Idle for an hour since the first run: due, but only logged; one
	// node stays for the pending job 9.
	recs := log.records(t)
	last := recs[len(recs)-1]
	if len(last.Commands) != 1 || !last.Commands[0].DryRun || len(last.Commands[0].Nodes) != 2 || len(f.downs) != 0 {
		t.Errorf("dry run after the restart: commands %+v, carried out %v", last.Commands, f.downs)
	}
}

// The metrics endpoint serves the Prometheus text format: nodes per
// state, decisions, commands, and the energy saved while nodes are off.
func TestMetricsEndpoint(t *testing.T) {
	f := &fakeSlurm{nodes: threeIdle()}
	ctx, cancel := context.WithCancel(context.Background())
	clock := &fakeClock{now: time.Unix(1100, 0), stopAt: 15, cancel: cancel}
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
	// Cycles at 1100, ..., 1160 (three idle nodes powered down), 1165 and
	// 1170 (three off): the interval 1165–1170 counts, 5 s × 3 nodes × (150 − 2) W
	// = 2220 Ws = 0.6167 Wh.
	for _, want := range []string{
		`ecotune_nodes{state="off"} 3`,
		`ecotune_decisions_total 15`,
		`ecotune_commands_total{dry_run="false",verb="power_down"} 3`,
		`ecotune_energy_saved_wh_total 0.6166`,
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("metrics lack %q:\n%s", want, body)
		}
	}
}

// Every logged cycle, its cluster state handed to `ecotune decide`'s
// code (policy.ParseState, policy.DecideState), gives the decision the
// daemon took: the daemon is decide, cycle after cycle.
func TestLoggedStateDecidesAlike(t *testing.T) {
	f := &fakeSlurm{nodes: threeIdle(), jobs: []Job{{ID: 4, CPUs: 1, Submit: 1090, Running: true, Nodes: []string{"n1"}, Start: 1095, TimeLimit: 600}}}
	f.nodes[0].Power, f.nodes[0].AllocCPUs = policy.Busy, 1
	ctx, cancel := context.WithCancel(context.Background())
	clock := &fakeClock{now: time.Unix(1100, 0), stopAt: 20, cancel: cancel}
	log := &syncBuffer{}
	rs := fakeRules(t)
	d, err := New(Config{Rules: rs, Source: f, Actuator: f, Log: log, LogState: true, Now: clock.Now, Sleep: clock.Sleep, Logf: func(string, ...any) {}})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Run(ctx, false); err != nil {
		t.Fatal(err)
	}
	decided := 0
	for i, r := range log.records(t) {
		data, err := json.Marshal(r.State)
		if err != nil || r.State == nil {
			t.Fatalf("record %d: state %v, %v", i, r.State, err)
		}
		v, err := policy.ParseState(data, rs)
		if err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
		out, err := policy.DecideState(rs, v)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(&out, r.Decision) {
			t.Errorf("record %d: decide says %+v, the daemon %+v", i, out, r.Decision)
		}
		if len(out.PowerOff) > 0 {
			decided++
		}
	}
	if decided == 0 {
		t.Error("no cycle powered anything down: the test compares empty decisions only")
	}
}

// A job that lands on a node between the poll and the power_down keeps
// the node up: the daemon reads Slurm again just before the command.
func TestRecheckBeforePowerDown(t *testing.T) {
	// Cycles at 1100, 1105, ...: the nodes are due at 1160, the 13th
	// poll; the 14th snapshot is the look just before the command, and
	// by then a job runs on n2.
	f := &fakeSlurm{nodes: threeIdle(), hook: func(f *fakeSlurm, call int) {
		if call == 14 {
			f.nodes[1].Power, f.nodes[1].AllocCPUs = policy.Busy, 1
			f.jobs = append(f.jobs, Job{ID: 1, Running: true, CPUs: 1, Nodes: []string{"n2"}, Submit: 1160, Start: 1160})
		}
	}}
	ctx, cancel := context.WithCancel(context.Background())
	clock := &fakeClock{now: time.Unix(1100, 0), stopAt: 13, cancel: cancel}
	log := &syncBuffer{}
	d, err := New(Config{Rules: fakeRules(t), Source: f, Actuator: f, Log: log, Now: clock.Now, Sleep: clock.Sleep, Logf: func(string, ...any) {}})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Run(ctx, false); err != nil {
		t.Fatal(err)
	}
	if len(f.downs) != 1 || strings.Join(f.downs[0], ",") != "n1,n3" {
		t.Errorf("powered down %v, want [[n1 n3]]", f.downs)
	}
	recs := log.records(t)
	last := recs[len(recs)-1]
	if len(last.Refused) != 1 || last.Refused[0].Node != "n2" || !strings.Contains(last.Refused[0].Why, "changed since the poll") {
		t.Errorf("refused %+v, want n2 changed since the poll", last.Refused)
	}
}

// Serve serves the metrics on a loopback port until stopped: the text
// format at /metrics, 404 elsewhere, nothing once stopped.
func TestMetricsServe(t *testing.T) {
	m := NewMetrics()
	var where string
	stop, err := m.Serve("127.0.0.1:0", func(format string, args ...any) { where = fmt.Sprintf(format, args...) })
	if err != nil {
		t.Fatal(err)
	}
	url := strings.TrimPrefix(where, "metrics at ")
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("logged %q, want the address", where)
	}
	client := &http.Client{Timeout: 5 * time.Second}
	resp, err := client.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "ecotune_decisions_total 0") {
		t.Errorf("GET %s: %s\n%s", url, resp.Status, body)
	}
	if resp, err := client.Get(strings.TrimSuffix(url, "metrics") + "other"); err != nil || resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET /other: %v %v, want 404", resp, err)
	} else {
		resp.Body.Close()
	}
	stop()
	if resp, err := client.Get(url); err == nil {
		resp.Body.Close()
		t.Error("metrics still served after stop")
	}
	if _, err := m.Serve("127.0.0.1:-1", func(string, ...any) {}); err == nil || !strings.Contains(err.Error(), "--metrics") {
		t.Errorf("a bad address: %v", err)
	}
}
