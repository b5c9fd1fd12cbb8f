package daemon

import (
	"context"
	"strings"

	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/slurm"
)

// A Source reads the cluster: the nodes with their states and the jobs
// pending and running.
type Source interface {
	Snapshot(ctx context.Context) (*Snapshot, error)
}

// An Actuator carries out power commands on named nodes.
type Actuator interface {
	PowerDown(ctx context.Context, nodes []string) error
	PowerUp(ctx context.Context, nodes []string) error
}

// Snapshot is the cluster at one time, as the daemon needs it.
type Snapshot struct {
	Time  int64 // Unix seconds
	Nodes []Node
	Jobs  []Job // pending and running jobs only
}

// Node is one Slurm node, classified.
type Node struct {
	Name      string
	CPUs      int
	AllocCPUs int
	// Power is the simulator's node state the Slurm state maps to.
	Power policy.NodeState
	// Unavailable is why the node must never be acted on (down, drain,
	// fail, maintenance, reserved, not responding), or "".
	Unavailable string
	// ResumeFailed: the node was powered down and failed to come back
	// (down + POWERED_DOWN + NOT_RESPONDING on 22.05): left to Slurm.
	ResumeFailed bool
	// PowerDownRequested: a power down was asked and is not yet under way.
	PowerDownRequested bool
	LastBusy           int64  // Unix seconds, 0 unknown
	State              string // Slurm's state, e.g. IDLE+POWERED_DOWN
}

// Job is one pending or running job.
type Job struct {
	ID        int64
	Running   bool
	CPUs      int
	Nodes     []string // running jobs: the nodes they run on
	Submit    int64
	Start     int64
	TimeLimit int64 // seconds, 0 unknown
	User      string
	Account   string
}

// PowerState maps a Slurm power class onto the simulator's node states
// (docs/architecture.md, "The live daemon on Slurm"): idle → Idle; allocated, mixed
// → Busy; POWERED_DOWN → Off (Booting while Slurm resumes it for a job);
// POWERING_UP → Booting; POWERING_DOWN and POWER_DOWN (asked, not begun)
// → ShuttingDown. ok is false for unavailable nodes (down, drained or
// draining, failed, maintenance, reserved, not responding, unknown),
// which the daemon never acts on.
func PowerState(c slurm.PowerClass) (s policy.NodeState, ok bool) {
	switch c {
	case slurm.PowerOff:
		return policy.Off, true
	case slurm.PowerBooting:
		return policy.Booting, true
	case slurm.PowerIdle:
		return policy.Idle, true
	case slurm.PowerBusy:
		return policy.Busy, true
	case slurm.PowerShuttingDown, slurm.PowerDownRequested:
		return policy.ShuttingDown, true
	}
	return policy.Idle, false
}

// NodeOf classifies a Slurm node.
func NodeOf(n *slurm.Node) Node {
	c := n.Power()
	p, ok := PowerState(c)
	out := Node{Name: n.Name, CPUs: n.CPUs, AllocCPUs: n.AllocCPUs, Power: p,
		PowerDownRequested: c == slurm.PowerDownRequested,
		ResumeFailed:       n.State.Base == slurm.BaseDown && n.State.Flags.Has(slurm.FlagPoweredDown),
		State:              n.State.String()}
	if !ok {
		out.Unavailable = strings.ToLower(n.State.String())
		if n.Reason != "" {
			out.Unavailable += " (" + n.Reason + ")"
		}
	}
	if !n.LastBusy.IsZero() {
		out.LastBusy = n.LastBusy.Unix()
	}
	return out
}

// JobOf converts a Slurm job; ok is false for finished jobs.
func JobOf(j *slurm.Job) (Job, bool) {
	var running bool
	switch j.Phase() {
	case slurm.JobPending:
	case slurm.JobRunning:
		running = true
	default:
		return Job{}, false
	}
	out := Job{ID: j.ID, Running: running, CPUs: max(j.CPUs, 1), User: j.User, Account: j.Partition,
		TimeLimit: int64(j.TimeLimit.Seconds())}
	if !j.SubmitTime.IsZero() {
		out.Submit = j.SubmitTime.Unix()
	}
	if running {
		out.Nodes = j.Nodes
		if !j.StartTime.IsZero() {
			out.Start = j.StartTime.Unix()
		}
	}
	return out, true
}
