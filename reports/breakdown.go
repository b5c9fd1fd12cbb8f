package reports

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/replay"
	"github.com/ecotune/ecotune/sim"
)

// TopUsers is how many users the report's per-user table lists: those
// that held the most node-hours.
const TopUsers = 10

// Breakdowns scores the replay r of tr per user, group and partition
// (replay.Breakdowns).
func Breakdowns(tr *datasets.Trace, r *sim.Result) (objectives.Breakdowns, error) {
	return replay.Breakdowns(tr, r)
}

// breakdownTables are the replay's per-partition, per-group and per-user
// tables (the TopUsers users with the most node-hours), or none when the
// picked solution was not replayed.
func (rep *Report) breakdownTables() []table {
	if rep.Breakdowns == nil {
		return nil
	}
	b := rep.Breakdowns
	users := slices.Clone(b.ByUser)
	slices.SortStableFunc(users, func(x, y objectives.GroupScores) int { return cmp.Compare(y.NodeHours, x.NodeHours) })
	caption := "users"
	if len(users) > TopUsers {
		users = users[:TopUsers]
		caption = strconv.Itoa(TopUsers) + " users of " + strconv.Itoa(len(b.ByUser)) + ", by node-hours"
	}
	of := func(id, what string, gs []objectives.GroupScores) table {
		t := table{ID: id, Caption: "Per " + what + " (picked solution, " + rep.replaySplit() + ")",
			Header: []string{what, "jobs", "mean wait (s)", "median wait (s)", "max wait (s)", "p90 wait ratio", "node-hours"}}
		for _, g := range gs {
			t.Rows = append(t.Rows, []string{g.Name, strconv.Itoa(g.Jobs), num(g.MeanWait), num(g.MedianWait),
				strconv.FormatInt(g.MaxWait, 10), num(g.QoSP90), num(g.NodeHours)})
		}
		return t
	}
	t := of("by-user", "user", users)
	t.Caption = "Per user: the " + caption + " (picked solution, " + rep.replaySplit() + ")"
	out := []table{of("by-partition", "partition", b.ByPartition), of("by-group", "group", b.ByGroup), t}
	if len(b.Partitions) == 0 {
		return out
	}
	pt := table{ID: "partition-energy", Caption: "Per partition of the cluster: energy (picked solution, " + rep.replaySplit() + ")",
		Header: []string{"partition", "nodes", "jobs", "node-hours off", "reconfigurations", "kWh"}}
	for _, p := range b.Partitions {
		pt.Rows = append(pt.Rows, []string{p.Name, strconv.Itoa(p.Nodes), strconv.Itoa(p.Jobs), num(float64(p.OffNodeSeconds) / 3600),
			strconv.FormatInt(p.Reconfigurations, 10), num(p.EnergyKWh)})
	}
	return append(out[:1], append([]table{pt}, out[1:]...)...)
}
