package sim

import (
	"fmt"

	"github.com/ecotune/ecotune/datasets"
)

// Limits of a replay, checked by New before it allocates anything for the
// cluster or the jobs. They build on the trace limits of package datasets
// and are far beyond real use:
//
//	limit                     value                         why
//	nodes                     datasets.MaxNodes (1,048,576)  per-node state
//	slots, in all and a node  datasets.MaxProcs (16,777,216) per-slot state
//	jobs                      datasets.MaxJobs               int32 job ranks
//	submit time               0 .. datasets.MaxTime          Unix seconds, before 2200
//	run, requested time       datasets.MaxDuration (100 y)
//	MaxSpan                   2^38 s (about 8,700 years)     bounded work, no overflow
//	boot, shutdown, sleep     datasets.MaxDuration
//	entry and exit times
//
// MaxSpan bounds how far a replay can reach: the time from the first
// submission to the last, plus every job's run time (the jobs run one
// after the other). The simulator does some work for every simulated day
// (and policies for every decision cycle while jobs run), so a trace
// spanning more cannot be replayed in bounded time; and with at most
// datasets.MaxProcs slots no node- or slot-second sum over MaxSpan
// overflows an int64 (2^24 × 2^38 = 2^62).
const MaxSpan int64 = 1 << 38

// checkCluster checks c against the limits, without overflow, before
// anything is allocated for it.
func checkCluster(c Cluster) error {
	nodes, slots := 0, 0
	for i, g := range c.Groups {
		switch {
		case g.Count > datasets.MaxNodes:
			return fmt.Errorf("groups[%d].count: %d nodes is more than the limit, %d", i, g.Count, datasets.MaxNodes)
		case g.Slots > datasets.MaxProcs:
			return fmt.Errorf("groups[%d].slots: %d slots per node is more than the limit, %d", i, g.Slots, datasets.MaxProcs)
		}
		nodes += max(g.Count, 0)
		slots += max(g.Count, 0) * max(g.Slots, 0) // ≤ 2^20 · 2^24 per group
		switch {
		case nodes > datasets.MaxNodes:
			return fmt.Errorf("groups: %d nodes or more in all is more than the limit, %d", nodes, datasets.MaxNodes)
		case slots > datasets.MaxProcs:
			return fmt.Errorf("groups: %d slots or more in all is more than the limit, %d", slots, datasets.MaxProcs)
		}
		if err := checkModelTimes(g.Model.BootS, g.Model.ShutdownS); err != nil {
			return fmt.Errorf("groups[%d].model.%w", i, err)
		}
		for k, l := range g.Model.SleepLevels {
			if err := checkModelTimes(l.EnterS, l.ExitS); err != nil {
				return fmt.Errorf("groups[%d].model.sleep_levels[%d].%w", i, k, err)
			}
		}
	}
	return nil
}

// checkModelTimes checks a pair of transition durations (boot and
// shutdown, or a sleep level's exit and entry).
func checkModelTimes(on, off int64) error {
	if on > datasets.MaxDuration || off > datasets.MaxDuration {
		return fmt.Errorf("transition time: %d s or %d s is more than the limit, %d s (100 years)", on, off, datasets.MaxDuration)
	}
	return nil
}

// checkReplayJob checks job j, the n-th of a trace (from 0), for a
// cluster of totalSlots slots, after the jobs before it: it can be
// replayed, it comes in submit order (prev is the job before), it is
// within the limits, and span, the run times so far (it adds j's), stays
// within MaxSpan from first, the first submit time. It allocates nothing.
func checkReplayJob(name string, n int, j *datasets.Job, prevID, prevSubmit, first int64, span *int64, totalSlots int) error {
	switch {
	case n >= datasets.MaxJobs:
		return fmt.Errorf("sim: trace %q has %d jobs, more than the limit, %d", name, n+1, datasets.MaxJobs)
	case j.Procs == datasets.Unknown || j.Run == datasets.Unknown:
		return fmt.Errorf("sim: job %d: unknown processors or run time (the trace must drop such jobs)", j.ID)
	case j.Procs < 1:
		return fmt.Errorf("sim: job %d needs %d slots: must be at least 1", j.ID, j.Procs)
	case j.Run < 0:
		return fmt.Errorf("sim: job %d: run time %d is negative", j.ID, j.Run)
	case int(j.Procs) > totalSlots:
		return fmt.Errorf("sim: job %d needs %d slots, cluster has %d", j.ID, j.Procs, totalSlots)
	case n > 0 && j.Submit < prevSubmit:
		return fmt.Errorf("sim: job %d: submitted at %d before job %d at %d: the trace must be sorted by submit time", j.ID, j.Submit, prevID, prevSubmit)
	case j.Submit < 0 || j.Submit > datasets.MaxTime:
		return fmt.Errorf("sim: job %d: submit time %d is outside 0..%d (2200-01-01 00:00 UTC)", j.ID, j.Submit, datasets.MaxTime)
	case j.Run > datasets.MaxDuration:
		return fmt.Errorf("sim: job %d: run time %d s is more than the limit, %d s (100 years)", j.ID, j.Run, datasets.MaxDuration)
	case j.ReqTime > datasets.MaxDuration:
		return fmt.Errorf("sim: job %d: requested time %d s is more than the limit, %d s (100 years)", j.ID, j.ReqTime, datasets.MaxDuration)
	}
	*span += j.Run // ≤ 2^38 + 2^32 before the check below: no overflow
	if *span+j.Submit-first > MaxSpan {
		return fmt.Errorf("sim: trace %q reaches beyond %d s (about 8,700 years) after its first submission by job %d, with the jobs run one after another: it cannot be replayed in bounded work", name, MaxSpan, j.ID)
	}
	return nil
}

// checkReplayJobs checks every job of tr as Builder.Add does, and that tr
// has a job: the whole-trace check of a partitioned replay, whose
// partitions' simulators then see their own jobs only.
func checkReplayJobs(tr *datasets.Trace, totalSlots int) error {
	if len(tr.Jobs) == 0 {
		return fmt.Errorf("sim: trace %q has no job", tr.Meta.Name)
	}
	var prevID, prevSubmit, span int64
	first := tr.Jobs[0].Submit
	for i := range tr.Jobs {
		j := &tr.Jobs[i]
		if err := checkReplayJob(tr.Meta.Name, i, j, prevID, prevSubmit, first, &span, totalSlots); err != nil {
			return err
		}
		prevID, prevSubmit = j.ID, j.Submit
	}
	return nil
}
