package daemon

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"sort"
	"strings"
)

// A Runner runs a Slurm command and returns its standard output; the
// error carries the command's standard error.
type Runner func(ctx context.Context, name string, args ...string) ([]byte, error)

// ExecRunner runs commands with os/exec, with env added to the
// environment (e.g. SLURM_CONF=...).
func ExecRunner(env []string) Runner {
	return func(ctx context.Context, name string, args ...string) ([]byte, error) {
		cmd := exec.CommandContext(ctx, name, args...)
		if len(env) > 0 {
			cmd.Env = append(cmd.Environ(), env...)
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return out, fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
		}
		return out, nil
	}
}

// Slurm is a Source and an Actuator on a live Slurm through its
// commands: sinfo --json and squeue --json (22.05: openapi v0.0.38), and
// scontrol update nodename=NODES state=power_down|power_up.
type Slurm struct {
	Run Runner
}

// Snapshot reads nodes and jobs.
func (s *Slurm) Snapshot(ctx context.Context) (*Snapshot, error) {
	out, err := s.Run(ctx, "sinfo", "--json")
	if err != nil {
		return nil, err
	}
	nodes, err := ParseSinfo(out)
	if err != nil {
		return nil, fmt.Errorf("sinfo --json: %w", err)
	}
	out, err = s.Run(ctx, "squeue", "--json")
	if err != nil {
		return nil, err
	}
	jobs, err := ParseSqueue(out)
	if err != nil {
		return nil, fmt.Errorf("squeue --json: %w", err)
	}
	return &Snapshot{Nodes: nodes, Jobs: jobs}, nil
}

// PowerDown asks Slurm to power nodes down.
func (s *Slurm) PowerDown(ctx context.Context, nodes []string) error {
	return s.update(ctx, nodes, "power_down")
}

// PowerUp asks Slurm to power nodes up.
func (s *Slurm) PowerUp(ctx context.Context, nodes []string) error {
	return s.update(ctx, nodes, "power_up")
}

func (s *Slurm) update(ctx context.Context, nodes []string, state string) error {
	if len(nodes) == 0 {
		return nil
	}
	_, err := s.Run(ctx, "scontrol", ScontrolArgs(nodes, state)...)
	return err
}

// ScontrolArgs is the scontrol command line (without "scontrol") that
// sets nodes to state on Slurm 22.05: update nodename=HOSTLIST state=S.
func ScontrolArgs(nodes []string, state string) []string {
	return []string{"update", "nodename=" + compressHosts(sortedCopy(nodes)), "state=" + state}
}

func sortedCopy(s []string) []string {
	c := append([]string(nil), s...)
	sort.Strings(c)
	return c
}

type sinfoJSON struct {
	Nodes []struct {
		Name      string   `json:"name"`
		State     string   `json:"state"`
		Flags     []string `json:"state_flags"`
		CPUs      int      `json:"cpus"`
		AllocCPUs int      `json:"alloc_cpus"`
		LastBusy  int64    `json:"last_busy"`
	} `json:"nodes"`
}

// ParseSinfo reads sinfo --json output into classified nodes.
func ParseSinfo(data []byte) ([]Node, error) {
	var s sinfoJSON
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, err
	}
	nodes := make([]Node, 0, len(s.Nodes))
	seen := map[string]bool{}
	for i, n := range s.Nodes {
		if n.Name == "" {
			return nil, fmt.Errorf("nodes[%d].name: empty", i)
		}
		if seen[n.Name] {
			continue // sinfo lists a node once per partition
		}
		seen[n.Name] = true
		p, why, failed, asked := Classify(n.State, n.Flags)
		nodes = append(nodes, Node{Name: n.Name, CPUs: n.CPUs, AllocCPUs: n.AllocCPUs, Power: p, Unavailable: why,
			ResumeFailed: failed, PowerDownRequested: asked, LastBusy: n.LastBusy, State: strings.ToLower(n.State), Flags: n.Flags})
	}
	return nodes, nil
}

type squeueJSON struct {
	Jobs []struct {
		ID        int64  `json:"job_id"`
		State     string `json:"job_state"`
		CPUs      int    `json:"cpus"`
		Nodes     string `json:"nodes"`
		Submit    int64  `json:"submit_time"`
		Start     int64  `json:"start_time"`
		TimeLimit *int64 `json:"time_limit"`
		User      string `json:"user_name"`
		Account   string `json:"account"`
	} `json:"jobs"`
}

// ParseSqueue reads squeue --json output: the pending and running jobs
// (finished ones, listed until MinJobAge, are left out).
func ParseSqueue(data []byte) ([]Job, error) {
	var s squeueJSON
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, err
	}
	var jobs []Job
	for i, j := range s.Jobs {
		var running bool
		switch strings.ToUpper(j.State) {
		case "PENDING", "REQUEUED", "REQUEUE_HOLD", "REQUEUE_FED", "RESV_DEL_HOLD":
		case "RUNNING", "CONFIGURING", "COMPLETING", "SUSPENDED", "RESIZING", "SIGNALING", "STAGE_OUT":
			running = true
		default:
			continue
		}
		job := Job{ID: j.ID, Running: running, CPUs: max(j.CPUs, 1), Submit: j.Submit, Start: j.Start, User: j.User, Account: j.Account}
		if j.TimeLimit != nil && *j.TimeLimit > 0 && *j.TimeLimit < 1<<40 {
			job.TimeLimit = *j.TimeLimit * 60
		}
		if running && j.Nodes != "" {
			names, err := expandHosts(j.Nodes)
			if err != nil {
				return nil, fmt.Errorf("jobs[%d].nodes: %w", i, err)
			}
			job.Nodes = names
		}
		jobs = append(jobs, job)
	}
	return jobs, nil
}
