package objectives

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ecotune/ecotune/sim"
)

// GroupScores are the figures of the jobs of one user, group or
// partition: how many, how long they waited (mean, median, longest, and
// the p90 wait ratio as Scores.QoSP90 defines it, over these jobs alone)
// and the node-hours they held.
type GroupScores struct {
	Name       string  `json:"name"`
	Jobs       int     `json:"jobs"`
	MeanWait   float64 `json:"mean_wait_s"`
	MedianWait float64 `json:"median_wait_s"`
	MaxWait    int64   `json:"max_wait_s"`
	QoSP90     float64 `json:"qos_p90"`
	NodeHours  float64 `json:"node_hours"`
}

// Breakdowns are a replay's scores per user, per group and per partition;
// Partitions has each partition's energy scores when the cluster declares
// partitions (sim.Partitioned).
type Breakdowns struct {
	ByUser      []GroupScores     `json:"by_user"`
	ByGroup     []GroupScores     `json:"by_group"`
	ByPartition []GroupScores     `json:"by_partition"`
	Partitions  []PartitionScores `json:"partitions,omitempty"`
}

// PartitionScores are one partition's share of a partitioned replay's
// scores, over the whole replay's window: its nodes and jobs, node-seconds
// off, reconfigurations, boots, shutdowns and energy.
type PartitionScores struct {
	Name             string  `json:"name"`
	Nodes            int     `json:"nodes"`
	Slots            int     `json:"slots"`
	Jobs             int     `json:"jobs"`
	OffNodeSeconds   int64   `json:"off_node_seconds"`
	Reconfigurations int64   `json:"reconfigurations"`
	Boots            int64   `json:"boots"`
	Shutdowns        int64   `json:"shutdowns"`
	EnergyKWh        float64 `json:"energy_kwh"`
}

// Partitions are r's partitions' scores, in the cluster's order (none
// when the cluster declares no partitions).
func Partitions(r *sim.Result) []PartitionScores {
	var out []PartitionScores
	for _, p := range r.Partitions {
		out = append(out, PartitionScores{Name: p.Name, Nodes: p.Nodes, Slots: p.Slots, Jobs: p.Jobs,
			OffNodeSeconds: p.OffNodeSeconds, Reconfigurations: p.Reconfigurations, Boots: p.Boots, Shutdowns: p.Shutdowns,
			EnergyKWh: p.EnergyWh / 1000})
	}
	return out
}

// Breakdown scores the jobs of r by keys[i], the name of job i's user,
// group or partition (r.Jobs order), one entry per name in name order.
//
// A job's node-hours are its run time times the share of each node's
// slots it held, summed over its nodes, from r.Placements when the replay
// recorded them (sim.Options.JobNodes); without them a job of s slots
// holds s·Nodes/Slots nodes, which is exact when every node has as many
// slots.
func Breakdown(r *sim.Result, keys []string) ([]GroupScores, error) {
	if len(keys) != r.NumJobs() {
		return nil, fmt.Errorf("objectives: %d keys for %d jobs", len(keys), r.NumJobs())
	}
	if r.Placements != nil && len(r.Placements) != r.NumJobs() {
		return nil, fmt.Errorf("objectives: %d placements for %d jobs", len(r.Placements), r.NumJobs())
	}
	names, order, start := groupJobs(keys)
	out := make([]GroupScores, 0, len(names))
	longest := 0
	for g := range names {
		longest = max(longest, start[g+1]-start[g])
	}
	ratios, waits := make([]float64, 0, longest), make([]float64, 0, longest)
	byName := make([]int, len(names))
	for g := range byName {
		byName[g] = g
	}
	slices.SortFunc(byName, func(a, b int) int { return strings.Compare(names[a], names[b]) })
	for _, k := range byName {
		idx := order[start[k]:start[k+1]]
		g := GroupScores{Name: names[k], Jobs: len(idx)}
		ratios, waits = ratios[:0], waits[:0]
		var waitSum, nodeSec float64
		for _, i := range idx {
			i := int(i)
			j := r.Job(i)
			wait, run := j.Start-j.Submit, j.End-j.Start
			waitSum += float64(wait)
			g.MaxWait = max(g.MaxWait, wait)
			ratios = append(ratios, float64(wait)/float64(max(run, 1)))
			waits = append(waits, float64(wait))
			if r.Placements != nil {
				nodeSec += r.Placements[i].NodeSeconds(run, r.NodeSlots)
			} else if r.Slots > 0 {
				nodeSec += float64(j.Slots) * float64(run) * float64(r.Nodes) / float64(r.Slots)
			}
		}
		n := len(idx)
		g.MeanWait = waitSum / float64(n)
		g.QoSP90 = kth(ratios, min(9*n/10, n-1))
		g.MedianWait = kth(waits, n/2)
		if n%2 == 0 {
			g.MedianWait = (g.MedianWait + maxOf(waits[:n/2])) / 2
		}
		g.NodeHours = nodeSec / 3600
		out = append(out, g)
	}
	return out, nil
}

// groupJobs sorts jobs 0..len(keys)-1 by key, keeping their order within
// a key (a counting sort: one map lookup a job, no slice a key): the keys
// in order of first appearance, the jobs of key k as
// order[start[k]:start[k+1]].
func groupJobs(keys []string) (names []string, order []int32, start []int) {
	ids := make([]int32, len(keys))
	index := map[string]int32{}
	for i, k := range keys {
		id, ok := index[k]
		if !ok {
			id = int32(len(names))
			index[k] = id
			names = append(names, k)
		}
		ids[i] = id
	}
	start = make([]int, len(names)+1)
	for _, id := range ids {
		start[id+1]++
	}
	for g := range names {
		start[g+1] += start[g]
	}
	next := slices.Clone(start[:len(names)])
	order = make([]int32, len(keys))
	for i, id := range ids {
		order[next[id]] = int32(i)
		next[id]++
	}
	return names, order, start
}
