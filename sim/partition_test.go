package sim_test

import (
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
)

// queued sets the queue of each job of tr (trace order).
func queued(tr *datasets.Trace, queues ...string) *datasets.Trace {
	for i, q := range queues {
		tr.Jobs[i].Queue = q
	}
	return tr
}

// maker makes fresh instances of p (a value type: copies are independent).
func maker(p policy.Policy) sim.PolicyMaker {
	return func() (policy.Policy, error) { return p, nil }
}

// configMaker makes fresh instances of a registered policy.
func configMaker(t testing.TB, name string) sim.PolicyMaker {
	t.Helper()
	if _, err := policy.New(policy.Config{Name: name}); err != nil {
		t.Fatal(err)
	}
	return func() (policy.Policy, error) { return policy.New(policy.Config{Name: name}) }
}

// twoParts is groups a and b of n one-slot nodes each, with the simple
// model, partition A (group a) taking queue "qa" and B (group b) "qb".
func twoParts(n int) sim.Cluster {
	return sim.Cluster{
		Groups: []sim.NodeGroup{{Name: "a", Count: n, Slots: 1, Model: simple}, {Name: "b", Count: n, Slots: 1, Model: simple}},
		Partitions: []sim.Partition{
			{Name: "A", Groups: []string{"a"}, Queues: []string{"qa"}},
			{Name: "B", Groups: []string{"b"}, Queues: []string{"qb"}},
		},
	}
}

