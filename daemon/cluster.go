package daemon

import (
	"context"
	"slices"
	"strings"

	"github.com/ecotune/ecotune/policy"
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
	LastBusy           int64 // Unix seconds, 0 unknown
	State              string
	Flags              []string
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

// Classify maps a Slurm node's base state and flags (as sinfo --json
// writes them, any case) onto the simulator's node states:
//
//	idle → Idle; allocated, mixed, completing → Busy;
//	flag POWERED_DOWN → Off (Booting when allocated: resumed for a job);
//	POWERING_UP → Booting; POWERING_DOWN or POWER_DOWN (asked) → ShuttingDown;
//	down, DRAIN, FAIL, MAINTENANCE, RESERVED, NOT_RESPONDING, unknown,
//	future, error, inval → unavailable (why says which).
//
// A down node with POWERED_DOWN has failed to resume: resumeFailed.
func Classify(state string, flags []string) (power policy.NodeState, why string, resumeFailed, downAsked bool) {
	base := strings.ToUpper(strings.TrimSpace(state))
	has := func(f string) bool {
		return slices.ContainsFunc(flags, func(x string) bool { return strings.EqualFold(strings.TrimSpace(x), f) })
	}
	switch base {
	case "IDLE":
		power = policy.Idle
	case "ALLOCATED", "MIXED", "COMPLETING":
		power = policy.Busy
	case "DOWN":
		power = policy.Idle
		why = "down"
	default: // UNKNOWN, FUTURE, ERROR, INVAL, anything new
		power = policy.Idle
		why = "state " + strings.ToLower(base)
		if base == "" {
			why = "no state"
		}
	}
	if has("COMPLETING") && power == policy.Idle && why == "" {
		power = policy.Busy
	}
	switch {
	case has("POWERING_UP"):
		power = policy.Booting
	case has("POWERED_DOWN"):
		if power == policy.Busy {
			power = policy.Booting // allocated to a job: being resumed
		} else {
			power = policy.Off
		}
	case has("POWERING_DOWN"):
		power = policy.ShuttingDown
	case has("POWER_DOWN"):
		power = policy.ShuttingDown
		downAsked = true
	}
	for _, f := range []string{"DRAIN", "FAIL", "MAINTENANCE", "RESERVED", "NOT_RESPONDING", "REBOOT_REQUESTED", "REBOOT_ISSUED"} {
		if why == "" && has(f) {
			why = strings.ToLower(f)
		}
	}
	resumeFailed = base == "DOWN" && has("POWERED_DOWN")
	return power, why, resumeFailed, downAsked
}
