package daemon

import (
	"context"

	"github.com/ecotune/ecotune/slurm"
)

// Slurm is a Source and an Actuator on a live Slurm through the slurm
// adapter: nodes from sinfo --json, jobs from squeue --json (text where
// the version lacks --json), and scontrol's power verbs.
type Slurm struct {
	Client *slurm.Client
}

// Snapshot reads nodes and jobs (finished jobs left out).
func (s *Slurm) Snapshot(ctx context.Context) (*Snapshot, error) {
	nodes, err := s.Client.Nodes(ctx)
	if err != nil {
		return nil, err
	}
	jobs, err := s.Client.Jobs(ctx)
	if err != nil {
		return nil, err
	}
	snap := &Snapshot{Nodes: make([]Node, 0, len(nodes))}
	seen := map[string]bool{}
	for i := range nodes {
		if seen[nodes[i].Name] {
			continue
		}
		seen[nodes[i].Name] = true
		snap.Nodes = append(snap.Nodes, NodeOf(&nodes[i]))
	}
	for i := range jobs {
		if j, ok := JobOf(&jobs[i]); ok {
			snap.Jobs = append(snap.Jobs, j)
		}
	}
	return snap, nil
}

// PowerDown asks Slurm to power idle nodes down.
func (s *Slurm) PowerDown(ctx context.Context, nodes []string) error {
	return s.Client.PowerDown(ctx, nodes, false)
}

// PowerUp asks Slurm to power nodes up.
func (s *Slurm) PowerUp(ctx context.Context, nodes []string) error {
	return s.Client.PowerUp(ctx, nodes)
}
