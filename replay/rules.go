package replay

import (
	"fmt"
	"strings"

	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
)

// A ClusterMismatchError is a rule set replayed on a cluster whose node
// groups differ from those it was tuned for: each side's groups as
// "COUNT × SLOTS slots", joined by " + ".
type ClusterMismatchError struct {
	RuleSet, Cluster string
}

func (e *ClusterMismatchError) Error() string {
	return fmt.Sprintf("the rule set was tuned for a cluster of %s nodes, the cluster is %s nodes", e.RuleSet, e.Cluster)
}

// RulesCluster is the cluster rs replays on: c with rs's power models,
// when c's node groups have the counts and slots of rs's; otherwise a
// *ClusterMismatchError.
func RulesCluster(rs *policy.RuleSet, c sim.Cluster) (sim.Cluster, error) {
	describe := func(n int, at func(int) (int, int)) string {
		parts := make([]string, n)
		for i := range parts {
			count, slots := at(i)
			parts[i] = fmt.Sprintf("%d × %d slots", count, slots)
		}
		return strings.Join(parts, " + ")
	}
	same := len(rs.Cluster) == len(c.Groups)
	for i := 0; same && i < len(c.Groups); i++ {
		same = rs.Cluster[i].Count == c.Groups[i].Count && rs.Cluster[i].Slots == c.Groups[i].Slots
	}
	if !same {
		return c, &ClusterMismatchError{
			RuleSet: describe(len(rs.Cluster), func(i int) (int, int) { return rs.Cluster[i].Count, rs.Cluster[i].Slots }),
			Cluster: describe(len(c.Groups), func(i int) (int, int) { return c.Groups[i].Count, c.Groups[i].Slots }),
		}
	}
	out := sim.Cluster{Name: c.Name, Groups: make([]sim.NodeGroup, len(c.Groups)), Partitions: c.Partitions}
	for i, g := range c.Groups {
		g.Model, g.GFLOPS = rs.Cluster[i].Model, rs.Cluster[i].GFLOPS
		out.Groups[i] = g
	}
	return out, nil
}
