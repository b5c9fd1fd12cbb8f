package slurmtest

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ecotune/ecotune/slurm"
)

// Options configure one loopback cluster. Zero values take the defaults.
type Options struct {
	Nodes int // nodes node01..; default 4
	CPUs  int // CPUs per node; default 1
	// SuspendTime, SuspendTimeout, ResumeTimeout and MinJobAge are the
	// slurm.conf values in seconds; defaults 3600 (Slurm itself powers
	// nothing down during a test, but power saving is on), 5, 30, 300.
	SuspendTime, SuspendTimeout, ResumeTimeout, MinJobAge int
	// ExtraConf is appended to slurm.conf (its keys override the ones above
	// it), e.g. an exported power-saving block.
	ExtraConf string
	// FailResume names nodes whose ResumeProgram call fails (the node then
	// stays powered down and Slurm marks it down at ResumeTimeout).
	FailResume []string
	// StartTimeout bounds the wait for every node to be idle; default 90 s.
	StartTimeout time.Duration
}

// Cluster is a running loopback instance.
type Cluster struct {
	Dir      string   // the instance directory
	Conf     string   // its slurm.conf (SLURM_CONF)
	PortBase int      // slurmctld's port; nodeNN's slurmd listens on PortBase+NN
	Names    []string // node names, node01...
	NodeList string   // the same as a hostlist, node[01-04]
	// SuspendProgram and ResumeProgram are the programs slurm.conf names.
	SuspendProgram, ResumeProgram string

	script string
}

// Script returns the path of scripts/slurm-loopback.sh in this module.
func Script() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", errors.New("slurmtest: cannot locate the module")
	}
	dir := filepath.Dir(file)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "scripts", "slurm-loopback.sh"), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("slurmtest: no go.mod above " + file)
		}
		dir = parent
	}
}

// unavailable fails the test under CI=true and skips it otherwise.
func unavailable(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv("CI") == "true" {
		t.Fatalf("slurmtest: loopback Slurm cluster unavailable (CI=true): %s", msg)
	}
	t.Skipf("slurmtest: loopback Slurm cluster unavailable: %s", msg)
}

