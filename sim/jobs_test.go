package sim_test

import (
	"bytes"
	"errors"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/ecotune/ecotune/sim"
)

// TestJobsCSV writes the per-job rows of TestHandWorked's estimate-expiry
// case (see there for the times): job 4 starts at 150 on the two nodes
// the others leave free. Host names count from 1 (node01 is node 0).
func TestJobsCSV(t *testing.T) {
	tr := makeTrace(job{0, 1000, 6, 100}, job{0, 1000, 2, 150}, job{1, 100, 8, 100}, job{2, 50, 2, 5000})
	r, err := sim.Run(tr, sim.Uniform(10, 1, simple), alwaysOn(t), sim.Options{Scheduler: sim.EASY, Period: sim.EveryEvent, JobNodes: true})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := sim.JobRows(tr, r)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := sim.WriteJobsCSV(&buf, rows); err != nil {
		t.Fatal(err)
	}
	const want = `job_id,user,group,partition,submit,start,end,wait_s,run_s,slots,nodes
1,u,g,default,0,0,1000,0,1000,6,node01 node02 node03 node04 node05 node06
2,u,g,default,0,0,1000,0,1000,2,node07 node08
3,u,g,default,1,1000,1100,999,100,8,node01 node02 node03 node04 node05 node06 node07 node08
4,u,g,default,2,150,200,148,50,2,node09 node10
`
	if got := buf.String(); got != want {
		t.Errorf("jobs:\n%s\nwant:\n%s", got, want)
	}

	dir := t.TempDir()
	path := filepath.Join(dir, "jobs.parquet")
	if err := sim.WriteJobsFile(path, rows, false); err != nil {
		t.Fatal(err)
	}
	back, err := sim.ReadJobsParquet(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, rows) {
		t.Errorf("parquet round trip:\n%+v\nwant\n%+v", back, rows)
	}
	if err := sim.WriteJobsFile(path, rows, false); !errors.Is(err, sim.ErrExists) {
		t.Errorf("second write without force: %v, want ErrExists", err)
	}
	if err := sim.WriteJobsFile(path, rows, true); err != nil {
		t.Errorf("with force: %v", err)
	}
}

// TestJobsCSVQuoting: names holding commas or quotes are quoted.
func TestJobsCSVQuoting(t *testing.T) {
	var buf bytes.Buffer
	rows := []sim.JobRow{{JobID: 7, User: `a,b`, Group: `say "hi"`, Partition: "p", Nodes: "n1"}}
	if err := sim.WriteJobsCSV(&buf, rows); err != nil {
		t.Fatal(err)
	}
	if want := "7,\"a,b\",\"say \"\"hi\"\"\",p,0,0,0,0,0,0,n1\n"; !bytes.HasSuffix(buf.Bytes(), []byte(want)) {
		t.Errorf("got %q, want the row %q", buf.String(), want)
	}
}

// TestJobNodes: recording placements changes nothing else, and each
// job's placement holds its slots on distinct nodes, within each node's
// slots, on nodes no other job holds while it runs.
func TestJobNodes(t *testing.T) {
	c := sim.Uniform(8, 2, sim.ESCS)
	for _, sched := range []string{sim.FCFS, sim.EASY, sim.Conservative} {
		tr := refRandomTrace(3, 1500, c.Slots())
		off, err := sim.Run(tr, c, alwaysOn(t), sim.Options{Scheduler: sched})
		if err != nil {
			t.Fatal(err)
		}
		on, err := sim.Run(tr, c, alwaysOn(t), sim.Options{Scheduler: sched, JobNodes: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(on.Placements) != len(on.Jobs) || len(on.NodeNames) != 8 || len(on.NodeSlots) != 8 {
			t.Fatalf("%s: %d placements of %d jobs, %d names, %d node slots", sched, len(on.Placements), len(on.Jobs), len(on.NodeNames), len(on.NodeSlots))
		}
		type use struct {
			t     int64
			node  int32
			slots int32
		}
		var uses []use
		for i, p := range on.Placements {
			sum := int32(0)
			for k, n := range p.Nodes {
				if p.Slots[k] < 1 || p.Slots[k] > on.NodeSlots[n] || slices.Contains(p.Nodes[:k], n) {
					t.Fatalf("%s: job %d: placement %v", sched, i, p)
				}
				sum += p.Slots[k]
				if on.Jobs[i].End > on.Jobs[i].Start {
					uses = append(uses, use{on.Jobs[i].Start, n, p.Slots[k]}, use{on.Jobs[i].End, n, -p.Slots[k]})
				}
			}
			if int(sum) != on.Jobs[i].Slots {
				t.Fatalf("%s: job %d holds %d slots, needs %d", sched, i, sum, on.Jobs[i].Slots)
			}
		}
		slices.SortFunc(uses, func(a, b use) int { // ends before starts at one time
			if a.t != b.t {
				return int(a.t - b.t)
			}
			return int(a.slots - b.slots)
		})
		busy := make([]int32, 8)
		for _, u := range uses {
			if busy[u.node] += u.slots; busy[u.node] > on.NodeSlots[u.node] {
				t.Fatalf("%s: node %d holds %d slots at %d", sched, u.node, busy[u.node], u.t)
			}
		}
		on.Placements, on.NodeNames, on.NodeSlots = nil, nil, nil
		if !reflect.DeepEqual(on, off) {
			t.Errorf("%s: the run with placements differs", sched)
		}
	}
}
