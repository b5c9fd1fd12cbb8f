package daemon

import (
	"fmt"

	"github.com/ecotune/ecotune/policy"
)

// Verbs of Slurm's power saving the daemon uses.
const (
	VerbPowerDown = "power_down"
	VerbPowerUp   = "power_up"
)

// Command is one scontrol power command.
type Command struct {
	Verb   string   `json:"verb"`
	Nodes  []string `json:"nodes"`
	DryRun bool     `json:"dry_run,omitempty"`
	Error  string   `json:"error,omitempty"`
}

// Refusal is a command the policy asked for that the daemon does not
// carry out, and why.
type Refusal struct {
	Node string `json:"node"`
	Verb string `json:"verb"`
	Why  string `json:"why"`
}

// Guard holds what may never be touched.
type Guard struct {
	Exclude    map[string]bool // nodes never powered down or up
	MaxBooting int             // most managed nodes booting at once (0: no limit)
}

// Translate turns the policy's decision, taken on v, into at most one
// power_down and one power_up command, checked against the live nodes:
// a node is powered down only if it is available (not down, drained,
// failed, in maintenance, reserved or not responding), not excluded,
// idle with no allocated CPU and no running job on it, and no power down
// is under way; powered up only if available, not excluded, powered down
// and not failed; and never so many that more than MaxBooting nodes boot
// at once. Frequency changes have no Slurm verb and are refused.
func (g *Guard) Translate(d *policy.Decision, v *policy.View, snap *Snapshot) ([]Command, []Refusal) {
	byName := make(map[string]*Node, len(snap.Nodes))
	for i := range snap.Nodes {
		byName[snap.Nodes[i].Name] = &snap.Nodes[i]
	}
	seen := map[string]bool{}
	down, refused := g.powerDowns(d.PowerOff, v, byName, nodesWithJob(snap.Jobs), seen)
	up, refusedUp := g.powerUps(d.PowerOn, v, byName, seen)
	refused = append(refused, refusedUp...)
	for _, f := range d.Freq {
		refused = append(refused, Refusal{Node: v.Nodes[f.Node].Name, Verb: "freq", Why: "Slurm has no frequency verb for idle nodes"})
	}
	var cmds []Command
	if len(down) > 0 {
		cmds = append(cmds, Command{Verb: VerbPowerDown, Nodes: down})
	}
	if len(up) > 0 {
		cmds = append(cmds, Command{Verb: VerbPowerUp, Nodes: up})
	}
	return cmds, refused
}

// nodesWithJob is the set of nodes a running job is on.
func nodesWithJob(jobs []Job) map[string]bool {
	withJob := map[string]bool{}
	for _, j := range jobs {
		if j.Running {
			for _, n := range j.Nodes {
				withJob[n] = true
			}
		}
	}
	return withJob
}

// powerDowns are the nodes of the decision's power-offs that may be
// powered down, and the refusals of the others; seen records the nodes
// taken.
func (g *Guard) powerDowns(offs []policy.NodeCommand, v *policy.View, byName map[string]*Node, withJob, seen map[string]bool) ([]string, []Refusal) {
	var down []string
	var refused []Refusal
	for _, c := range offs {
		name := v.Nodes[c.Node].Name
		if why := g.downWhy(byName[name], withJob[name], seen[name]); why != "" {
			refused = append(refused, Refusal{Node: name, Verb: VerbPowerDown, Why: why})
			continue
		}
		seen[name] = true
		down = append(down, name)
	}
	return down, refused
}

// powerUps are the nodes of the decision's power-ons that may be powered
// up, at most MaxBooting booting at once with those of v, and the
// refusals of the others; seen records the nodes taken.
func (g *Guard) powerUps(ons []int, v *policy.View, byName map[string]*Node, seen map[string]bool) ([]string, []Refusal) {
	booting := 0
	for i := range v.Nodes {
		if v.Nodes[i].State == policy.Booting {
			booting++
		}
	}
	var up []string
	var refused []Refusal
	for _, i := range ons {
		name := v.Nodes[i].Name
		why := g.upWhy(byName[name], seen[name])
		if why == "" && g.MaxBooting > 0 && booting >= g.MaxBooting {
			why = fmt.Sprintf("%d nodes booting, at most %d", booting, g.MaxBooting)
		}
		if why != "" {
			refused = append(refused, Refusal{Node: name, Verb: VerbPowerUp, Why: why})
			continue
		}
		seen[name] = true
		up = append(up, name)
		booting++
	}
	return up, refused
}

func (g *Guard) downWhy(n *Node, hasJob, repeated bool) string {
	switch {
	case n == nil:
		return "not in Slurm's node list"
	case repeated:
		return "already in this decision"
	case g.Exclude[n.Name]:
		return "excluded"
	case n.Unavailable != "":
		return "unavailable: " + n.Unavailable
	case hasJob || n.AllocCPUs > 0:
		return "runs a job"
	case n.Power != policy.Idle:
		return "not idle: " + n.Power.String()
	case n.PowerDownRequested:
		return "power down already asked"
	}
	return ""
}

func (g *Guard) upWhy(n *Node, repeated bool) string {
	switch {
	case n == nil:
		return "not in Slurm's node list"
	case repeated:
		return "already in this decision"
	case g.Exclude[n.Name]:
		return "excluded"
	case n.ResumeFailed:
		return "failed to resume: left to Slurm"
	case n.Unavailable != "":
		return "unavailable: " + n.Unavailable
	case n.Power != policy.Off:
		return "not powered down: " + n.Power.String()
	}
	return ""
}

// Recheck drops from a power_down command the nodes that, in a fresh
// snapshot taken just before it runs, are no longer idle, available and
// free of jobs (a job may have landed since the poll), and says why.
func (g *Guard) Recheck(c *Command, fresh *Snapshot) []Refusal {
	byName := make(map[string]*Node, len(fresh.Nodes))
	for i := range fresh.Nodes {
		byName[fresh.Nodes[i].Name] = &fresh.Nodes[i]
	}
	withJob := map[string]bool{}
	for _, j := range fresh.Jobs {
		if j.Running {
			for _, n := range j.Nodes {
				withJob[n] = true
			}
		}
	}
	var keep []string
	var refused []Refusal
	for _, n := range c.Nodes {
		if why := g.downWhy(byName[n], withJob[n], false); why != "" {
			refused = append(refused, Refusal{Node: n, Verb: c.Verb, Why: "changed since the poll: " + why})
			continue
		}
		keep = append(keep, n)
	}
	c.Nodes = keep
	return refused
}