// Start starts a fresh loopback cluster, waits until every node is idle
// and registers its shutdown with t.Cleanup. If Slurm is missing and cannot
// be installed (not root, no apt-get), the test fails under CI=true and is
// skipped otherwise.
func Start(t testing.TB, opts Options) *Cluster {
	t.Helper()
	opts = opts.withDefaults()
	script := requireHost(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	install(ctx, t, script)

	dir, err := os.MkdirTemp("", "ecotune-slurm-")
	if err != nil {
		t.Fatal(err)
	}
	c := &Cluster{Dir: dir, Conf: filepath.Join(dir, "slurm.conf"), script: script}
	var extra string
	if opts.ExtraConf != "" {
		extra = filepath.Join(dir, "extra.conf")
		if err := os.WriteFile(extra, []byte(opts.ExtraConf), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { c.cleanup(t) })

	var lastErr error
	for attempt := 0; attempt < 5; attempt++ {
		base, release, err := reservePorts(opts.Nodes+1, attempt)
		if err != nil {
			t.Fatalf("slurmtest: %v", err)
		}
		upStart := time.Now()
		out, err := exec.CommandContext(ctx, "bash", upArgs(script, dir, extra, base, opts)...).CombinedOutput()
		release()
		if err != nil {
			lastErr = fmt.Errorf("%s up: %v: %s", script, err, bytes.TrimSpace(out))
			c.Down(t)
			continue
		}
		c.PortBase = base
		c.adopt(t, opts)
		t.Logf("slurmtest: %d nodes up in %v (%s, port %d)", opts.Nodes, time.Since(upStart).Round(100*time.Millisecond), dir, base)
		return c
	}
	t.Fatalf("slurmtest: loopback cluster did not start: %v", lastErr)
	return nil
}

// withDefaults returns opts with every unset or non-positive field replaced
// by its default.
func (opts Options) withDefaults() Options {
	if opts.Nodes <= 0 {
		opts.Nodes = 4
	}
	if opts.CPUs <= 0 {
		opts.CPUs = 1
	}
	if opts.SuspendTime <= 0 {
		opts.SuspendTime = 3600
	}
	if opts.SuspendTimeout <= 0 {
		opts.SuspendTimeout = 5
	}
	if opts.ResumeTimeout <= 0 {
		opts.ResumeTimeout = 30
	}
	if opts.MinJobAge <= 0 {
		opts.MinJobAge = 300
	}
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = 90 * time.Second
	}
	return opts
}

// requireHost returns the path of the loopback script, or skips (fails
// under CI=true) the test when this host cannot run a loopback cluster.
func requireHost(t testing.TB) string {
	t.Helper()
	script, err := Script()
	if err != nil {
		unavailable(t, "%v", err)
	}
	if _, err := os.Stat(script); err != nil {
		unavailable(t, "%v", err)
	}
	if runtime.GOOS != "linux" {
		unavailable(t, "needs Linux, not %s", runtime.GOOS)
	}
	if os.Geteuid() != 0 {
		if _, err := exec.LookPath("slurmctld"); err != nil {
			unavailable(t, "Slurm is not installed and installing it needs root")
		}
		unavailable(t, "slurmctld, slurmd and munged are started as root")
	}
	return script
}

// install runs the script's install step, which installs Slurm if it is
// missing, and logs how long that took when it took a while.
func install(ctx context.Context, t testing.TB, script string) {
	t.Helper()
	start := time.Now()
	if out, err := exec.CommandContext(ctx, "bash", script, "install").CombinedOutput(); err != nil {
		unavailable(t, "install: %v: %s", err, bytes.TrimSpace(out))
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Logf("slurmtest: Slurm installed in %v", d.Round(100*time.Millisecond))
	}
}

// cleanup shuts the cluster down at the end of the test; the instance
// directory is removed if the test passed and kept, with the daemons' logs
// dumped, if it failed.
func (c *Cluster) cleanup(t testing.TB) {
	if t.Failed() {
		c.dumpLogs(t)
	}
	c.Down(t)
	if !t.Failed() {
		os.RemoveAll(c.Dir)
	} else {
		t.Logf("slurmtest: instance directory kept: %s", c.Dir)
	}
}

// upArgs returns the arguments of "bash script up" for an instance in dir
// on the ports from base.
func upArgs(script, dir, extra string, base int, opts Options) []string {
	args := []string{script, "up", "--dir", dir, "--port-base", strconv.Itoa(base),
		"--nodes", strconv.Itoa(opts.Nodes), "--cpus", strconv.Itoa(opts.CPUs),
		"--suspend-time", strconv.Itoa(opts.SuspendTime), "--suspend-timeout", strconv.Itoa(opts.SuspendTimeout),
		"--resume-timeout", strconv.Itoa(opts.ResumeTimeout), "--min-job-age", strconv.Itoa(opts.MinJobAge),
		"--watch-pid", strconv.Itoa(os.Getpid()), "--no-install"}
	if extra != "" {
		args = append(args, "--extra-conf", extra)
	}
	if len(opts.FailResume) > 0 {
		args = append(args, "--fail-resume", strings.Join(opts.FailResume, ","))
	}
	return args
}

// adopt reads the environment file the script wrote for a started instance
// into c and waits until every node is idle.
func (c *Cluster) adopt(t testing.TB, opts Options) {
	t.Helper()
	env, err := readEnv(filepath.Join(c.Dir, "env"))
	if err != nil {
		t.Fatalf("slurmtest: %v", err)
	}
	c.NodeList = env["ECOTUNE_SLURM_NODELIST"]
	c.SuspendProgram = env["ECOTUNE_SLURM_SUSPEND_PROGRAM"]
	c.ResumeProgram = env["ECOTUNE_SLURM_RESUME_PROGRAM"]
	if c.Names, err = slurm.ExpandHostlist(c.NodeList); err != nil || len(c.Names) != opts.Nodes {
		t.Fatalf("slurmtest: node list %q: %v", c.NodeList, err)
	}
	c.WaitNodes(t, opts.StartTimeout, "every node idle", func(nodes []slurm.Node) bool {
		return allIdle(nodes, opts.Nodes)
	})
}

// allIdle reports whether nodes holds exactly n nodes, all idle.
func allIdle(nodes []slurm.Node, n int) bool {
	if len(nodes) != n {
		return false
	}
	for _, nd := range nodes {
		if nd.Power() != slurm.PowerIdle {
			return false
		}
	}
	return true
}

// reservePorts finds n consecutive free TCP ports on 127.0.0.1 below the
// ephemeral range and holds a lock file on them until release, so parallel
// test processes pick different ranges. The candidates follow from the
// process id and the attempt.
func reservePorts(n, attempt int) (base int, release func(), err error) {
	lockDir := filepath.Join(os.TempDir(), "ecotune-slurm-ports")
	if err := os.MkdirAll(lockDir, 0o755); err != nil {
		return 0, nil, err
	}
	const lo, slots, width = 20000, 120, 100 // ports 20000..31999
	if n > width {
		return 0, nil, fmt.Errorf("%d ports do not fit a slot of %d", n, width)
	}
	first := (os.Getpid()*7 + attempt*31) % slots
	for k := 0; k < slots; k++ {
		base := lo + ((first+k)%slots)*width
		lock := filepath.Join(lockDir, strconv.Itoa(base))
		f, err := os.OpenFile(lock, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			continue
		}
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
			f.Close()
			continue
		}
		if portsFree(base, n) {
			return base, func() { f.Close() }, nil
		}
		f.Close()
	}
	return 0, nil, errors.New("no free range of ports in 20000-31999")
}

