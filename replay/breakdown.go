package replay

import (
	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/sim"
)

// Breakdowns scores the replay r of tr per user, group and partition
// (the cluster's partitions when it has some, else the log's:
// sim.Result.PartitionOf).
func Breakdowns(tr *datasets.Trace, r *sim.Result) (b objectives.Breakdowns, err error) {
	users, groups, parts := make([]string, len(tr.Jobs)), make([]string, len(tr.Jobs)), make([]string, len(tr.Jobs))
	for i := range tr.Jobs {
		j := &tr.Jobs[i]
		users[i], groups[i], parts[i] = j.User, j.Group, r.PartitionOf(i, j)
	}
	if b.ByUser, err = objectives.Breakdown(r, users); err != nil {
		return b, err
	}
	if b.ByGroup, err = objectives.Breakdown(r, groups); err != nil {
		return b, err
	}
	b.ByPartition, err = objectives.Breakdown(r, parts)
	b.Partitions = objectives.Partitions(r)
	return b, err
}

// simulatorBreakdowns is Breakdowns for the jobs of s (a lean replay,
// whose trace is not in memory): partitions are the log's
// (sim.NamesPartition).
func simulatorBreakdowns(s *sim.Simulator, r *sim.Result) (b objectives.Breakdowns, err error) {
	keys := make([]string, r.NumJobs())
	for k, out := range []*[]objectives.GroupScores{&b.ByUser, &b.ByGroup, &b.ByPartition} {
		for i := range keys {
			nm := s.JobNames(i)
			switch k {
			case 0:
				keys[i] = nm.User
			case 1:
				keys[i] = nm.Group
			default:
				keys[i] = sim.NamesPartition(nm)
			}
		}
		if *out, err = objectives.Breakdown(r, keys); err != nil {
			return b, err
		}
	}
	return b, nil
}
