package main

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/internal/testtrace"
	"github.com/ecotune/ecotune/sim"
)

// testTrace returns the path of ../shared/traces/name; a missing file
// fails the test under CI=true and skips it otherwise (testtrace).
func testTrace(t *testing.T, name string) string {
	t.Helper()
	return testtrace.Trace(t, name)
}

// The simulate tests replay the embedded default trace (NASA-iPSC): no
// --trace flag.
func TestSimulateJSON(t *testing.T) {
	out, err := runApp(t, "simulate", "--policy", "always-on", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	decodeOne(t, out, &m)
	for _, k := range []string{"jobs", "makespan_s", "qos_p90", "off_node_seconds", "reconfigurations", "energy_kwh",
		"mean_wait_s", "max_wait_s", "boots", "shutdowns", "sim_seconds", "policy", "trace", "scheduler", "nodes", "slots",
		"by_user", "by_group", "by_partition"} {
		if _, ok := m[k]; !ok {
			t.Errorf("no key %q", k)
		}
	}
	// ESCS Table 1: 52.93 MWh.
	if e := m["energy_kwh"].(float64); e < 52880 || e > 52990 {
		t.Errorf("energy_kwh %v", e)
	}
}

func TestSimulateErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--policy", "idle-timeout", "--set", "bogus=1"}, "valid: idle_timeout"},
		{[]string{"--policy", "nope"}, "unknown policy"},
		{[]string{"--scheduler", "lottery"}, "unknown scheduler"},
		{[]string{"--nodes", "64"}, "needs 128 slots, cluster has 64"},
		{[]string{"--model", "nope"}, "unknown model"},
	} {
		_, err := runApp(t, append([]string{"simulate"}, tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want %q", tc.args, err, tc.want)
		}
	}
}

func TestSimulateTimeline(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"tl.csv", "tl.parquet"} {
		path := filepath.Join(dir, name)
		args := []string{"simulate", "--policy", "idle-timeout", "--nodes", "128", "--timeline", path, "--json"}
		if _, err := runApp(t, args...); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := runApp(t, args...); !errors.Is(err, sim.ErrExists) {
			t.Errorf("%s rewritten without --force: %v", name, err)
		}
		if _, err := runApp(t, append(args, "--force")...); err != nil {
			t.Errorf("--force: %v", err)
		}
	}
	// The Parquet timeline (time as UTC timestamps) reads back into the
	// rows of the CSV one (time as Unix seconds).
	back, err := sim.ReadTimelineParquet(filepath.Join(dir, "tl.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "tl.csv"))
	if err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != len(back)+1 || len(back) < 100 {
		t.Fatalf("tl.parquet: %d rows, tl.csv %d", len(back), len(recs)-1)
	}
	for i, r := range back {
		got := fmt.Sprintf("%d %s %s %s %d %d %d %d", r.Time, r.Kind, r.Node, r.State, r.Level, r.Requested, r.Powered, r.Busy)
		if want := strings.Join(recs[i+1], " "); got != want {
			t.Fatalf("tl.parquet row %d: %s, tl.csv: %s", i+1, got, want)
		}
	}
}

// reproSWF is issue 18's estimate-expiry reproducer: on 10 one-slot
// nodes under EASY, job 4 starts at 150, when job 2's estimate runs out
// (see sim's TestHandWorked).
const reproSWF = `; estimate expiry
1 0 -1 1000 6 -1 -1 6 100 -1 1 1 1 -1 1 -1 -1 -1
2 0 -1 1000 2 -1 -1 2 150 -1 1 2 1 -1 1 -1 -1 -1
3 1 -1 100 8 -1 -1 8 100 -1 1 1 2 -1 1 -1 -1 -1
4 2 -1 50 2 -1 -1 2 5000 -1 1 3 2 -1 1 -1 -1 -1
`

func TestSimulateJobs(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "REPRO.swf")
	if err := os.WriteFile(trace, []byte(reproSWF), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, sched := range []string{"easy", "conservative"} {
		out := filepath.Join(dir, sched+".csv")
		if _, err := runApp(t, "simulate", "--trace", trace, "--nodes", "10", "--scheduler", sched, "--period", "0", "--jobs", out); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) != 5 || strings.Join(recs[0], ",") != "job_id,user,group,partition,submit,start,end,wait_s,run_s,slots,nodes" {
			t.Fatalf("%s: %d rows, header %v", sched, len(recs), recs[0])
		}
		if got := recs[4]; got[0] != "4" || got[5] != "150" || got[10] != "node09 node10" {
			t.Errorf("%s: job 4's row %v: want start 150 on node09 node10", sched, got)
		}
	}
	pq := filepath.Join(dir, "jobs.parquet")
	out, err := runApp(t, "simulate", "--trace", trace, "--nodes", "10", "--scheduler", "easy", "--period", "0", "--jobs", pq, "--json")
	if err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(pq); err != nil || !strings.HasPrefix(string(data), "PAR1") {
		t.Errorf("parquet jobs file: %v", err)
	}
	// The Parquet file (times as UTC timestamps) reads back into the rows
	// of the CSV file of the same replay (times as Unix seconds).
	back, err := sim.ReadJobsParquet(pq)
	if err != nil {
		t.Fatal(err)
	}
	var csvBack bytes.Buffer
	if err := sim.WriteJobsCSV(&csvBack, back); err != nil {
		t.Fatal(err)
	}
	if want, err := os.ReadFile(filepath.Join(dir, "easy.csv")); err != nil || csvBack.String() != string(want) {
		t.Errorf("jobs.parquet read back as CSV:\n%s\nwant easy.csv:\n%s (%v)", csvBack.String(), want, err)
	}
	var rep struct {
		ByUser []struct {
			Name string `json:"name"`
			Jobs int    `json:"jobs"`
		} `json:"by_user"`
		ByPartition []struct {
			Name string `json:"name"`
			Jobs int    `json:"jobs"`
		} `json:"by_partition"`
	}
	decodeOne(t, out, &rep)
	// Users 1 (jobs 1, 3), 2 and 3; one queue, numbered 1.
	if len(rep.ByUser) != 3 || rep.ByUser[0].Name != "1" || rep.ByUser[0].Jobs != 2 || len(rep.ByPartition) != 1 || rep.ByPartition[0].Jobs != 4 {
		t.Errorf("by_user %+v, by_partition %+v", rep.ByUser, rep.ByPartition)
	}
	if _, err := runApp(t, "simulate", "--trace", trace, "--nodes", "10", "--jobs", pq); !errors.Is(err, sim.ErrExists) {
		t.Errorf("jobs file rewritten without --force: %v", err)
	}
}