func portsFree(base, n int) bool {
	for p := base; p < base+n; p++ {
		l, err := net.Listen("tcp", fmt.Sprintf(":%d", p))
		if err != nil {
			return false
		}
		l.Close()
	}
	return true
}

func readEnv(path string) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	env := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok {
			env[k] = v
		}
	}
	return env, nil
}

// Env is the environment addition that points Slurm's commands at this
// cluster: SLURM_CONF=<its slurm.conf>.
func (c *Cluster) Env() []string { return []string{"SLURM_CONF=" + c.Conf} }

// Runner is a slurm.Runner for this cluster.
func (c *Cluster) Runner() slurm.ExecRunner {
	return slurm.ExecRunner{Env: c.Env(), Timeout: 30 * time.Second}
}

// Client is a slurm.Client for this cluster.
func (c *Cluster) Client() *slurm.Client { return slurm.NewClient(c.Runner()) }

// Command is an exec.Cmd for a Slurm command on this cluster, run in the
// instance directory (where sbatch's output files land).
func (c *Cluster) Command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = append(os.Environ(), c.Env()...)
	cmd.Dir = c.Dir
	cmd.WaitDelay = time.Second
	return cmd
}

// Run runs a Slurm command on this cluster (30 s at most) and returns its
// standard output; a failure fails the test with the command and stderr.
func (c *Cluster) Run(t testing.TB, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var stderr bytes.Buffer
	cmd := c.Command(ctx, name, args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("slurmtest: %s %s: %v: %s", name, strings.Join(args, " "), err, bytes.TrimSpace(stderr.Bytes()))
	}
	return string(out)
}

// Sbatch submits a batch job (sbatch --parsable ARGS...) and returns its id.
func (c *Cluster) Sbatch(t testing.TB, args ...string) int64 {
	t.Helper()
	out := strings.TrimSpace(c.Run(t, "sbatch", append([]string{"--parsable"}, args...)...))
	idText, _, _ := strings.Cut(out, ";")
	id, err := strconv.ParseInt(idText, 10, 64)
	if err != nil {
		t.Fatalf("slurmtest: sbatch printed %q, not a job id", out)
	}
	return id
}

// Nodes reads the nodes through the slurm package.
func (c *Cluster) Nodes(t testing.TB) []slurm.Node {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	nodes, err := c.Client().Nodes(ctx)
	if err != nil {
		t.Fatalf("slurmtest: %v", err)
	}
	return nodes
}