// TestPartitionsHandWorked replays hand-worked two-partition cases.
func TestPartitionsHandWorked(t *testing.T) {
	t.Run("A waits while B idles", func(t *testing.T) {
		// Two nodes per partition, FCFS, always on. j1 (qa, 2 slots,
		// 0–100) fills A; j2 (qa, 1 slot, submitted 10) waits for it,
		// 100–150, though B's nodes idle; j3 (qb, 1 slot, submitted 20)
		// runs at once on B, 20–50. TEnd = 150; all 4 nodes on 0–150:
		// busy 2·100 + 50 + 30 = 280 node-s, idle 600 − 280 = 320.
		// Energy = (320·10 + 280·10 + 280·5) / 3600 = 7400/3600 Wh.
		tr := queued(makeTrace(job{0, 100, 2, 0}, job{10, 50, 1, 0}, job{20, 30, 1, 0}), "qa", "qa", "qb")
		c := twoParts(2)
		opt := sim.Options{Scheduler: sim.FCFS, JobNodes: true, Timeline: true}
		r, err := sim.RunPartitioned(tr, c, configMaker(t, "always-on"), opt)
		if err != nil {
			t.Fatal(err)
		}
		checkStarts(t, r, []int64{0, 100, 20})
		if r.TIni != 0 || r.TEnd != 150 || r.OffNodeSeconds != 0 || r.PoweredNodeSeconds != 600 || r.Nodes != 4 || r.PeakPoweredNodes != 4 {
			t.Errorf("TIni %d TEnd %d off %d powered %d nodes %d peak %d, want 0 150 0 600 4 4", r.TIni, r.TEnd, r.OffNodeSeconds, r.PoweredNodeSeconds, r.Nodes, r.PeakPoweredNodes)
		}
		if want := (sim.StateSeconds{policy.Idle: 320, policy.Busy: 280}); r.StateSeconds != want {
			t.Errorf("state seconds %v, want %v", r.StateSeconds, want)
		}
		if math.Abs(r.EnergyWh-7400.0/3600) > 1e-9 {
			t.Errorf("energy %v Wh, want %v", r.EnergyWh, 7400.0/3600)
		}
		for i, nodes := range [][]int32{{0, 1}, {0}, {2}} {
			if !reflect.DeepEqual(r.Placements[i].Nodes, nodes) {
				t.Errorf("job %d on nodes %v, want %v", i+1, r.Placements[i].Nodes, nodes)
			}
		}
		if want := []string{"a1", "a2", "b1", "b2"}; !reflect.DeepEqual(r.NodeNames, want) || !reflect.DeepEqual(r.Timeline.NodeNames, want) {
			t.Errorf("node names %v and %v, want %v", r.NodeNames, r.Timeline.NodeNames, want)
		}
		// The requested slots over time: j1 2 (0), j2 queued 3 (10), j3 4
		// (20), j3 ends 3 (50), j1 ends and j2 starts 1 (100), j2 ends 0 (150).
		var req []int
		for _, s := range r.Timeline.Steps {
			req = append(req, s.Requested)
		}
		if want := []int{2, 3, 4, 3, 1, 0}; !reflect.DeepEqual(req, want) {
			t.Errorf("requested slots %v (steps %+v), want %v", req, r.Timeline.Steps, want)
		}
		if want := []int32{0, 0, 1}; !reflect.DeepEqual(r.JobPartition, want) {
			t.Errorf("job partitions %v, want %v", r.JobPartition, want)
		}
		// One scheduling domain instead: j2 takes a free node of b at 10.
		plain := sim.Cluster{Groups: c.Groups}
		one, err := sim.Run(tr, plain, alwaysOn(t), opt)
		if err != nil {
			t.Fatal(err)
		}
		checkStarts(t, one, []int64{0, 10, 20})
	})
	t.Run("whole window", func(t *testing.T) {
		// One node per partition, period 60, off-when-idle after 60 s
		// (the simple model: boot 100 s, shutdown 50 s). j1 (qa) runs
		// 0–1000 on a. B's node b idles from TIni = 0, though B's first
		// job, j2 (qb, 100 s), comes at 500: off at 60, Off 110; j2
		// submitted 500, b booted at the tick 540, up 640, j2 runs
		// 640–740. B's last job ends at 740 but the replay's TEnd is
		// 1000: b idles from 740, its timeout is due at 800, switched off
		// at the tick 840, Off 890 until 1000.
		// b: idle 60 + 100, shutting down 50 + 50, off 430 + 110,
		// booting 100, busy 100: powered 460; a: busy 1000.
		// Off node-s = 2·1000 − 1460 = 540; reconfigurations: Off at
		// 110, boot at 540, Off at 890 = 3.
		// Energy = (off 540·1 + idle 160·10 + busy 1100·10 + busy slots
		// 1100·5) / 3600 + boot 1 + 2 shutdowns · 0.5 Wh.
		tr := queued(makeTrace(job{0, 1000, 1, 0}, job{500, 100, 1, 0}), "qa", "qb")
		r, err := sim.RunPartitioned(tr, twoParts(1), maker(offWhenIdle{timeout: 60}), sim.Options{Scheduler: sim.FCFS, Period: 60})
		if err != nil {
			t.Fatal(err)
		}
		checkStarts(t, r, []int64{0, 640})
		if r.TIni != 0 || r.TEnd != 1000 || r.OffNodeSeconds != 540 || r.Reconfigurations != 3 || r.Boots != 1 || r.Shutdowns != 2 {
			t.Errorf("TIni %d TEnd %d off %d reconfigurations %d boots %d shutdowns %d, want 0 1000 540 3 1 2",
				r.TIni, r.TEnd, r.OffNodeSeconds, r.Reconfigurations, r.Boots, r.Shutdowns)
		}
		want := sim.StateSeconds{policy.Off: 540, policy.Booting: 100, policy.Idle: 160, policy.Busy: 1100, policy.ShuttingDown: 100}
		if r.StateSeconds != want || r.BusySlotSeconds != 1100 {
			t.Errorf("state seconds %v, busy slot-s %d; want %v, 1100", r.StateSeconds, r.BusySlotSeconds, want)
		}
		if e := (540+1600+11000+5500.0)/3600 + 2; math.Abs(r.EnergyWh-e) > 1e-9 {
			t.Errorf("energy %v Wh, want %v", r.EnergyWh, e)
		}
		parts := []sim.PartitionResult{
			{Name: "A", Nodes: 1, Slots: 1, Jobs: 1, PoweredNodeSeconds: 1000, EnergyWh: 15000.0 / 3600},
			{Name: "B", Nodes: 1, Slots: 1, Jobs: 1, PoweredNodeSeconds: 460, OffNodeSeconds: 540, Reconfigurations: 3, Boots: 1, Shutdowns: 2,
				EnergyWh: (540+1600+1000+500.0)/3600 + 2},
		}
		for k := range parts {
			got := r.Partitions[k]
			if math.Abs(got.EnergyWh-parts[k].EnergyWh) > 1e-9 {
				t.Errorf("partition %s: energy %v, want %v", got.Name, got.EnergyWh, parts[k].EnergyWh)
			}
			got.EnergyWh = parts[k].EnergyWh
			if got != parts[k] {
				t.Errorf("partition %d: %+v, want %+v", k, got, parts[k])
			}
		}
	})
	t.Run("partition without jobs", func(t *testing.T) {
		// B has no job: its node exists over [0, 1000], idle until the
		// tick at 60, off from 110.
		tr := queued(makeTrace(job{0, 1000, 1, 0}), "qa")
		r, err := sim.RunPartitioned(tr, twoParts(1), maker(offWhenIdle{timeout: 60}), sim.Options{Period: 60})
		if err != nil {
			t.Fatal(err)
		}
		if r.TEnd != 1000 || r.OffNodeSeconds != 890 || r.Reconfigurations != 1 || r.Partitions[1].Jobs != 0 {
			t.Errorf("TEnd %d off %d reconfigurations %d, B's jobs %d; want 1000 890 1 0", r.TEnd, r.OffNodeSeconds, r.Reconfigurations, r.Partitions[1].Jobs)
		}
	})
}