// TestSimulatePartitions replays an SWF log whose jobs name queues 1 and
// 2 on a cluster file of two partitions: the output lists the cluster's
// partitions, by_partition and the jobs file name them, and queue 1's
// second job waits for the first though partition q2's nodes are idle.
func TestSimulatePartitions(t *testing.T) {
	dir := t.TempDir()
	// fields: id submit wait run procs cpu mem reqprocs reqtime mem status user group exe queue partition prev think
	swf := "; MaxNodes: 4\n; MaxProcs: 4\n" +
		"1 0 -1 100 2 -1 -1 2 -1 -1 1 1 1 -1 1 -1 -1 -1\n" +
		"2 10 -1 50 1 -1 -1 1 -1 -1 1 1 1 -1 1 -1 -1 -1\n" +
		"3 20 -1 30 1 -1 -1 1 -1 -1 1 2 1 -1 2 -1 -1 -1\n"
	cluster := "groups:\n  - {name: a, count: 2, slots: 1, model: escs}\n  - {name: b, count: 2, slots: 1, model: escs}\n" +
		"partitions:\n  - {name: q1, groups: [a], queues: ['1']}\n  - {name: q2, groups: [b], queues: ['2']}\n"
	trace, cfile, jobs := filepath.Join(dir, "t.swf"), filepath.Join(dir, "c.yaml"), filepath.Join(dir, "jobs.csv")
	if err := os.WriteFile(trace, []byte(swf), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfile, []byte(cluster), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := runApp(t, "simulate", "--trace", trace, "--cluster", cfile, "--scheduler", "fcfs", "--jobs", jobs, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Nodes       int `json:"nodes"`
		ByPartition []struct {
			Name    string  `json:"name"`
			Jobs    int     `json:"jobs"`
			MaxWait int64   `json:"max_wait_s"`
			Hours   float64 `json:"node_hours"`
		} `json:"by_partition"`
		Partitions []struct {
			Name  string `json:"name"`
			Nodes int    `json:"nodes"`
			Jobs  int    `json:"jobs"`
		} `json:"partitions"`
	}
	decodeOne(t, out, &m)
	if m.Nodes != 4 || len(m.ByPartition) != 2 || m.ByPartition[0].Name != "q1" || m.ByPartition[0].Jobs != 2 || m.ByPartition[0].MaxWait != 90 ||
		m.ByPartition[1].Name != "q2" || m.ByPartition[1].MaxWait != 0 {
		t.Errorf("nodes %d, by_partition %+v; want q1: 2 jobs, max wait 90; q2: no wait", m.Nodes, m.ByPartition)
	}
	if len(m.Partitions) != 2 || m.Partitions[0].Name != "q1" || m.Partitions[0].Nodes != 2 || m.Partitions[1].Jobs != 1 {
		t.Errorf("partitions %+v", m.Partitions)
	}
	f, err := os.Open(jobs)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var parts, nodes []string
	for _, r := range rows[1:] {
		parts, nodes = append(parts, r[3]), append(nodes, r[10])
	}
	if strings.Join(parts, ",") != "q1,q1,q2" || strings.Join(nodes, ",") != "a1 a2,a1,b1" {
		t.Errorf("jobs file partitions %v, nodes %v", parts, nodes)
	}
}
