package slurm_test

import (
	"context"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ecotune/ecotune/internal/slurmtest"
	"github.com/ecotune/ecotune/slurm"
)

// TestLoopbackCluster runs the adapter against a real slurmctld and slurmd
// on 127.0.0.1 (scripts/slurm-loopback.sh): version, nodes, jobs, and a
// power-down/power-up cycle checked against sinfo and the Suspend/Resume log.
func TestLoopbackCluster(t *testing.T) {
	if testing.Short() && os.Getenv("CI") != "true" {
		t.Skip("-short: no loopback cluster")
	}
	c := slurmtest.Start(t, slurmtest.Options{Nodes: 3, CPUs: 2, SuspendTimeout: 3})
	client := c.Client()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	// Version: what `scontrol version` prints, with --json.
	v, err := client.Version(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want, err := slurm.ParseVersion(c.Run(t, "scontrol", "version"))
	if err != nil || v != want || !v.HasJSON() {
		t.Fatalf("Version() = %v, scontrol version gives %v (%v); --json: %v", v, want, err, v.HasJSON())
	}
	t.Logf("Slurm %v", v)

	nodes, err := client.Nodes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, n := range nodes {
		names = append(names, n.Name)
		if n.CPUs != 2 || n.Power() != slurm.PowerIdle || n.Address != "127.0.0.1" {
			t.Errorf("%s: %+v", n.Name, n)
		}
	}
	if !reflect.DeepEqual(names, c.Names) {
		t.Fatalf("nodes %q, want %q", names, c.Names)
	}

	// Jobs: one running on two whole nodes, one pending for two nodes.
	running := c.Sbatch(t, "-N2", "-n4", "--time=5", "-J", "two", "--wrap", "sleep 300")
	pending := c.Sbatch(t, "-N2", "-n2", "-J", "wait", "--wrap", "sleep 300")
	var jobs []slurm.Job
	deadline := time.Now().Add(60 * time.Second)
	for {
		if jobs, err = client.Jobs(ctx); err != nil {
			t.Fatal(err)
		}
		if len(jobs) == 2 && jobByID(jobs, running).State == "RUNNING" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %d not running after 60 s: %+v", running, jobs)
		}
		time.Sleep(500 * time.Millisecond)
	}
	r, p := jobByID(jobs, running), jobByID(jobs, pending)
	if r.Phase() != slurm.JobRunning || r.CPUs != 4 || r.NodeCount != 2 || len(r.Nodes) != 2 || r.TimeLimit != 5*time.Minute ||
		r.Name != "two" || r.Partition != "debug" || r.StartTime.Before(r.SubmitTime) || r.SubmitTime.IsZero() {
		t.Errorf("running job: %+v", r)
	}
	if p.Phase() != slurm.JobPending || p.CPUs != 2 || p.NodeCount != 2 || p.NodeList != "" || p.TimeLimit != 0 {
		t.Errorf("pending job: %+v", p)
	}
	nodes = c.Nodes(t)
	busy := map[string]bool{}
	for _, n := range r.Nodes {
		busy[n] = true
	}
	var idle string
	for _, n := range nodes {
		if busy[n.Name] != (n.Power() == slurm.PowerBusy) {
			t.Errorf("%s: %v (%v) while job %d runs on %q", n.Name, n.Power(), n.State, running, r.NodeList)
		}
		if !busy[n.Name] {
			idle = n.Name
		}
	}

	// The text fallback reads the same cluster the same way.
	textNodes, err := client.NodesText(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i := range textNodes {
		if i >= len(nodes) || textNodes[i].Name != nodes[i].Name || textNodes[i].Power() != nodes[i].Power() {
			t.Errorf("text node %d: %+v, JSON %+v", i, textNodes[i], nodes[i])
		}
	}
	textJobs, err := client.JobsText(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if tr := jobByID(textJobs, running); tr.State != "RUNNING" || tr.NodeList != r.NodeList || tr.CPUs != 4 {
		t.Errorf("text job %d: %+v", running, tr)
	}

	c.Run(t, "scancel", itoa(running), itoa(pending))
	c.WaitNodes(t, 60*time.Second, "every node idle after scancel", func(ns []slurm.Node) bool {
		for _, n := range ns {
			if n.Power() != slurm.PowerIdle {
				return false
			}
		}
		return true
	})

	// Power down the idle node: idle% then idle~, the SuspendProgram called.
	start := time.Now()
	if err := client.PowerDown(ctx, []string{idle}, false); err != nil {
		t.Fatal(err)
	}
	c.WaitNodeClass(t, 90*time.Second, slurm.PowerOff, idle)
	down := time.Since(start)
	if got := strings.TrimSpace(c.Run(t, "sinfo", "-h", "-n", idle, "-o", "%T")); got != "idle~" {
		t.Errorf("sinfo says %s is %q, want idle~", idle, got)
	}
	if ev := c.PowerLog(t); len(ev) != 1 || ev[0].Verb != "suspend" || !reflect.DeepEqual(ev[0].Nodes, []string{idle}) {
		t.Errorf("power log %+v, want one suspend of %s", ev, idle)
	}

	// Power it up: the ResumeProgram restarts its slurmd, it registers.
	start = time.Now()
	if err := client.PowerUp(ctx, []string{idle}); err != nil {
		t.Fatal(err)
	}
	c.WaitNodeClass(t, 90*time.Second, slurm.PowerIdle, idle)
	up := time.Since(start)
	if ev := c.PowerLog(t); len(ev) != 2 || ev[1].Verb != "resume" || !reflect.DeepEqual(ev[1].Nodes, []string{idle}) {
		t.Errorf("power log %+v, want a resume of %s after the suspend", ev, idle)
	}
	t.Logf("power down %s → idle~ in %v, power up → idle in %v", idle, down.Round(100*time.Millisecond), up.Round(100*time.Millisecond))

	// A command Slurm refuses is an error with the command and its stderr.
	err = client.PowerDown(ctx, []string{"nosuchnode"}, false)
	if err == nil || !slurm.IsCommandError(err) || !strings.Contains(err.Error(), "nodename=nosuchnode") {
		t.Errorf("power down of an unknown node: %v", err)
	}
}

func jobByID(jobs []slurm.Job, id int64) slurm.Job {
	for _, j := range jobs {
		if j.ID == id {
			return j
		}
	}
	return slurm.Job{}
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }
