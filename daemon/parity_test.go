package daemon

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/internal/slurmtest"
	"github.com/ecotune/ecotune/sim"
	"github.com/ecotune/ecotune/slurm"
)

// plannedJob is one job of the parity trace: submitted offset after the
// start, on procs slots, sleeping run seconds.
type plannedJob struct {
	offset time.Duration
	procs  int
	run    int64
}

// parityTrace is 30 jobs in three bursts of ten, 150 s apart, each job
// 5–15 s on one or two slots, submitted within 20 s of its burst's start:
// a trace scaled to minutes whose idle gaps outlast a 60 s idle timeout.
func parityTrace(seed uint64) []plannedJob {
	rng := rand.New(rand.NewPCG(seed, 1))
	var jobs []plannedJob
	for burst := range 3 {
		for range 10 {
			jobs = append(jobs, plannedJob{
				offset: time.Duration(burst*150+rng.IntN(21)) * time.Second,
				procs:  1 + rng.IntN(2),
				run:    5 + rng.Int64N(11),
			})
		}
	}
	slices.SortStableFunc(jobs, func(a, b plannedJob) int { return int(a.offset - b.offset) })
	return jobs
}

// powerCounts are power-downs, power-ups and off node-seconds over a
// window.
type powerCounts struct {
	downs, ups int64
	off        int64
}

// livePower counts the SuspendProgram and ResumeProgram calls of the
// power log within (from, to), and integrates each node's off time (from
// its suspend call to its next resume call) over [from, to].
func livePower(events []slurmtest.PowerEvent, nodes []string, from, to int64) powerCounts {
	var pc powerCounts
	offSince := map[string]int64{}
	for _, e := range events {
		at := e.Time.Unix()
		for _, n := range e.Nodes {
			switch e.Verb {
			case "suspend":
				offSince[n] = at
				if at > from && at < to {
					pc.downs++
				}
			case "resume", "resume-failed":
				if s, ok := offSince[n]; ok {
					pc.off += max(0, min(at, to)-max(s, from))
					delete(offSince, n)
				}
				if at > from && at < to {
					pc.ups++
				}
			}
		}
	}
	for _, n := range nodes {
		if s, ok := offSince[n]; ok {
			pc.off += max(0, to-max(s, from))
		}
	}
	return pc
}

func within(live, simulated, tolerance float64) bool {
	if simulated == 0 {
		return live == 0
	}
	return live >= simulated*(1-tolerance) && live <= simulated*(1+tolerance)
}

// TestLiveSimParity: the parity trace submitted with sbatch at its submit
// times while the daemon runs an idle-timeout rule set, and the same
// trace and rule set through the simulator, give power-downs, power-ups
// and off node-seconds within 20 % of each other.
func TestLiveSimParity(t *testing.T) {
	t.Parallel()
	const nodes = 4
	c := slurmtest.Start(t, slurmtest.Options{Nodes: nodes, SuspendTime: 3600, MinJobAge: 1800})
	rs := loopRules(t, "idle-timeout", nodes, map[string]float64{"idle_timeout": 60})
	plan := parityTrace(7)
	l := runDaemon(t, c, rs, nil)
	start := time.Now().Add(time.Second)
	ids := make([]int64, len(plan))
	for i, p := range plan {
		time.Sleep(time.Until(start.Add(p.offset)))
		ids[i] = c.Sbatch(t, "-n", fmt.Sprint(p.procs), "-t", "2", "-o", "/dev/null", "--wrap", fmt.Sprintf("sleep %d", p.run))
	}
	jobs := map[int64]slurm.Job{}
	deadline := time.Now().Add(4 * time.Minute)
	for len(jobs) < len(ids) {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d jobs finished in time", len(jobs), len(ids))
		}
		time.Sleep(2 * time.Second)
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		all, err := c.Client().Jobs(ctx)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		for _, j := range all {
			if slices.Contains(ids, j.ID) && j.Phase() == slurm.JobFinished {
				jobs[j.ID] = j
			}
		}
	}
	if err := l.stop(t); err != nil {
		t.Errorf("Run: %v", err)
	}

	// The same trace, as submitted, through the simulator.
	tr := &datasets.Trace{}
	tIni, tEnd := int64(1<<62), int64(0)
	for i, p := range plan {
		j := jobs[ids[i]]
		if j.State != "COMPLETED" {
			t.Errorf("job %d: %s", j.ID, j.State)
		}
		submit := j.SubmitTime.Unix()
		tIni, tEnd = min(tIni, submit), max(tEnd, j.EndTime.Unix())
		tr.Jobs = append(tr.Jobs, datasets.Job{ID: j.ID, Submit: submit, Wait: datasets.Unknown, Run: p.run,
			Procs: int32(p.procs), ReqProcs: int32(p.procs), ReqTime: 120, Status: 1})
	}
	slices.SortStableFunc(tr.Jobs, func(a, b datasets.Job) int { return int(a.Submit - b.Submit) })
	p, err := rs.NewPolicy()
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(tr, sim.Uniform(nodes, 1, rs.Cluster[0].Model), p, sim.Options{Scheduler: sim.EASY, Period: rs.Period})
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, nodes)
	for i := range names {
		names[i] = fmt.Sprintf("node%02d", i+1)
	}
	live := livePower(c.PowerLog(t), names, tIni, tEnd)
	t.Logf("parity, live (loopback Slurm, %d s from first submit to last end): %d power-downs, %d power-ups, %d off node-seconds",
		tEnd-tIni, live.downs, live.ups, live.off)
	t.Logf("parity, simulated (%d s): %d power-downs, %d power-ups, %d off node-seconds",
		res.TEnd-res.TIni, res.Shutdowns, res.Boots, res.OffNodeSeconds)
	for _, x := range []struct {
		name        string
		live, model int64
	}{{"power-downs", live.downs, res.Shutdowns}, {"power-ups", live.ups, res.Boots}, {"off node-seconds", live.off, res.OffNodeSeconds}} {
		if !within(float64(x.live), float64(x.model), 0.2) {
			t.Errorf("%s: live %d, simulated %d: more than 20 %% apart", x.name, x.live, x.model)
		}
	}
	if live.downs == 0 || res.Shutdowns == 0 {
		t.Error("no power-down at all: the trace does not test parity")
	}
}

// The counting of live power on a hand-made log.
func TestLivePowerCounts(t *testing.T) {
	ev := func(at int64, verb string, nodes ...string) slurmtest.PowerEvent {
		return slurmtest.PowerEvent{Time: time.Unix(at, 0), Verb: verb, Nodes: nodes}
	}
	log := []slurmtest.PowerEvent{
		ev(50, "suspend", "a"), // before the window: off from 100
		ev(120, "resume", "a"),
		ev(150, "suspend", "a", "b"),
		ev(170, "resume-failed", "b"),
		ev(190, "resume", "a"),
		ev(195, "suspend", "b"), // off to the end at 200
	}
	got := livePower(log, []string{"a", "b"}, 100, 200)
	// downs 150 (a, b), 195 (b); ups 120, 170, 190; off a 100–120 and
	// 150–190, b 150–170 and 195–200.
	want := powerCounts{downs: 3, ups: 3, off: 20 + 40 + 20 + 5}
	if got != want {
		t.Errorf("%+v, want %+v", got, want)
	}
}
