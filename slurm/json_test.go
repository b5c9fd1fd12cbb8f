package slurm

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func unix(s int64) time.Time { return time.Unix(s, 0).UTC() }

func TestParseNodesJSONFields(t *testing.T) {
	nodes, err := ParseNodesJSON(readFixture(t, "sinfo-resume-failed.json"))
	if err != nil {
		t.Fatal(err)
	}
	n := nodes[2]
	want := Node{
		Name: "node03", State: ParseNodeState("down", []string{"POWERED_DOWN", "NOT_RESPONDING"}),
		CPUs: 1, AllocCPUs: 0, IdleCPUs: 1, Partitions: []string{"debug"}, Reason: "ResumeTimeout reached",
		Hostname: "localhost", Address: "127.0.0.1", Port: 17003,
	}
	n.BootTime, n.SlurmdStartTime, n.LastBusy = time.Time{}, time.Time{}, time.Time{}
	if !reflect.DeepEqual(n, want) {
		t.Errorf("node03:\n got %+v\nwant %+v", n, want)
	}
	nodes, err = ParseNodesJSON(readFixture(t, "sinfo-mixed.json"))
	if err != nil {
		t.Fatal(err)
	}
	if n := nodes[0]; n.Name != "node01" || n.AllocCPUs != 1 || n.IdleCPUs != 0 || n.State.Base != BaseAllocated ||
		!n.BootTime.Equal(unix(1795617259)) || !n.LastBusy.Equal(unix(1795622658)) {
		t.Errorf("node01: %+v", n)
	}
	if n := nodes[7]; n.Reason != "maintenance" || !n.State.Flags.Has(FlagDrain) {
		t.Errorf("node08: %+v", n)
	}
}

// jobWant is the hand-checked part of a job.
type jobWant struct {
	id          int64
	state       string
	phase       JobPhase
	cpus, nodes int
	nodeList    string
	submit      int64
	start       int64
	limit       time.Duration
}

