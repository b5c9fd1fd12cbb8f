package slurmtest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ecotune/ecotune/slurm"
)

// TestFaultHooks checks what fault tests of other packages rely on: an
// appended slurm.conf fragment wins over the defaults, a ResumeProgram made
// to fail leaves the node down~ at ResumeTimeout, and slurmctld can be
// stopped and started again on its saved state.
func TestFaultHooks(t *testing.T) {
	if testing.Short() && os.Getenv("CI") != "true" {
		t.Skip("-short: no loopback cluster")
	}
	c := Start(t, Options{
		Nodes: 2, SuspendTimeout: 3, ResumeTimeout: 12,
		ExtraConf:  "SuspendExcNodes=node01\nSuspendTimeout=2\n",
		FailResume: []string{"node02"},
	})
	if len(c.Names) != 2 || c.NodeList != "node[01-02]" {
		t.Fatalf("names %q, list %q", c.Names, c.NodeList)
	}
	conf := c.Run(t, "scontrol", "show", "config")
	for _, want := range []string{"SuspendExcNodes         = node01", "SuspendTimeout          = 2 sec", "ResumeTimeout           = 12 sec",
		"SuspendProgram          = " + c.SuspendProgram, "ResumeProgram           = " + c.ResumeProgram} {
		if !strings.Contains(conf, want) {
			t.Errorf("scontrol show config lacks %q", want)
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	powerCycle(ctx, t, c, "node02")
	nodes := c.WaitNodeClass(t, 60*time.Second, slurm.PowerUnavailable, "node02")
	for _, n := range nodes {
		if n.Name == "node02" && (n.State.Base != slurm.BaseDown || !n.State.Flags.Has(slurm.FlagPoweredDown|slurm.FlagNotResponding)) {
			t.Errorf("node02 after a failed resume: %v, want DOWN+NOT_RESPONDING+POWERED_DOWN (down~)", n.State)
		}
	}
	ev := c.PowerLog(t)
	if len(ev) != 3 || ev[0].Verb != "suspend" || ev[1].Verb != "resume" || ev[2].Verb != "resume-failed" || ev[2].Nodes[0] != "node02" {
		t.Errorf("power log %+v, want suspend, resume, resume-failed of node02", ev)
	}

	// With slurmctld stopped, sinfo --json exits 0 and reports the error in
	// its JSON; Nodes returns it as an error either way.
	c.StopController(t)
	if _, err := c.Client().Nodes(ctx); err == nil {
		t.Errorf("Nodes with slurmctld stopped: no error")
	}
	// Restarted, slurmctld knows its nodes from the saved state; node01 is
	// UNKNOWN until its slurmd registers again.
	c.StartController(t)
	nodes = c.WaitNodeClass(t, 60*time.Second, slurm.PowerIdle, "node01")
	if len(nodes) != 2 || nodes[1].Power() != slurm.PowerUnavailable || nodes[1].Reason != "ResumeTimeout reached" {
		t.Errorf("after the restart: %+v", nodes)
	}
}

// TestDownDuringResume: Down, run while the ResumeProgram waits to boot a
// node, leaves no process of the instance behind, not even the slurmd
// the program would have started after Down (it outlived the test
// directory before).
func TestDownDuringResume(t *testing.T) {
	if testing.Short() && os.Getenv("CI") != "true" {
		t.Skip("-short: no loopback cluster")
	}
	c := Start(t, Options{Nodes: 2, SuspendTimeout: 2, ExtraConf: "SuspendExcNodes=node01\n"})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	powerCycle(ctx, t, c, "node02")
	// The ResumeProgram logs the request, then waits 2 s before it starts
	// the node's slurmd: Down comes within that wait.
	deadline := time.Now().Add(30 * time.Second)
	for !resumeLogged(t, c) {
		if time.Now().After(deadline) {
			t.Fatal("the ResumeProgram never ran")
		}
		time.Sleep(50 * time.Millisecond)
	}
	c.Down(t)
	time.Sleep(3 * time.Second) // past the program's wait
	if pids := instanceProcesses(t, c); len(pids) > 0 {
		t.Errorf("after Down, processes of the instance run: %v", pids)
	}
}

// powerCycle powers node down, waits until it is off, and asks for it
// to be powered up again.
func powerCycle(ctx context.Context, t *testing.T, c *Cluster, node string) {
	t.Helper()
	client := c.Client()
	if err := client.PowerDown(ctx, []string{node}, false); err != nil {
		t.Fatal(err)
	}
	c.WaitNodeClass(t, 60*time.Second, slurm.PowerOff, node)
	if err := client.PowerUp(ctx, []string{node}); err != nil {
		t.Fatal(err)
	}
}

// resumeLogged reports whether the power log has a resume.
func resumeLogged(t *testing.T, c *Cluster) bool {
	for _, e := range c.PowerLog(t) {
		if e.Verb == "resume" {
			return true
		}
	}
	return false
}

// instanceProcesses lists the processes whose command line names the
// instance's directory (its slurm.conf, its power programs).
func instanceProcesses(t *testing.T, c *Cluster) []string {
	dirs, err := filepath.Glob("/proc/[0-9]*")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "cmdline"))
		if err != nil {
			continue
		}
		if cmd := strings.ReplaceAll(string(b), "\x00", " "); strings.Contains(cmd, c.Dir) {
			out = append(out, filepath.Base(d)+": "+cmd)
		}
	}
	return out
}

func TestReservePorts(t *testing.T) {
	a, relA, err := reservePorts(5, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer relA()
	// While a holds its lock, the same candidate is passed over.
	b, relB, err := reservePorts(5, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer relB()
	if a == b || a < 20000 || b+5 > 32000 {
		t.Errorf("ranges %d and %d", a, b)
	}
}
