package sim

import (
	"reflect"
	"testing"

	"github.com/ecotune/ecotune/policy"
)

// failMidway is always-on until at, then asks for a node that does not
// exist, which fails the run; running counts the jobs running then.
type failMidway struct {
	at      int64
	running *int
}

func (failMidway) Name() string { return "fail-midway" }

func (p failMidway) Decide(v *policy.View, d *policy.Decision) {
	if v.Now < p.at {
		allOn{}.Decide(v, d)
		return
	}
	*p.running = len(v.Running)
	d.PowerOn = append(d.PowerOn, -1)
}

// TestRunAfterFailedRun: a run that fails with jobs running leaves their
// allocations in use; the next Run of the same Simulator takes them back
// and gives what a fresh Simulator gives, on a cluster of one-slot nodes
// (whose allocations' counts stay 1) and on one of mixed slots.
func TestRunAfterFailedRun(t *testing.T) {
	for _, cl := range []struct {
		name string
		c    Cluster
	}{{"one-slot", oneSlotCluster(1)}, {"mixed", propertyCluster()}} {
		for _, sched := range []string{FCFS, EASY, Conservative} {
			tr := randomTrace(7, 300, cl.c.Slots())
			opt := Options{Scheduler: sched, Period: 60}
			fresh, err := New(tr, cl.c, opt)
			if err != nil {
				t.Fatal(err)
			}
			want, err := fresh.Run(allOn{})
			if err != nil {
				t.Fatal(err)
			}
			s, err := New(tr, cl.c, opt)
			if err != nil {
				t.Fatal(err)
			}
			running := 0
			if _, err := s.Run(failMidway{at: tr.Jobs[len(tr.Jobs)/2].Submit, running: &running}); err == nil {
				t.Fatalf("%s %s: the failing policy's run did not fail", cl.name, sched)
			}
			if running == 0 {
				t.Fatalf("%s %s: no job was running when the run failed: the case tests nothing", cl.name, sched)
			}
			for k := range 2 {
				got, err := s.Run(allOn{})
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s %s: run %d after a failed run differs from a fresh Simulator's", cl.name, sched, k+1)
				}
			}
		}
	}
}
