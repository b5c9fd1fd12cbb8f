package reports

import (
	"bytes"
	"math"
	"strconv"
	"testing"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
)

// The report breaks the replay down per partition, group and user: every
// job in one partition row, the node-hours adding up to the busy
// slot-hours (NASA's nodes have one slot), at most TopUsers users, most
// node-hours first; the tables appear in the Markdown and HTML.
func TestReportBreakdowns(t *testing.T) {
	r, test := nasaRun(t)
	rep, err := Build(r, Options{Test: test})
	if err != nil {
		t.Fatal(err)
	}
	b := rep.Breakdowns
	if b == nil {
		t.Fatal("no breakdowns")
	}
	for name, gs := range map[string]int{"partition": len(b.ByPartition), "group": len(b.ByGroup), "user": len(b.ByUser)} {
		if gs == 0 {
			t.Errorf("no %s", name)
		}
	}
	jobs, hours := 0, 0.0
	for _, g := range b.ByPartition {
		jobs += g.Jobs
		hours += g.NodeHours
	}
	if want := float64(rep.Replay.BusySlotSeconds) / 3600; jobs != len(test.Jobs) || math.Abs(hours-want) > 1e-9*want {
		t.Errorf("partitions hold %d jobs, %v node-hours; want %d, %v", jobs, hours, len(test.Jobs), want)
	}
	ts := rep.breakdownTables()
	if len(ts) != 3 {
		t.Fatalf("%d breakdown tables", len(ts))
	}
	users := ts[2]
	if len(users.Rows) != min(TopUsers, len(b.ByUser)) {
		t.Errorf("%d user rows of %d users", len(users.Rows), len(b.ByUser))
	}
	last := math.Inf(1)
	for _, row := range users.Rows {
		h, err := strconv.ParseFloat(row[len(row)-1], 64)
		if err != nil || h > last {
			t.Errorf("user rows not by node-hours, most first: %v", users.Rows)
			break
		}
		last = h
	}
	md, err := rep.Markdown()
	if err != nil {
		t.Fatal(err)
	}
	rendered := map[string][]byte{} // the figures' images do not matter here
	for _, f := range rep.Figures() {
		rendered[f.Name] = []byte("x")
	}
	page, err := rep.HTML(rendered)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range ts {
		if !bytes.Contains(md, []byte("## "+tb.Caption)) || !bytes.Contains(page, []byte(`<table id="`+tb.ID+`">`)) {
			t.Errorf("table %s missing from the Markdown or HTML", tb.ID)
		}
	}
}

// TestPartitionBreakdowns: a replay on a partitioned cluster is broken
// down by the cluster's partitions (not the log's queues), and the report
// adds a per-partition energy table whose rows add up to the replay's.
func TestPartitionBreakdowns(t *testing.T) {
	full, err := datasets.Default()
	if err != nil {
		t.Fatal(err)
	}
	tr := &datasets.Trace{Meta: full.Meta}
	for _, j := range full.Jobs[:2000] {
		if j.Procs <= 64 {
			j.Queue = []string{"x", "y", "z"}[j.ID%3]
			tr.Jobs = append(tr.Jobs, j)
		}
	}
	c := sim.Cluster{
		Groups: []sim.NodeGroup{{Name: "a", Count: 64, Slots: 1, Model: sim.ESCS}, {Name: "b", Count: 64, Slots: 1, Model: sim.ESCS}},
		Partitions: []sim.Partition{
			{Name: "A", Groups: []string{"a"}, Queues: []string{"x"}},
			{Name: "B", Groups: []string{"b"}, Queues: []string{"y", "z"}},
		},
	}
	res, err := sim.RunPartitioned(tr, c, func() (policy.Policy, error) { return policy.New(policy.Config{Name: "idle-timeout"}) }, sim.Options{Scheduler: sim.EASY})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Breakdowns(tr, res)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.ByPartition) != 2 || b.ByPartition[0].Name != "A" || b.ByPartition[1].Name != "B" || b.ByPartition[0].Jobs+b.ByPartition[1].Jobs != len(tr.Jobs) {
		t.Fatalf("by partition %+v", b.ByPartition)
	}
	if len(b.Partitions) != 2 {
		t.Fatalf("partitions %+v", b.Partitions)
	}
	rep := &Report{Breakdowns: &b}
	var energy *table
	ts := rep.breakdownTables()
	for i := range ts {
		if ts[i].ID == "partition-energy" {
			energy = &ts[i]
		}
	}
	if energy == nil || len(energy.Rows) != 2 {
		t.Fatalf("tables %+v", ts)
	}
	kwh := 0.0
	for _, row := range energy.Rows {
		v, err := strconv.ParseFloat(row[len(row)-1], 64)
		if err != nil {
			t.Fatal(err)
		}
		kwh += v
	}
	if want := res.EnergyWh / 1000; math.Abs(kwh-want) > 1e-3*want {
		t.Errorf("partition rows sum to %v kWh, replay %v", kwh, want)
	}
}
