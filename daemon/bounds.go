package daemon

import (
	"fmt"

	"github.com/ecotune/ecotune/internal/horizon"
	"github.com/ecotune/ecotune/policy"
)

// clampSnapshot holds what Slurm reported within the bounds `ecotune
// decide` accepts (internal/horizon), so that one odd job cannot stop
// every cycle: a clock beyond the horizon is refused (the cycle fails,
// deciding nothing); a job asking more CPUs than the cluster's slots
// (total) is held to them, a time limit beyond 100 years (or negative) to
// 100 years (0, unknown), and a submit or start time to [0, now]. It
// returns one notice per job field it changed, for the log.
func clampSnapshot(snap *Snapshot, total int) ([]string, error) {
	if snap.Time < 0 || snap.Time > horizon.Unix {
		return nil, fmt.Errorf("the clock reads %d: out of range: beyond [0, the horizon %s (%d)]", snap.Time, horizon.Text, horizon.Unix)
	}
	var notes []string
	for i := range snap.Jobs {
		j := &snap.Jobs[i]
		if j.CPUs > total {
			notes = append(notes, fmt.Sprintf("job %d: %d CPUs out of range: the cluster has %d slots: taken as %d", j.ID, j.CPUs, total, total))
			j.CPUs = total
		}
		switch {
		case j.TimeLimit > horizon.MaxDuration:
			notes = append(notes, fmt.Sprintf("job %d: time limit %d s out of range: more than %d (100 years): taken as %d", j.ID, j.TimeLimit, horizon.MaxDuration, horizon.MaxDuration))
			j.TimeLimit = horizon.MaxDuration
		case j.TimeLimit < 0:
			notes = append(notes, fmt.Sprintf("job %d: time limit %d s is negative: taken as unknown", j.ID, j.TimeLimit))
			j.TimeLimit = 0
		}
		for _, t := range []struct {
			name string
			v    *int64
		}{{"submit", &j.Submit}, {"start", &j.Start}} {
			if *t.v < 0 || *t.v > snap.Time {
				c := min(max(*t.v, 0), snap.Time)
				notes = append(notes, fmt.Sprintf("job %d: %s %d out of range [0, now %d]: taken as %d", j.ID, t.name, *t.v, snap.Time, c))
				*t.v = c
			}
		}
	}
	return notes, nil
}

// clusterSlots is the slots of the live cluster's nodes.
func clusterSlots(groups []policy.Group) int {
	n := 0
	for _, g := range groups {
		n += g.Count * g.Slots
	}
	return n
}
