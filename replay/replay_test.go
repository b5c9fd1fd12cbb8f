package replay_test

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/replay"
	"github.com/ecotune/ecotune/sim"
)

// job is a hand-worked case's job: submit, run, slots, requested time
// (0: the run time), queue.
type job struct {
	submit, run int64
	slots       int32
	req         int64
	queue       string
}

func trace(jobs ...job) *datasets.Trace {
	tr := &datasets.Trace{Meta: datasets.Meta{Name: "hand", Nodes: 2, Procs: 2, ProcsPerNode: 1}}
	for i, j := range jobs {
		req := j.req
		if req == 0 {
			req = j.run
		}
		tr.Jobs = append(tr.Jobs, datasets.Job{ID: int64(i + 1), Submit: j.submit, Run: j.run, Procs: j.slots, ReqProcs: j.slots,
			ReqTime: req, Status: 1, User: "u", Group: "g", Queue: j.queue, Wait: datasets.Unknown})
	}
	return tr
}

// escs is a cluster of n one-slot nodes of the ESCS model (idle 150 W,
// +80 W per busy slot).
func escs(t testing.TB, n int) sim.Cluster {
	t.Helper()
	c, err := sim.ClusterSpec{Nodes: n, SlotsPerNode: 1, Model: "escs"}.Resolve(datasets.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// partitioned is escs(2) cut into partitions a and b of one node each.
func partitioned(t testing.TB) sim.Cluster {
	c := escs(t, 1)
	g := c.Groups[0]
	a, b := g, g
	a.Name, b.Name = "a", "b"
	return sim.Cluster{Groups: []sim.NodeGroup{a, b},
		Partitions: []sim.Partition{{Name: "a", Groups: []string{"a"}}, {Name: "b", Groups: []string{"b"}}}}
}

// TestHandWorked checks Run's scores against cases worked by hand, on
// two one-slot ESCS nodes under always-on.
func TestHandWorked(t *testing.T) {
	const busyW, idleW = 230.0, 150.0
	// j1 (1 slot, 100 s) runs 0–100 on one node; j2 (2 slots, 10 s) at 10
	// is blocked until 100; j3 (1 slot, 50 s) at 20 fits the other node
	// and ends by 70, before j2's reservation.
	backfill := trace(job{0, 100, 1, 0, ""}, job{10, 10, 2, 0, ""}, job{20, 50, 1, 0, ""})
	cases := []struct {
		name      string
		tr        *datasets.Trace
		cluster   sim.Cluster
		scheduler string
		waits     []int64 // mean and max follow
		makespan  int64
		joules    float64
		parts     []int // jobs of each partition
	}{{
		// FCFS: j2 runs 100–110, j3 110–160. Node 1 busy 0–110 (j1,
		// j2), idle 110–160; node 2 idle 0–100, busy 100–160 (j2, j3).
		name: "fcfs", tr: backfill, cluster: escs(t, 2), scheduler: sim.FCFS,
		waits: []int64{0, 90, 90}, makespan: 160,
		joules: busyW*(110+60) + idleW*(100+50),
	}, {
		// EASY: j3 backfills 20–70 on node 2; j2 runs 100–110.
		// Node 1 busy 0–110; node 2 idle 0–20, busy 20–70, idle 70–100,
		// busy 100–110.
		name: "easy", tr: backfill, cluster: escs(t, 2), scheduler: sim.EASY,
		waits: []int64{0, 90, 0}, makespan: 110,
		joules: busyW*(110+60) + idleW*(20+30),
	}, {
		// Partitions a and b, one node each: j1 and j3 queue in a (j3
		// waits for j1: 100–150), j2 runs alone in b (0–100). Each
		// partition's node stays on for the whole window, 0–150.
		name: "partitions", cluster: partitioned(t), scheduler: sim.FCFS,
		tr:    trace(job{0, 100, 1, 0, "a"}, job{0, 100, 1, 0, "b"}, job{10, 50, 1, 0, "a"}),
		waits: []int64{0, 0, 90}, makespan: 150,
		joules: busyW*(150+100) + idleW*50, parts: []int{2, 1},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := replay.Run(context.Background(), replay.TraceJobs(c.tr), replay.Setup{
				Trace: "hand", Config: policy.Config{Name: "always-on"}, Cluster: c.cluster, Scheduler: c.scheduler, Period: 60, Breakdowns: true})
			if err != nil {
				t.Fatal(err)
			}
			var sum, most int64
			for _, w := range c.waits {
				sum, most = sum+w, max(most, w)
			}
			s := res.Scores
			if s.Jobs != len(c.waits) || s.MaxWait != most || s.MeanWait != float64(sum)/float64(len(c.waits)) || s.Makespan != c.makespan {
				t.Errorf("jobs %d, max wait %d, mean wait %g, makespan %d; want %d, %d, %g, %d",
					s.Jobs, s.MaxWait, s.MeanWait, s.Makespan, len(c.waits), most, float64(sum)/float64(len(c.waits)), c.makespan)
			}
			if want := c.joules / 3.6e6; math.Abs(s.EnergyKWh-want) > 1e-9 {
				t.Errorf("energy %g kWh, want %g", s.EnergyKWh, want)
			}
			if s.Boots != 0 || s.Shutdowns != 0 || s.OffNodeSeconds != 0 {
				t.Errorf("always-on switched nodes: %+v", s)
			}
			if len(res.PartitionScores) != len(c.parts) || len(res.Partitions) != len(c.parts) {
				t.Fatalf("%d partitions scored (%d in JSON), want %d", len(res.PartitionScores), len(res.Partitions), len(c.parts))
			}
			for i, n := range c.parts {
				if res.PartitionScores[i].Jobs != n {
					t.Errorf("partition %s: %d jobs, want %d", res.PartitionScores[i].Name, res.PartitionScores[i].Jobs, n)
				}
			}
			if len(res.ByUser) != 1 || res.ByUser[0].Jobs != len(c.waits) || res.ByUser[0].MaxWait != most {
				t.Errorf("by_user %+v", res.ByUser)
			}
			if res.Scheduler != c.scheduler || res.PeriodS != 60 || res.Policy != "always-on" || res.Nodes != 2 {
				t.Errorf("setup echoed as %s, period %d, %s, %d nodes", res.Scheduler, res.PeriodS, res.Policy, res.Nodes)
			}
		})
	}
}

// TestSameAsDirectReplay: Run, a Replayer (reused over configs, in
// either order) and Each give the scores of a replay by the simulator
// itself (sim.New or sim.NewPartitioned, policy.New), for several
// policies, schedulers and both kinds of cluster, on the embedded trace.
func TestSameAsDirectReplay(t *testing.T) {
	tr, err := datasets.Default()
	if err != nil {
		t.Fatal(err)
	}
	if testing.Short() {
		tr = &datasets.Trace{Meta: tr.Meta, Jobs: tr.Jobs[:2000]}
	}
	plain, err := sim.ClusterSpec{}.Resolve(tr.Meta)
	if err != nil {
		t.Fatal(err)
	}
	parts := plain
	parts.Groups = []sim.NodeGroup{plain.Groups[0], plain.Groups[0]}
	// A second partition of 16 nodes that takes no job (its queue is
	// none of the trace's) beside the whole machine.
	parts.Groups[0].Name, parts.Groups[0].Count = "spare", 16
	parts.Groups[1].Name = "all"
	parts.Partitions = []sim.Partition{{Name: "spare", Groups: []string{"spare"}}, {Name: "all", Groups: []string{"all"}, Default: true}}
	configs := []policy.Config{{Name: "always-on"}, {Name: "idle-timeout", Params: map[string]float64{"idle_timeout": 300}}, {Name: "idle-timeout"}}
	for _, cluster := range []sim.Cluster{plain, parts} {
		for _, scheduler := range []string{sim.FCFS, sim.EASY, sim.Conservative} {
			opt := sim.Options{Scheduler: scheduler, Period: 60}
			want := make([]objectives.Scores, len(configs))
			for i, cfg := range configs {
				want[i] = direct(t, tr, cluster, opt, cfg)
			}
			rep := replay.NewReplayer(cluster, opt)
			tasks := make([]replay.Task, len(configs))
			for k := range 2 { // forwards, then backwards: renewed policies start afresh
				for n := range configs {
					i := n
					if k == 1 {
						i = len(configs) - 1 - n
					}
					r, err := rep.ReplayConfig(tr, configs[i])
					if err != nil {
						t.Fatal(err)
					}
					if got := objectives.Compute(r); !reflect.DeepEqual(got, want[i]) {
						t.Errorf("%d partitions, %s, %s: Replayer %+v, direct %+v", len(cluster.Partitions), scheduler, configs[i].Name, got, want[i])
					}
					tasks[i] = replay.Task{Trace: tr, Config: configs[i]}
				}
			}
			got := make([]objectives.Scores, len(configs))
			if err := replay.Each(context.Background(), cluster, opt, 2, tasks, func(i int, r *sim.Result) error {
				got[i] = objectives.Compute(r)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%d partitions, %s: Each differs from the direct replays", len(cluster.Partitions), scheduler)
			}
			res, err := replay.Run(context.Background(), replay.TraceJobs(tr), replay.Setup{Config: configs[1], Cluster: cluster, Scheduler: scheduler, Period: 60})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(res.Scores, want[1]) {
				t.Errorf("%d partitions, %s: Run %+v, direct %+v", len(cluster.Partitions), scheduler, res.Scores, want[1])
			}
		}
	}
}

func direct(t *testing.T, tr *datasets.Trace, c sim.Cluster, opt sim.Options, cfg policy.Config) objectives.Scores {
	t.Helper()
	mk := func() (policy.Policy, error) { return policy.New(cfg) }
	var r sim.Result
	if len(c.Partitions) > 0 {
		ps, err := sim.NewPartitioned(tr, c, opt)
		if err == nil {
			err = ps.RunInto(mk, &r)
		}
		if err != nil {
			t.Fatal(err)
		}
		return objectives.Compute(&r)
	}
	s, err := sim.New(tr, c, opt)
	if err != nil {
		t.Fatal(err)
	}
	p, err := mk()
	if err == nil {
		err = s.RunInto(p, &r)
	}
	if err != nil {
		t.Fatal(err)
	}
	return objectives.Compute(&r)
}

// TestRunFiles: the timeline and jobs files are written where asked, not
// replaced without Force, and the JSON keys are simulate --json's.
func TestRunFiles(t *testing.T) {
	dir := t.TempDir()
	setup := replay.Setup{Trace: "hand", Config: policy.Config{Name: "idle-timeout"}, Cluster: escs(t, 2), Scheduler: sim.EASY,
		Timeline: filepath.Join(dir, "tl.csv"), JobsFile: filepath.Join(dir, "jobs.csv")}
	tr := trace(job{0, 100, 1, 0, ""}, job{5000, 10, 2, 0, ""})
	res, err := replay.Run(context.Background(), replay.TraceJobs(tr), setup)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{setup.Timeline, setup.JobsFile} {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	b, err := os.ReadFile(setup.JobsFile)
	if err != nil || strings.Count(string(b), "\n") != 3 {
		t.Errorf("jobs file: %q, %v; want a header and 2 rows", b, err)
	}
	if _, err := replay.Run(context.Background(), replay.TraceJobs(tr), setup); err == nil {
		t.Error("a second run replaced the files without Force")
	}
	js, _ := json.Marshal(res)
	var keys map[string]any
	_ = json.Unmarshal(js, &keys)
	for _, k := range []string{"trace", "policy", "params", "scheduler", "period_s", "nodes", "slots", "jobs", "qos_p90", "boot_failures", "ignored_commands", "sim_seconds", "by_user"} {
		if _, ok := keys[k]; !ok {
			t.Errorf("JSON has no %q", k)
		}
	}
	if _, ok := keys["rules"]; ok {
		t.Error("JSON has rules without a rule set")
	}
}

// TestRunErrors: a bad policy, a job wider than the cluster and a
// cancelled context are errors naming what failed.
func TestRunErrors(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	tr := trace(job{0, 10, 1, 0, ""})
	for _, c := range []struct {
		name  string
		ctx   context.Context
		setup replay.Setup
		tr    *datasets.Trace
		want  string
	}{
		{"policy", context.Background(), replay.Setup{Config: policy.Config{Name: "nope"}, Cluster: escs(t, 2)}, tr, "nope"},
		{"wide", context.Background(), replay.Setup{Config: policy.Config{Name: "always-on"}, Cluster: escs(t, 2)}, trace(job{0, 10, 3, 0, ""}), "always-on"},
		{"cancelled", ctx, replay.Setup{Config: policy.Config{Name: "always-on"}, Cluster: escs(t, 2)}, tr, "canceled"},
	} {
		if _, err := replay.Run(c.ctx, replay.TraceJobs(c.tr), c.setup); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one naming %q", c.name, err, c.want)
		}
	}
}

// TestReplayerAllocations: a warm replayer's replay of a renewed policy
// allocates (almost) nothing.
func TestReplayerAllocations(t *testing.T) {
	tr, err := datasets.Default()
	if err != nil {
		t.Fatal(err)
	}
	c, err := sim.ClusterSpec{}.Resolve(tr.Meta)
	if err != nil {
		t.Fatal(err)
	}
	rep := replay.NewReplayer(c, sim.Options{Scheduler: sim.EASY})
	cfg := policy.Config{Name: "idle-timeout"}
	if _, err := rep.ReplayConfig(tr, cfg); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(3, func() {
		if _, err := rep.ReplayConfig(tr, cfg); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 10 {
		t.Errorf("a warm replay allocates %v times", allocs)
	}
}