// WaitNodes polls the nodes (every 500 ms) until ok is true, and fails the
// test, showing sinfo, if timeout passes first.
func (c *Cluster) WaitNodes(t testing.TB, timeout time.Duration, what string, ok func([]slurm.Node) bool) []slurm.Node {
	t.Helper()
	deadline := time.Now().Add(timeout)
	client := c.Client()
	var lastErr error
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		nodes, err := client.Nodes(ctx)
		cancel()
		if err == nil && ok(nodes) {
			return nodes
		}
		lastErr = err
		if time.Now().After(deadline) {
			var states []string
			for _, n := range nodes {
				states = append(states, n.Name+"="+n.State.String())
			}
			t.Fatalf("slurmtest: %s: not reached in %v (nodes %s; last error %v)", what, timeout, strings.Join(states, " "), lastErr)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// WaitNodeClass waits until every named node is in the power class.
func (c *Cluster) WaitNodeClass(t testing.TB, timeout time.Duration, class slurm.PowerClass, names ...string) []slurm.Node {
	t.Helper()
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	return c.WaitNodes(t, timeout, fmt.Sprintf("%s %s", strings.Join(names, ","), class), func(nodes []slurm.Node) bool {
		seen := 0
		for _, n := range nodes {
			if want[n.Name] {
				if n.Power() != class {
					return false
				}
				seen++
			}
		}
		return seen == len(want)
	})
}

// PowerEvent is one call of the Suspend or Resume program, or one node
// whose resume was made to fail.
type PowerEvent struct {
	Time time.Time
	// Verb is suspend or resume (one event per call, Nodes the call's
	// nodes) or resume-failed (one event per node of a resume call that
	// Options.FailResume or SetFailResume names).
	Verb  string
	Nodes []string
}

// PowerLog reads the Suspend/Resume call log.
func (c *Cluster) PowerLog(t testing.TB) []PowerEvent {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(c.Dir, "power.log"))
	if err != nil {
		t.Fatalf("slurmtest: %v", err)
	}
	var out []PowerEvent
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if line == "" {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 3 {
			t.Fatalf("slurmtest: power.log line %d: %q is not TIME VERB NODES", i+1, line)
		}
		sec, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			t.Fatalf("slurmtest: power.log line %d: time %q: %v", i+1, f[0], err)
		}
		nodes, err := slurm.ExpandHostlist(f[2])
		if err != nil {
			t.Fatalf("slurmtest: power.log line %d: %v", i+1, err)
		}
		out = append(out, PowerEvent{Time: time.Unix(sec, 0).UTC(), Verb: f[1], Nodes: nodes})
	}
	return out
}

// SetFailResume makes the ResumeProgram fail for the named nodes from now
// on (none: every resume succeeds again).
func (c *Cluster) SetFailResume(t testing.TB, nodes ...string) {
	t.Helper()
	path := filepath.Join(c.Dir, "fail-resume")
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(strings.Join(nodes, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

func (c *Cluster) script1(t testing.TB, verb string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "bash", c.script, verb, "--dir", c.Dir, "--no-install").CombinedOutput()
	if err != nil {
		t.Fatalf("slurmtest: %s %s: %v: %s", c.script, verb, err, bytes.TrimSpace(out))
	}
}

// StopController stops slurmctld only (the nodes keep running); Slurm's
// commands fail until StartController.
func (c *Cluster) StopController(t testing.TB) { t.Helper(); c.script1(t, "stop-controller") }

// StartController starts slurmctld again on its saved state.
func (c *Cluster) StartController(t testing.TB) { t.Helper(); c.script1(t, "start-controller") }

// Down stops every process of the instance (Start's cleanup calls it).
func (c *Cluster) Down(t testing.TB) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "bash", c.script, "down", "--dir", c.Dir, "--no-install").CombinedOutput()
	if err != nil {
		t.Errorf("slurmtest: down %s: %v: %s", c.Dir, err, bytes.TrimSpace(out))
	}
}

func (c *Cluster) dumpLogs(t testing.TB) {
	for _, name := range []string{"log/slurmctld.log", "power.log"} {
		data, err := os.ReadFile(filepath.Join(c.Dir, name))
		if err != nil {
			continue
		}
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		if len(lines) > 40 {
			lines = lines[len(lines)-40:]
		}
		t.Logf("slurmtest: last lines of %s:\n%s", name, strings.Join(lines, "\n"))
	}
}