func checkStarts(t *testing.T, r *sim.Result, want []int64) {
	t.Helper()
	for i, w := range want {
		if r.Jobs[i].Start != w {
			t.Errorf("job %d starts at %d, want %d", i+1, r.Jobs[i].Start, w)
		}
	}
}

// TestOnePartitionIsPlain: a cluster of one partition holding every node
// and job replays exactly as the cluster without partitions, every field
// of the Result (timeline and placements included), under several
// policies (a clairvoyant one too), schedulers and periods.
func TestOnePartitionIsPlain(t *testing.T) {
	full, err := datasets.Default()
	if err != nil {
		t.Fatal(err)
	}
	tr := &datasets.Trace{Meta: full.Meta, Jobs: full.Jobs[:3000]}
	plain, err := sim.ClusterFromTrace(tr.Meta)
	if err != nil {
		t.Fatal(err)
	}
	one := plain
	one.Partitions = []sim.Partition{{Name: "all", Groups: []string{plain.Groups[0].Name}, Default: true}}
	for _, pol := range []string{"always-on", "idle-timeout", "hgfs", "oracle"} {
		for _, sched := range []string{sim.FCFS, sim.EASY, sim.Conservative} {
			for _, period := range []int64{0, sim.EveryEvent} {
				opt := sim.Options{Scheduler: sched, Period: period, Timeline: true, JobNodes: true, BootFailProb: 0.05, Seed: 3}
				mk := configMaker(t, pol)
				p, _ := mk()
				want, err := sim.Run(tr, plain, p, opt)
				if err != nil {
					t.Fatal(err)
				}
				got, err := sim.RunPartitioned(tr, one, mk, opt)
				if err != nil {
					t.Fatal(err)
				}
				if got.Partitions[0].Jobs != len(tr.Jobs) || got.Partitions[0].EnergyWh != want.EnergyWh || len(got.JobPartition) != len(tr.Jobs) {
					t.Errorf("%s %s %d: partition %+v", pol, sched, period, got.Partitions[0])
				}
				got.Partitions, got.JobPartition = nil, nil
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s %s period %d: the one-partition replay differs from the plain one:\n%s", pol, sched, period, resultDiff(got, want))
				}
			}
		}
	}
}

