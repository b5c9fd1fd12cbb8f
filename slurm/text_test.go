package slurm

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// The text fallback and the JSON reader agree on a snapshot taken at one
// moment from the loopback cluster (testdata/live-*).
func TestTextAgreesWithJSON(t *testing.T) {
	fromJSON, err := ParseNodesJSON(readFixture(t, "live-sinfo.json"))
	if err != nil {
		t.Fatal(err)
	}
	fromText, err := ParseScontrolNodes(readFixture(t, "live-scontrol-show-node.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(fromText) != len(fromJSON) {
		t.Fatalf("%d nodes from text, %d from JSON", len(fromText), len(fromJSON))
	}
	for i := range fromJSON {
		a, b := fromJSON[i], fromText[i]
		// scontrol leaves Port= out when it is the default SlurmdPort.
		if b.Port == 0 {
			b.Port = a.Port
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("node %d:\nJSON %+v\ntext %+v", i, a, b)
		}
	}
	for _, pair := range [][2]string{{"live-squeue.json", "live-squeue.txt"}, {"live-array-squeue.json", "live-array-squeue.txt"}} {
		jobsJSON, err := ParseJobsJSON(readFixture(t, pair[0]))
		if err != nil {
			t.Fatal(err)
		}
		jobsText, err := ParseSqueueText(readFixture(t, pair[1]))
		if err != nil {
			t.Fatal(err)
		}
		if len(jobsText) != len(jobsJSON) {
			t.Fatalf("%s: %d jobs from text, %d from JSON", pair[1], len(jobsText), len(jobsJSON))
		}
		byID := map[int64]Job{}
		for _, j := range jobsText {
			byID[j.ID] = j
		}
		for _, a := range jobsJSON {
			b, ok := byID[a.ID]
			if !ok {
				t.Errorf("%s: job %d: not in squeue's text", pair[1], a.ID)
				continue
			}
			// squeue's text has no restart count, and writes NONE for the
			// end of a running job without a time limit.
			b.RestartCount = a.RestartCount
			if b.EndTime.IsZero() && a.TimeLimit == 0 && a.Phase() == JobRunning {
				b.EndTime = a.EndTime
			}
			if !reflect.DeepEqual(a, b) {
				t.Errorf("%s: job %d:\nJSON %+v\ntext %+v", pair[0], a.ID, a, b)
			}
		}
	}
}

func TestParseScontrolNodes(t *testing.T) {
	in := "NodeName=n1 CPUAlloc=2 CPUTot=4 NodeAddr=10.0.0.1 NodeHostName=h1 Port=7001 OS=Linux 6.1 #1 SMP State=DOWN*+POWERED_DOWN Partitions=a,b BootTime=None Reason=Not responding [slurm@1700000000]\n" +
		"\nNodeName=n2 CPUTot=1 State=IDLE+DRAIN+POWER_DOWN Partitions=(null) BootTime=1700000000\n"
	nodes, err := ParseScontrolNodes([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []Node{
		{Name: "n1", State: ParseNodeState("down", []string{"NOT_RESPONDING", "POWERED_DOWN"}), CPUs: 4, AllocCPUs: 2, IdleCPUs: 2,
			Partitions: []string{"a", "b"}, Reason: "Not responding", Hostname: "h1", Address: "10.0.0.1", Port: 7001},
		{Name: "n2", State: ParseNodeState("idle", []string{"DRAIN", "POWER_DOWN"}), CPUs: 1, IdleCPUs: 1, BootTime: unix(1700000000)},
	}
	if !reflect.DeepEqual(nodes, want) {
		t.Errorf("got\n%+v\nwant\n%+v", nodes, want)
	}
	for _, bad := range []struct{ in, want string }{
		{"State=IDLE\n", "line 1: no NodeName"},
		{"NodeName=a State=IDLE\nNodeName=b\n", "line 2 (b): no State"},
		{"NodeName=a State=IDLE CPUTot=x\n", "line 1 (a): field CPUTot"},
	} {
		if _, err := ParseScontrolNodes([]byte(bad.in)); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: error %v, want %q", bad.in, err, bad.want)
		}
	}
}

func TestParseSqueueText(t *testing.T) {
	in := "9|9|N/A|PENDING|8|2|1700000000|N/A|N/A|1-02:03:04|batch|alice|Resources||my|job\n" +
		"12|10|2|RUNNING|1|1|1700000000|1700000100|1700003700|1:00:00|batch|bob|None|n[1]|arr\n"
	jobs, err := ParseSqueueText([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []Job{
		{ID: 9, ArrayTaskID: -1, Instances: 1, Name: "my|job", User: "alice", Partition: "batch", State: "PENDING", Reason: "Resources",
			CPUs: 8, NodeCount: 2, SubmitTime: unix(1700000000), TimeLimit: 26*time.Hour + 3*time.Minute + 4*time.Second},
		{ID: 12, ArrayJobID: 10, ArrayTaskID: 2, Instances: 1, Name: "arr", User: "bob", Partition: "batch", State: "RUNNING", Reason: "None",
			CPUs: 1, NodeCount: 1, NodeList: "n[1]", Nodes: []string{"n1"}, SubmitTime: unix(1700000000),
			StartTime: unix(1700000100), EndTime: unix(1700003700), TimeLimit: time.Hour},
	}
	if !reflect.DeepEqual(jobs, want) {
		t.Errorf("got\n%+v\nwant\n%+v", jobs, want)
	}
	for _, bad := range []struct{ in, want string }{
		{"1|1|N/A|RUNNING\n", "line 1: 4 fields"},
		{"x|1|N/A|RUNNING|1|1|0|0|0|5|p|u|r|n1|j\n", "line 1: field job id"},
		{"1|1|N/A|RUNNING|a|1|0|0|0|5|p|u|r|n1|j\n", "field cpus"},
		{"1|1|N/A|RUNNING|1|1|0|0|0|5:xx|p|u|r|n1|j\n", "field time limit"},
		{"1|1|N/A|RUNNING|1|1|0|0|0|5|p|u|r|n[1-|j\n", "field node list"},
	} {
		if _, err := ParseSqueueText([]byte(bad.in)); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: error %v, want %q", bad.in, err, bad.want)
		}
	}
}

func TestParseTimeLimit(t *testing.T) {
	cases := map[string]time.Duration{
		"UNLIMITED": 0, "INFINITE": 0, "NOT_SET": 0, "N/A": 0,
		"5": 5 * time.Minute, "5:30": 5*time.Minute + 30*time.Second, "1:00:00": time.Hour,
		"2-03": 51 * time.Hour, "2-03:04": 51*time.Hour + 4*time.Minute, "365-00:00:00": 365 * 24 * time.Hour,
	}
	for in, want := range cases {
		if got, err := ParseTimeLimit(in); err != nil || got != want {
			t.Errorf("ParseTimeLimit(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"x", "1:2:3:4", "-5", "1-x", "5:-1", "1000000-999999999:0", "876601:0:0"} {
		if got, err := ParseTimeLimit(bad); err == nil {
			t.Errorf("ParseTimeLimit(%q) = %v, want an error", bad, got)
		}
	}
}

func FuzzParseSlurmText(f *testing.F) {
	f.Add(readFixture(f, "live-scontrol-show-node.txt"))
	f.Add(readFixture(f, "live-squeue.txt"))
	f.Add(readFixture(f, "live-array-squeue.txt"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if nodes, err := ParseScontrolNodes(data); err == nil {
			for _, n := range nodes {
				if n.Name == "" || n.IdleCPUs < 0 {
					t.Fatalf("bad node accepted: %+v", n)
				}
			}
		}
		if jobs, err := ParseSqueueText(data); err == nil {
			for _, j := range jobs {
				if j.ID <= 0 || j.TimeLimit < 0 {
					t.Fatalf("bad job accepted: %+v", j)
				}
			}
		}
	})
}

func TestCountArrayTasks(t *testing.T) {
	cases := map[string]int{"": 1, "5": 1, "5-6": 2, "1-3%2": 3, "1-9:2": 5, "1-3,5,7-15:2%4": 9, "0-4000000": 4000001}
	for in, want := range cases {
		if got, err := countArrayTasks(in); err != nil || got != want {
			t.Errorf("countArrayTasks(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"x", "3-1", "1-", "1:0", "1-5:x", "0-4000001", "0-4000000,1", "-1"} {
		if got, err := countArrayTasks(bad); err == nil {
			t.Errorf("countArrayTasks(%q) = %d, want an error", bad, got)
		}
	}
}

// Every field check of the text readers names the line and the field.
func TestTextErrors(t *testing.T) {
	const ok = "|p|u|None|n1|job"
	for _, tc := range []struct {
		name, in, want string
		parse          func([]byte) error
	}{
		{"squeue fields", "1|2", "squeue: line 1: 2 fields, want 15 (format " + SqueueFormat + ")", squeueErr},
		{"squeue id", "x|0|N/A|RUNNING|1|1|0|0|0|1:00" + ok, `squeue: line 1: field job id: "x" is not a job id`, squeueErr},
		{"squeue state", "5|0|N/A||1|1|0|0|0|1:00" + ok, "squeue: line 1: field state: empty", squeueErr},
		{"squeue array job", "5|x|3|PENDING|1|1|0|0|0|1:00" + ok, `squeue: line 1: field array job id: "x" is not a job id`, squeueErr},
		{"squeue array task", "5|4|1-x|PENDING|1|1|0|0|0|1:00" + ok, `squeue: line 1: field array task id: array range "1-x" in "1-x"`, squeueErr},
		{"squeue cpus", "5|0|N/A|RUNNING|-1|1|0|0|0|1:00" + ok, `squeue: line 1: field cpus: "-1" is not a count`, squeueErr},
		{"squeue nodes", "5|0|N/A|RUNNING|1|y|0|0|0|1:00" + ok, `squeue: line 1: field nodes: "y" is not a count`, squeueErr},
		{"squeue limit", "5|0|N/A|RUNNING|1|1|0|0|0|1:2:3:4" + ok, `squeue: line 1: field time limit: time limit "1:2:3:4": too many ':'`, squeueErr},
		{"squeue node list", "5|0|N/A|RUNNING|1|1|0|0|0|1:00|p|u|None|n[1-|job", `squeue: line 1: field node list: bad hostlist "n[1-": '[' not closed`, squeueErr},
		{"limit days", "x-1", `time limit "x-1": bad days`, limitErr},
		{"limit negative", "-1", `time limit "-1": bad days`, limitErr},
		{"limit hours", "1-x", `time limit "1-x": "x" is not a number`, limitErr},
		{"limit minutes", "1:a", `time limit "1:a": "a" is not a number`, limitErr},
		{"limit years", "40000-0", `time limit "40000-0": longer than 100 years`, limitErr},
		{"node name", "State=IDLE", "scontrol show node: line 1: no NodeName= field", nodesErr},
		{"node state", "NodeName=a CPUTot=2", "scontrol show node: line 1 (a): no State= field", nodesErr},
		{"node cpus", "NodeName=a State=IDLE CPUTot=x", `scontrol show node: line 1 (a): field CPUTot: "x" is not a count`, nodesErr},
		{"node alloc", "NodeName=a State=IDLE CPUAlloc=-1", `scontrol show node: line 1 (a): field CPUAlloc: "-1" is not a count`, nodesErr},
		{"node port", "NodeName=a State=IDLE Port=z", `scontrol show node: line 1 (a): field Port: "z" is not a count`, nodesErr},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.parse([]byte(tc.in))
			if err == nil || err.Error() != tc.want {
				t.Errorf("%q: error %v, want %s", tc.in, err, tc.want)
			}
		})
	}
}

func squeueErr(b []byte) error { _, err := ParseSqueueText(b); return err }
func limitErr(b []byte) error  { _, err := ParseTimeLimit(string(b)); return err }
func nodesErr(b []byte) error  { _, err := ParseScontrolNodes(b); return err }

// A node's idle CPUs are never negative, Partitions=(null) is none and
// Reason loses only a trailing "[user@time]".
func TestParseScontrolNodesFields(t *testing.T) {
	for _, tc := range []struct {
		in         string
		idle       int
		partitions []string
		reason     string
	}{
		{"NodeName=a State=IDLE CPUTot=2 CPUAlloc=3 Partitions=(null) Reason=gone away [root@12]", 0, nil, "gone away"},
		{"NodeName=a State=IDLE CPUTot=4 CPUAlloc=1 Partitions=a,b Reason=x]", 3, []string{"a", "b"}, "x]"},
	} {
		n, err := ParseScontrolNodes([]byte(tc.in))
		if err != nil || len(n) != 1 {
			t.Fatalf("%q: %v, %d nodes", tc.in, err, len(n))
		}
		if n[0].IdleCPUs != tc.idle || !reflect.DeepEqual(n[0].Partitions, tc.partitions) || n[0].Reason != tc.reason {
			t.Errorf("%q: idle %d, partitions %q, reason %q; want %d, %q, %q", tc.in, n[0].IdleCPUs, n[0].Partitions, n[0].Reason, tc.idle, tc.partitions, tc.reason)
		}
	}
}
