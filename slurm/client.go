package slurm

import (
	"context"
	"fmt"
	"strings"
	"sync"
)

// Client reads a Slurm cluster and runs its power verbs through a Runner.
// The version is detected once, on first use. A Client is safe for
// concurrent use.
type Client struct {
	runner Runner

	mu      sync.Mutex
	version *Version
}

// NewClient returns a client that runs commands through r (nil: an
// ExecRunner with the process's environment and DefaultTimeout).
func NewClient(r Runner) *Client {
	if r == nil {
		r = ExecRunner{}
	}
	return &Client{runner: r}
}

// Version returns the cluster's Slurm version from `scontrol version`,
// remembered after the first success.
func (c *Client) Version(ctx context.Context) (Version, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.version != nil {
		return *c.version, nil
	}
	out, err := c.runner.Run(ctx, nil, "scontrol", "version")
	if err != nil {
		return Version{}, err
	}
	v, err := ParseVersion(string(out))
	if err != nil {
		return Version{}, fmt.Errorf("scontrol version: %w", err)
	}
	c.version = &v
	return v, nil
}

// SetVersion fixes the version instead of asking `scontrol version`.
func (c *Client) SetVersion(v Version) {
	c.mu.Lock()
	c.version = &v
	c.mu.Unlock()
}

// textEnv makes Slurm's text outputs write times as Unix seconds.
var textEnv = []string{"SLURM_TIME_FORMAT=%s"}

// Nodes returns every node: from `sinfo --json` where the version has it,
// else from `scontrol show node -o`.
func (c *Client) Nodes(ctx context.Context) ([]Node, error) {
	v, err := c.Version(ctx)
	if err != nil {
		return nil, err
	}
	if v.HasJSON() {
		out, err := c.runner.Run(ctx, nil, "sinfo", "--json")
		if err != nil {
			return nil, err
		}
		return ParseNodesJSON(out)
	}
	return c.NodesText(ctx)
}

// NodesText returns every node from `scontrol show node -o`, whatever the
// version (the fallback Nodes uses when --json is missing).
func (c *Client) NodesText(ctx context.Context) ([]Node, error) {
	out, err := c.runner.Run(ctx, textEnv, "scontrol", "show", "node", "-o")
	if err != nil {
		return nil, err
	}
	return ParseScontrolNodes(out)
}

// Jobs returns every job Slurm lists (pending, running and, until
// MinJobAge, finished): from `squeue --json` where the version has it, else
// from squeue's parsable text.
func (c *Client) Jobs(ctx context.Context) ([]Job, error) {
	v, err := c.Version(ctx)
	if err != nil {
		return nil, err
	}
	if v.HasJSON() {
		out, err := c.runner.Run(ctx, nil, "squeue", "--json")
		if err != nil {
			return nil, err
		}
		return ParseJobsJSON(out)
	}
	return c.JobsText(ctx)
}

// JobsText returns every job from `squeue -h -a -t all -o SqueueFormat`.
func (c *Client) JobsText(ctx context.Context) ([]Job, error) {
	out, err := c.runner.Run(ctx, textEnv, "squeue", "-h", "-a", "-t", "all", "-o", SqueueFormat)
	if err != nil {
		return nil, err
	}
	return ParseSqueueText(out)
}

// PowerDownArgs is the command line that asks Slurm to power nodes down:
// `scontrol update nodename=NODES state=power_down` (power_down_asap with
// asap: drain first, power down once the node's jobs end) on 22.05, and
// `scontrol power down [asap] NODES` on versions that have it.
func PowerDownArgs(v Version, nodes []string, asap bool) ([]string, error) {
	list, err := nodeArg(nodes)
	if err != nil {
		return nil, err
	}
	if v.HasPowerCommand() {
		args := []string{"scontrol", "power", "down"}
		if asap {
			args = append(args, "asap")
		}
		return append(args, list), nil
	}
	state := "power_down"
	if asap {
		state = "power_down_asap"
	}
	return []string{"scontrol", "update", "nodename=" + list, "state=" + state}, nil
}

// PowerUpArgs is the command line that asks Slurm to power nodes up:
// `scontrol update nodename=NODES state=power_up` on 22.05, `scontrol power
// up NODES` on versions that have it.
func PowerUpArgs(v Version, nodes []string) ([]string, error) {
	list, err := nodeArg(nodes)
	if err != nil {
		return nil, err
	}
	if v.HasPowerCommand() {
		return []string{"scontrol", "power", "up", list}, nil
	}
	return []string{"scontrol", "update", "nodename=" + list, "state=power_up"}, nil
}

func nodeArg(nodes []string) (string, error) {
	if len(nodes) == 0 {
		return "", fmt.Errorf("slurm: no nodes given")
	}
	for _, n := range nodes {
		if n == "" || strings.ContainsAny(n, "=,[] \t\n\r\"'") {
			return "", fmt.Errorf("slurm: %q is not a node name", n)
		}
	}
	return CompressHostlist(nodes)
}

// PowerDown asks Slurm to power the nodes down (asap: once their jobs end).
// Slurm runs its SuspendProgram; the nodes go idle% then idle~.
func (c *Client) PowerDown(ctx context.Context, nodes []string, asap bool) error {
	v, err := c.Version(ctx)
	if err != nil {
		return err
	}
	args, err := PowerDownArgs(v, nodes, asap)
	if err != nil {
		return err
	}
	_, err = c.runner.Run(ctx, nil, args[0], args[1:]...)
	return err
}

// PowerUp asks Slurm to power the nodes up; Slurm runs its ResumeProgram.
func (c *Client) PowerUp(ctx context.Context, nodes []string) error {
	v, err := c.Version(ctx)
	if err != nil {
		return err
	}
	args, err := PowerUpArgs(v, nodes)
	if err != nil {
		return err
	}
	_, err = c.runner.Run(ctx, nil, args[0], args[1:]...)
	return err
}