// resultDiff names the fields of two Results that differ.
func resultDiff(a, b *sim.Result) string {
	va, vb := reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem()
	var out []string
	for i := range va.NumField() {
		if !reflect.DeepEqual(va.Field(i).Interface(), vb.Field(i).Interface()) {
			f := va.Type().Field(i).Name
			if va.Field(i).Kind() == reflect.Slice || va.Field(i).Kind() == reflect.Pointer {
				out = append(out, f)
			} else {
				out = append(out, f+": "+strings.TrimSpace(strings.ReplaceAll(
					reflect.ValueOf(va.Field(i).Interface()).String(), "\n", " ")))
			}
		}
	}
	return strings.Join(out, ", ")
}

// TestPartitionsRealTrace replays SDSC Paragon 1996 on its published
// layout (docs/clusters/sdsc-par-1996-partitions.yaml: 48 interactive
// nodes, 352 batch) and checks what must hold whatever the policy: every
// job runs on its partition's nodes only, its whole run time, after its
// submission; the partitions' shares sum to the Result; the window is the
// whole trace's; under always-on each partition's starts are those of a
// replay of its jobs alone on its nodes.
func TestPartitionsRealTrace(t *testing.T) {
	tr := openTrace(t, "SDSC-Par-1996-3.1-cln.swf.gz")
	c, err := sim.LoadCluster(filepath.Join("..", "docs", "clusters", "sdsc-par-1996-partitions.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	// The log has 4 interactive jobs wider than the interactive partition:
	// refused, naming one; dropped for the rest of the test.
	if _, err := sim.NewPartitioned(tr, c, sim.Options{}); err == nil || !strings.Contains(err.Error(), `partition "interactive" has 48`) {
		t.Fatalf("a job wider than its partition: error %v", err)
	}
	kept := &datasets.Trace{Meta: tr.Meta}
	for _, j := range tr.Jobs {
		if !(j.Partition == "interactive" && j.Procs > 48) {
			kept.Jobs = append(kept.Jobs, j)
		}
	}
	if len(tr.Jobs)-len(kept.Jobs) != 4 {
		t.Fatalf("%d jobs dropped, want 4", len(tr.Jobs)-len(kept.Jobs))
	}
	tr = kept
	parts, err := c.JobPartitions(tr)
	if err != nil {
		t.Fatal(err)
	}
	var count [2]int
	for _, k := range parts {
		count[k]++
	}
	if count[0] == 0 || count[1] == 0 {
		t.Fatalf("jobs per partition %v: the split must give both some", count)
	}
	tIni, tEnd := tr.Jobs[0].Submit, int64(0)
	for _, pol := range []string{"always-on", "idle-timeout"} {
		opt := sim.Options{Scheduler: sim.EASY, JobNodes: true}
		r, err := sim.RunPartitioned(tr, c, configMaker(t, pol), opt)
		if err != nil {
			t.Fatal(err)
		}
		var sum sim.PartitionResult
		for _, p := range r.Partitions {
			sum.Nodes += p.Nodes
			sum.Jobs += p.Jobs
			sum.PoweredNodeSeconds += p.PoweredNodeSeconds
			sum.OffNodeSeconds += p.OffNodeSeconds
			sum.Reconfigurations += p.Reconfigurations
			sum.EnergyWh += p.EnergyWh
		}
		if sum.Nodes != r.Nodes || sum.Jobs != len(tr.Jobs) || sum.PoweredNodeSeconds != r.PoweredNodeSeconds ||
			sum.OffNodeSeconds != r.OffNodeSeconds || sum.Reconfigurations != r.Reconfigurations || math.Abs(sum.EnergyWh-r.EnergyWh) > 1e-6*r.EnergyWh {
			t.Errorf("%s: partitions sum to %+v; result: nodes %d, powered %d, off %d, reconfigurations %d, energy %v",
				pol, sum, r.Nodes, r.PoweredNodeSeconds, r.OffNodeSeconds, r.Reconfigurations, r.EnergyWh)
		}
		if r.PoweredNodeSeconds+r.OffNodeSeconds != int64(r.Nodes)*(r.TEnd-r.TIni) {
			t.Errorf("%s: powered + off node-s %d, want nodes·span %d", pol, r.PoweredNodeSeconds+r.OffNodeSeconds, int64(r.Nodes)*(r.TEnd-r.TIni))
		}
		end := int64(0)
		for i, rec := range r.Jobs {
			j := &tr.Jobs[i]
			end = max(end, rec.End)
			if rec.Submit != j.Submit || rec.Start < j.Submit || rec.End-rec.Start != j.Run {
				t.Fatalf("%s: job %d: %+v, logged submit %d run %d", pol, j.ID, rec, j.Submit, j.Run)
			}
			for _, n := range r.Placements[i].Nodes {
				// interactive is nodes 0–47, batch 48–399
				if (n < 48) != (parts[i] == 0) {
					t.Fatalf("%s: job %d of partition %s ran on node %d (%s)", pol, j.ID, c.Partitions[parts[i]].Name, n, r.NodeNames[n])
				}
			}
		}
		if r.TIni != tIni || r.TEnd != end {
			t.Errorf("%s: window [%d, %d], want [%d, %d]", pol, r.TIni, r.TEnd, tIni, end)
		}
		if pol == "idle-timeout" && (r.OffNodeSeconds <= 0 || r.Partitions[0].OffNodeSeconds <= 0 || r.Partitions[1].OffNodeSeconds <= 0) {
			t.Errorf("idle-timeout switched nothing off: %+v", r.Partitions)
		}
		if pol != "always-on" {
			continue
		}
		tEnd = r.TEnd
		for k, p := range c.Partitions {
			sub := &datasets.Trace{Meta: tr.Meta}
			var idx []int
			for i, pk := range parts {
				if pk == int32(k) {
					sub.Jobs = append(sub.Jobs, tr.Jobs[i])
					idx = append(idx, i)
				}
			}
			alone, err := sim.Run(sub, sim.Cluster{Groups: []sim.NodeGroup{c.Groups[k]}}, alwaysOn(t), opt)
			if err != nil {
				t.Fatal(err)
			}
			for x, i := range idx {
				if alone.Jobs[x].Start != r.Jobs[i].Start {
					t.Fatalf("partition %s: job %d starts at %d, alone on its nodes at %d", p.Name, tr.Jobs[i].ID, r.Jobs[i].Start, alone.Jobs[x].Start)
				}
			}
		}
	}
	if tEnd == 0 {
		t.Fatal("always-on was not replayed")
	}
}

// TestPartitionErrors: bad partitions in a cluster file, jobs no
// partition takes or wider than their partition, and a partitioned
// cluster given to New are errors naming the field, job or value.
func TestPartitionErrors(t *testing.T) {
	head := "groups:\n  - {name: a, count: 2, slots: 1, model: escs}\n  - {name: b, count: 2, slots: 1, model: escs}\npartitions:\n"
	for _, tc := range []struct{ name, yaml, want string }{
		{"unknown group", "  - {name: A, groups: [a]}\n  - {name: B, groups: [c]}\n", `partitions[1].groups[0]: no node group is named "c"`},
		{"duplicate name", "  - {name: A, groups: [a]}\n  - {name: A, groups: [b]}\n", `partitions[1].name: "A" is also the name of partitions[0]`},
		{"shared group", "  - {name: A, groups: [a, b]}\n  - {name: B, groups: [b]}\n", `partitions[1].groups[0]: group "b" is also in partition "A"`},
		{"group twice", "  - {name: A, groups: [a, a]}\n  - {name: B, groups: [b]}\n", `group "a" is listed twice`},
		{"shared flag", "  - {name: A, groups: [a], shared: true}\n  - {name: B, groups: [b]}\n", "partitions[0].shared: partitions sharing nodes are not supported"},
		{"group in none", "  - {name: A, groups: [a]}\n", `groups[1]: group "b" is in no partition`},
		{"duplicate queue", "  - {name: A, groups: [a], queues: [x, y]}\n  - {name: B, groups: [b], queues: [y]}\n", `partitions[1].queues[0]: queue "y" is also taken by partition "A"`},
		{"own name as queue", "  - {name: A, groups: [a]}\n  - {name: B, groups: [b], queues: [A]}\n", `queue "A" is also taken by partition "A"`},
		{"two defaults", "  - {name: A, groups: [a], default: true}\n  - {name: B, groups: [b], default: true}\n", `partitions[1].default: partition "A" is the default already`},
		{"no groups", "  - {name: A, groups: []}\n  - {name: B, groups: [a, b]}\n", "partitions[0].groups: partition \"A\" has no node group"},
		{"unknown field", "  - {name: A, groups: [a, b], nodes: 3}\n", "field nodes not found"},
	} {
		_, err := sim.ParseCluster([]byte(head + tc.yaml))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	c := twoParts(1)
	tr := queued(makeTrace(job{0, 10, 1, 0}, job{5, 10, 1, 0}), "qa", "qz")
	if _, err := sim.NewPartitioned(tr, c, sim.Options{}); err == nil || !strings.Contains(err.Error(), `job 2: queue "qz"`) {
		t.Errorf("a job of an unknown queue: error %v", err)
	}
	c.Partitions[1].Default = true
	if _, err := sim.NewPartitioned(tr, c, sim.Options{}); err != nil {
		t.Errorf("a job of an unknown queue with a default partition: %v", err)
	}
	// The log's partition (SWF field 16) when no partition lists the queue.
	tr.Jobs[1].Partition = "qa"
	if parts, err := c.JobPartitions(tr); err != nil || !reflect.DeepEqual(parts, []int32{0, 0}) {
		t.Errorf("job partitions %v, %v; want [0 0]", parts, err)
	}
	wide := queued(makeTrace(job{0, 10, 2, 0}), "qb")
	if _, err := sim.NewPartitioned(wide, twoParts(1), sim.Options{}); err == nil || !strings.Contains(err.Error(), `job 1 (queue "qb") needs 2 slots, its partition "B" has 1`) {
		t.Errorf("a job wider than its partition: error %v", err)
	}
	if _, err := sim.New(tr, c, sim.Options{}); err == nil || !strings.Contains(err.Error(), "NewPartitioned") {
		t.Errorf("New on a partitioned cluster: error %v", err)
	}
}

// TestPartitionsRoundTrip writes a partitioned cluster as YAML and JSON
// and reads it back; a cluster without partitions writes no partitions
// key.
func TestPartitionsRoundTrip(t *testing.T) {
	c := twoParts(2)
	c.Partitions[0].Priority, c.Partitions[1].Default = 3, true
	for _, asJSON := range []bool{false, true} {
		b, err := sim.MarshalCluster(c, asJSON, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		back, err := sim.ParseCluster(b)
		if err != nil {
			t.Fatalf("%v\n%s", err, b)
		}
		if !reflect.DeepEqual(back.Partitions, c.Partitions) {
			t.Errorf("read back %+v, want %+v\n%s", back.Partitions, c.Partitions, b)
		}
	}
	b, err := sim.MarshalCluster(sim.Uniform(2, 1, simple), false, "", nil)
	if err != nil || strings.Contains(string(b), "partitions") {
		t.Errorf("a cluster without partitions: %v\n%s", err, b)
	}
}
