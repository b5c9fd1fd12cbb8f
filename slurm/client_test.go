package slurm

import (
	"context"
	"errors"
	"os/exec"
	"reflect"
	"strings"
	"testing"
	"time"
)

// fakeRunner answers commands from a table and records what it ran.
type fakeRunner struct {
	out   map[string]string // "name args..." → stdout
	fail  map[string]string // "name args..." → stderr of a failure
	calls []string
	envs  [][]string
}

func (f *fakeRunner) Run(_ context.Context, env []string, name string, args ...string) ([]byte, error) {
	line := strings.Join(append([]string{name}, args...), " ")
	f.calls = append(f.calls, line)
	f.envs = append(f.envs, env)
	if stderr, ok := f.fail[line]; ok {
		return nil, &CommandError{Argv: append([]string{name}, args...), Stderr: stderr, Err: errors.New("exit status 1")}
	}
	if out, ok := f.out[line]; ok {
		return []byte(out), nil
	}
	return nil, &CommandError{Argv: append([]string{name}, args...), Err: errors.New("unexpected command")}
}

func TestClientReadsJSONOn2205(t *testing.T) {
	f := &fakeRunner{out: map[string]string{
		"scontrol version": "slurm-wlm 22.05.8\n",
		"sinfo --json":     string(readFixture(t, "sinfo-mixed.json")),
		"squeue --json":    string(readFixture(t, "squeue-running-pending.json")),
	}}
	c := NewClient(f)
	ctx := context.Background()
	nodes, err := c.Nodes(ctx)
	if err != nil || len(nodes) != 8 {
		t.Fatalf("Nodes: %d, %v", len(nodes), err)
	}
	jobs, err := c.Jobs(ctx)
	if err != nil || len(jobs) != 3 {
		t.Fatalf("Jobs: %d, %v", len(jobs), err)
	}
	// The version is asked once.
	want := []string{"scontrol version", "sinfo --json", "squeue --json"}
	if !reflect.DeepEqual(f.calls, want) {
		t.Errorf("calls %q, want %q", f.calls, want)
	}
}

func TestClientFallsBackToText(t *testing.T) {
	f := &fakeRunner{out: map[string]string{
		"scontrol version":                       "slurm 20.11.9\n",
		"scontrol show node -o":                  string(readFixture(t, "live-scontrol-show-node.txt")),
		"squeue -h -a -t all -o " + SqueueFormat: string(readFixture(t, "live-squeue.txt")),
	}}
	c := NewClient(f)
	nodes, err := c.Nodes(context.Background())
	if err != nil || len(nodes) != 4 {
		t.Fatalf("Nodes: %d, %v", len(nodes), err)
	}
	jobs, err := c.Jobs(context.Background())
	if err != nil || len(jobs) != 6 {
		t.Fatalf("Jobs: %d, %v", len(jobs), err)
	}
	for i, env := range f.envs[1:] {
		if !reflect.DeepEqual(env, []string{"SLURM_TIME_FORMAT=%s"}) {
			t.Errorf("call %q: env %q, want SLURM_TIME_FORMAT=%%s", f.calls[i+1], env)
		}
	}
}

func TestPowerCommands(t *testing.T) {
	v2205, v2405 := Version{22, 5, 8}, Version{24, 5, 1}
	nodes := []string{"node07", "node05", "node06"}
	cases := []struct {
		v    Version
		verb string
		asap bool
		want string
	}{
		{v2205, "down", false, "scontrol update nodename=node[05-07] state=power_down"},
		{v2205, "down", true, "scontrol update nodename=node[05-07] state=power_down_asap"},
		{v2205, "up", false, "scontrol update nodename=node[05-07] state=power_up"},
		{v2405, "down", false, "scontrol power down node[05-07]"},
		{v2405, "down", true, "scontrol power down asap node[05-07]"},
		{v2405, "up", false, "scontrol power up node[05-07]"},
	}
	for _, c := range cases {
		f := &fakeRunner{out: map[string]string{c.want: ""}}
		cl := NewClient(f)
		cl.SetVersion(c.v)
		var err error
		if c.verb == "down" {
			err = cl.PowerDown(context.Background(), nodes, c.asap)
		} else {
			err = cl.PowerUp(context.Background(), nodes)
		}
		if err != nil || len(f.calls) != 1 || f.calls[0] != c.want {
			t.Errorf("%v %s asap=%v: ran %q, err %v; want %q", c.v, c.verb, c.asap, f.calls, err, c.want)
		}
	}
	for _, bad := range [][]string{nil, {""}, {"a b"}, {"n1", "x=y"}, {"n[1-2]"}} {
		if args, err := PowerDownArgs(v2205, bad, false); err == nil {
			t.Errorf("PowerDownArgs(%q) = %q, want an error", bad, args)
		}
	}
}

func TestPowerDownErrorCarriesCommandAndStderr(t *testing.T) {
	cmd := "scontrol update nodename=node01 state=power_down"
	f := &fakeRunner{
		out:  map[string]string{"scontrol version": "slurm 22.05.8"},
		fail: map[string]string{cmd: "slurm_update error: Invalid node state specified"},
	}
	err := NewClient(f).PowerDown(context.Background(), []string{"node01"}, false)
	if err == nil || !strings.Contains(err.Error(), cmd) || !strings.Contains(err.Error(), "Invalid node state") || !IsCommandError(err) {
		t.Errorf("error %v, want the command line and its stderr", err)
	}
}

func TestVersionErrors(t *testing.T) {
	f := &fakeRunner{out: map[string]string{"scontrol version": "no version here"}}
	if _, err := NewClient(f).Nodes(context.Background()); err == nil || !strings.Contains(err.Error(), "scontrol version") {
		t.Errorf("error %v", err)
	}
	f = &fakeRunner{fail: map[string]string{"scontrol version": "fatal: Could not establish a configuration source"}}
	if _, err := NewClient(f).Jobs(context.Background()); err == nil || !strings.Contains(err.Error(), "configuration source") {
		t.Errorf("error %v", err)
	}
}

func TestExecRunner(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	ctx := context.Background()
	r := ExecRunner{Env: []string{"ECOTUNE_X=from-runner"}, Timeout: 5 * time.Second}
	out, err := r.Run(ctx, []string{"ECOTUNE_Y=from-call"}, "sh", "-c", `echo "$ECOTUNE_X $ECOTUNE_Y"`)
	if err != nil || string(out) != "from-runner from-call\n" {
		t.Errorf("env: %q, %v", out, err)
	}
	_, err = r.Run(ctx, nil, "sh", "-c", "echo boom >&2; exit 3")
	var ce *CommandError
	if !errors.As(err, &ce) || ce.Stderr != "boom" || !strings.Contains(err.Error(), `"sh -c echo boom >&2; exit 3"`) ||
		!strings.Contains(err.Error(), "exit status 3") {
		t.Errorf("failure: %v", err)
	}
	start := time.Now()
	_, err = ExecRunner{Timeout: 200 * time.Millisecond}.Run(ctx, nil, "sleep", "10")
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Errorf("timeout: %v after %v", err, time.Since(start))
	}
	_, err = r.Run(ctx, nil, "ecotune-no-such-command")
	if !errors.Is(err, exec.ErrNotFound) {
		t.Errorf("missing command: %v", err)
	}
}