func TestParseJobsJSONFixtures(t *testing.T) {
	cases := map[string][]jobWant{
		"squeue-empty.json": {},
		"squeue-running-pending.json": {
			{1, "RUNNING", JobRunning, 2, 2, "node[01-02]", 1795622659, 1795622661, 0},
			{2, "RUNNING", JobRunning, 1, 1, "node03", 1795622659, 1795622661, 0},
			{3, "PENDING", JobPending, 4, 4, "", 1795622659, 0, 0},
		},
		"squeue-after.json": {
			{1, "RUNNING", JobRunning, 2, 2, "node[01-02]", 1795622659, 1795622661, 0},
			{2, "RUNNING", JobRunning, 1, 1, "node03", 1795622659, 1795622661, 0},
			{3, "CONFIGURING", JobRunning, 4, 4, "node[04-07]", 1795622659, 1795622684, 0},
		},
		"squeue-later.json": {
			{1, "RUNNING", JobRunning, 2, 2, "node[01-02]", 1795622659, 1795622661, 0},
			{2, "RUNNING", JobRunning, 1, 1, "node03", 1795622659, 1795622661, 0},
			{3, "RUNNING", JobRunning, 4, 4, "node[04-07]", 1795622659, 1795622688, 0},
		},
		"squeue-resume-failed.json": {
			{1, "COMPLETED", JobFinished, 2, 2, "node[01-02]", 1795622659, 1795622661, 0},
			{2, "COMPLETED", JobFinished, 1, 1, "node03", 1795622659, 1795622661, 0},
			{3, "COMPLETED", JobFinished, 4, 4, "node[04-07]", 1795622659, 1795622688, 0},
			{4, "PENDING", JobPending, 1, 1, "", 1795622793, 1795622914, 0},
		},
		"squeue-time-limit.json": {
			{1, "RUNNING", JobRunning, 2, 2, "node[01-02]", 1795623463, 1795623464, 5 * time.Minute},
			{2, "RUNNING", JobRunning, 3, 1, "node01", 1795623463, 1795623464, 0},
		},
		"live-array-squeue.json": {
			{4, "COMPLETED", JobFinished, 1, 1, "node01", 1795624839, 1795624841, 0},
			{2, "CANCELLED", JobFinished, 2, 2, "node[01-02]", 1795624839, 1795624847, 0},
			{3, "CANCELLED", JobFinished, 1, 1, "", 1795624839, 1795624848, 0},
			{5, "COMPLETED", JobFinished, 1, 1, "node02", 1795624839, 1795624841, 0},
			{1, "COMPLETED", JobFinished, 1, 1, "node01", 1795624839, 1795624844, 0},
			{6, "PENDING", JobPending, 1, 1, "", 1795624850, 0, 0},
			{8, "RUNNING", JobRunning, 2, 2, "node[01-02]", 1795624850, 1795624851, 0},
			{7, "PENDING", JobPending, 2, 2, "", 1795624850, 0, 0},
		},
		"live-squeue.json": {
			{1, "COMPLETED", JobFinished, 2, 2, "node[01-02]", 1795623463, 1795623464, 5 * time.Minute},
			{2, "COMPLETED", JobFinished, 3, 1, "node01", 1795623463, 1795623464, 0},
			{4, "COMPLETED", JobFinished, 1, 1, "node01", 1795623611, 1795623612, 365 * 24 * time.Hour},
			{3, "COMPLETED", JobFinished, 1, 1, "node01", 1795623611, 1795623612, 365 * 24 * time.Hour},
			{5, "RUNNING", JobRunning, 2, 1, "node01", 1795623702, 1795623703, 10 * time.Minute},
			{6, "CONFIGURING", JobRunning, 3, 3, "node[01-02,04]", 1795623702, 1795623703, 365 * 24 * time.Hour},
		},
	}
	files, _ := filepath.Glob("testdata/*squeue*.json")
	if len(files) != len(cases) {
		t.Errorf("%d squeue fixtures, %d with expectations", len(files), len(cases))
	}
	for name, want := range cases {
		jobs, err := ParseJobsJSON(readFixture(t, name))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(jobs) != len(want) {
			t.Errorf("%s: %d jobs, want %d", name, len(jobs), len(want))
			continue
		}
		for i, w := range want {
			j := jobs[i]
			var start time.Time
			if w.start != 0 {
				start = unix(w.start)
			}
			if j.ID != w.id || j.State != w.state || j.Phase() != w.phase || j.CPUs != w.cpus || j.NodeCount != w.nodes ||
				j.NodeList != w.nodeList || !j.SubmitTime.Equal(unix(w.submit)) || !j.StartTime.Equal(start) ||
				j.TimeLimit != w.limit || j.Partition != "debug" {
				t.Errorf("%s: job %d:\n got %+v\nwant %+v", name, i, j, w)
			}
			if w.nodeList != "" && len(j.Nodes) != w.nodes {
				t.Errorf("%s: job %d: nodes %q, want %d", name, j.ID, j.Nodes, w.nodes)
			}
		}
	}
	jobs, _ := ParseJobsJSON(readFixture(t, "squeue-resume-failed.json"))
	if jobs[3].RestartCount != 1 || jobs[0].ArrayTaskID != -1 || jobs[0].ArrayJobID != 0 {
		t.Errorf("job 4 restarts %d; job 1 array %d/%d", jobs[3].RestartCount, jobs[0].ArrayJobID, jobs[0].ArrayTaskID)
	}
	jobs, _ = ParseJobsJSON(readFixture(t, "live-squeue.json"))
	if jobs[2].ArrayJobID != 3 || jobs[2].ArrayTaskID != 1 || jobs[2].Instances != 1 {
		t.Errorf("array task: %d/%d", jobs[2].ArrayJobID, jobs[2].ArrayTaskID)
	}
	// Pending array records stand for their tasks not yet split off: job 6
	// (held, tasks 1-3) and job 7 (tasks 5-6; task 4 runs as job 8).
	jobs, _ = ParseJobsJSON(readFixture(t, "live-array-squeue.json"))
	for _, c := range []struct {
		i         int
		arr, task int64
		tasks     string
		instances int
		reason    string
	}{{5, 6, -1, "1-3", 3, "JobHeldUser"}, {6, 7, 4, "", 1, "None"}, {7, 7, -1, "5-6", 2, "Resources"}} {
		j := jobs[c.i]
		if j.ArrayJobID != c.arr || j.ArrayTaskID != c.task || j.ArrayTasks != c.tasks || j.Instances != c.instances || j.Reason != c.reason {
			t.Errorf("live-array-squeue.json job %d: %+v", j.ID, j)
		}
	}
}

// Later openapi versions (v0.0.39+) write numbers as {set, infinite,
// number} and states as lists.
func TestParseJSONLaterLayouts(t *testing.T) {
	nodes, err := ParseNodesJSON([]byte(`{"nodes":[{"name":"n1","state":["IDLE","POWERED_DOWN"],"cpus":8,
		"alloc_cpus":{"set":true,"infinite":false,"number":0},"boot_time":{"set":true,"infinite":false,"number":1700000000}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if n := nodes[0]; n.Power() != PowerOff || n.CPUs != 8 || !n.BootTime.Equal(unix(1700000000)) {
		t.Errorf("got %+v", n)
	}
	jobs, err := ParseJobsJSON([]byte(`{"jobs":[{"job_id":7,"job_state":["RUNNING","CONFIGURING"],"cpus":{"set":true,"infinite":false,"number":4},
		"node_count":{"set":true,"number":1},"nodes":"n1","time_limit":{"set":false,"infinite":true,"number":0},
		"submit_time":{"set":true,"number":1700000000},"array_task_id":{"set":false,"infinite":false,"number":0}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if j := jobs[0]; j.State != "CONFIGURING" || j.Phase() != JobRunning || j.CPUs != 4 || j.TimeLimit != 0 ||
		j.ArrayTaskID != -1 || !j.SubmitTime.Equal(unix(1700000000)) {
		t.Errorf("got %+v", j)
	}
}

func TestParseJSONErrors(t *testing.T) {
	cases := []struct {
		nodes bool
		in    string
		want  string // part of the message
	}{
		{true, `{`, "sinfo --json"},
		{true, `{"meta":{}}`, `no "nodes" list`},
		{true, `{"nodes":[{"name":"n1","state":"idle"},{"name":"n2","cpus":"x"}]}`, "node 1"},
		{true, `{"nodes":[{"state":"idle"}]}`, "field name is empty"},
		{true, `{"errors":[{"error":"Unable to query nodes","errno":1}],"nodes":[]}`, "Unable to query nodes"},
		{false, `{"jobs":[{"job_id":1,"job_state":"RUNNING","nodes":"n[1-"}]}`, "job 0 (id 1): field nodes"},
		{false, `{"jobs":[{"job_state":"RUNNING"}]}`, "field job_id"},
		{false, `{"jobs":[{"job_id":3}]}`, "job 0 (id 3): field job_state"},
		{false, `{"jobs":[{"job_id":3,"job_state":"RUNNING","cpus":[1]}]}`, "job 0"},
		{false, `[]`, "squeue --json"},
		{false, `{"jobs":[{"job_id":3,"job_state":["RUNNING"],"array_task_string":"x-"}]}`, `job 0 (id 3): field array_task_string: array index "x" in "x-"`},
		{false, `{"jobs":[{"job_id":"abc","job_state":["RUNNING"]}]}`, "job 0: abc is not a number"},
		{false, `{"jobs":[{"job_id":{"number":"x"},"job_state":["RUNNING"]}]}`, "job 0: x is not a number"},
		{false, `{"jobs":[{"job_id":{"set":"no"},"job_state":["RUNNING"]}]}`, "job_id.set of type bool"},
		{false, `{"jobs":[{"job_id":{"set":true},"job_state":["RUNNING"]}]}`, "job 0: field job_id: missing or not positive"},
	}
	for _, c := range cases {
		var err error
		if c.nodes {
			_, err = ParseNodesJSON([]byte(c.in))
		} else {
			_, err = ParseJobsJSON([]byte(c.in))
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.in, err, c.want)
		}
	}
}

// The state is the base state or its last flag that names the phase; a
// number in the {"set", "infinite", "number"} form counts only when set
// and finite.
func TestParseJobsJSONStateAndNumbers(t *testing.T) {
	cases := []struct {
		in    string
		state string
		limit time.Duration
		task  int64
		cpus  int
	}{
		{`{"jobs":[{"job_id":3,"job_state":["RUNNING","COMPLETING","other"],"time_limit":{"set":true,"number":5},"array_task_id":{"set":false,"number":3}}]}`, "COMPLETING", 5 * time.Minute, -1, 0},
		{`{"jobs":[{"job_id":3,"job_state":["running"],"time_limit":{"infinite":true,"number":5},"cpus":"7","array_task_id":2}]}`, "RUNNING", 0, 2, 7},
		{`{"jobs":[{"job_id":3,"job_state":["PENDING"],"time_limit":{"number":9},"cpus":""}]}`, "PENDING", 9 * time.Minute, -1, 0},
	}
	for _, c := range cases {
		jobs, err := ParseJobsJSON([]byte(c.in))
		if err != nil || len(jobs) != 1 {
			t.Fatalf("%s: %v, %d jobs", c.in, err, len(jobs))
		}
		j := jobs[0]
		if j.State != c.state || j.TimeLimit != c.limit || j.ArrayTaskID != c.task || j.CPUs != c.cpus {
			t.Errorf("%s: state %s, limit %v, task %d, cpus %d; want %s, %v, %d, %d", c.in, j.State, j.TimeLimit, j.ArrayTaskID, j.CPUs, c.state, c.limit, c.task, c.cpus)
		}
	}
}

func addFixtures(f *testing.F, glob string) {
	files, err := filepath.Glob(filepath.Join("testdata", glob))
	if err != nil || len(files) == 0 {
		f.Fatalf("no fixtures %s", glob)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

func FuzzParseNodesJSON(f *testing.F) {
	addFixtures(f, "*sinfo*.json")
	f.Add([]byte(`{"nodes":[{"name":"n1","state":["IDLE"],"cpus":{"set":true,"number":1e300}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		nodes, err := ParseNodesJSON(data)
		if err != nil {
			return
		}
		for _, n := range nodes {
			if n.Name == "" {
				t.Fatalf("node without a name accepted")
			}
			_ = n.Power().String()
			// The classification is a function of the printed state.
			if again := ParseScontrolState(n.State.String()); again.Power() != n.State.Power() {
				t.Fatalf("%s: %v is %v, re-read %v", n.Name, n.State, n.State.Power(), again.Power())
			}
			// Only a power_down_asap drain moves a node out of unavailable.
			if c := n.Power(); c != n.State.Power() && (c != PowerDownRequested || n.Reason != ReasonPowerDownASAP) {
				t.Fatalf("%s: node class %v, state class %v", n.Name, c, n.State.Power())
			}
		}
	})
}

func FuzzParseJobsJSON(f *testing.F) {
	addFixtures(f, "*squeue*.json")
	f.Fuzz(func(t *testing.T, data []byte) {
		jobs, err := ParseJobsJSON(data)
		if err != nil {
			return
		}
		for _, j := range jobs {
			if j.ID <= 0 || j.State == "" || j.TimeLimit < 0 {
				t.Fatalf("bad job accepted: %+v", j)
			}
			want, err := ExpandHostlist(j.NodeList)
			if err != nil || !reflect.DeepEqual(want, j.Nodes) {
				t.Fatalf("job %d: nodes %q from %q", j.ID, j.Nodes, j.NodeList)
			}
		}
	})
}
