package sim

import (
	"reflect"
	"testing"

	"github.com/ecotune/ecotune/policy"
)

// loud hides a policy's Quiet: the simulator consults it every time.
type loud struct{ policy.Policy }

// counted is a policy.Quiet that counts the decisions it says are quiet.
type counted struct {
	policy.Policy
	quiet *int
}

func (c counted) Quiet(v *policy.View) bool {
	q := c.Policy.(policy.Quiet).Quiet(v)
	if q {
		*c.quiet++
	}
	return q
}

// late is a quiet policy that does nothing before at, then decides as
// its policy.Quiet: the idle list is first needed in mid-run. From then
// on it checks the simulator's invariants (the view's IdleLRU among them)
// at each decision and keeps a copy of the view's nodes at those its
// policy is not quiet on (the simulator asks Decide then, quiet or not).
type late struct {
	policy.Policy
	at    int64
	s     *Simulator
	t     *testing.T
	nodes *[]policy.NodeView
}

func (l late) Quiet(v *policy.View) bool {
	return v.Now < l.at || l.Policy.(policy.Quiet).Quiet(v)
}

func (l late) Decide(v *policy.View, d *policy.Decision) {
	if v.Now >= l.at {
		if err := l.s.checkInvariants(); err != nil {
			l.t.Fatalf("at %d: %v", v.Now, err)
		}
		if !l.Policy.(policy.Quiet).Quiet(v) { // asked in both runs
			*l.nodes = append(*l.nodes, v.Nodes...)
		}
		l.Policy.Decide(v, d)
	}
}

// TestQuietSameRun: a policy.Quiet policy gets exactly the run (jobs,
// timeline, placements, energy) it gets when consulted at every
// decision, on one-slot clusters of one and two groups and a mixed one
// under every scheduler, with boot failures and without, with a timeline
// and without; idle-timeout and hgfs turn from quiet to not and back, and
// a late one (quiet until mid-run) has the idle list and the nodes'
// views built mid-run.
func TestQuietSameRun(t *testing.T) {
	pols := []policy.Config{
		{Name: "always-on"},
		{Name: "idle-timeout", Params: map[string]float64{"idle_timeout": 300}},
		{Name: "hgfs"},
		{Name: "idle-timeout", Params: map[string]float64{"idle_timeout": 60}}, // late
	}
	for _, cl := range []struct {
		name string
		c    Cluster
	}{{"one-slot", oneSlotCluster(1)}, {"one-slot-2", oneSlotCluster(2)}, {"mixed", propertyCluster()}} {
		for _, sched := range []string{FCFS, EASY, Conservative} {
			tr := randomTrace(11, 400, cl.c.Slots())
			for k, fail := range []float64{0, 0.2, 0} {
				// Without a timeline, the view's nodes too are built
				// when first needed.
				opt := Options{Scheduler: sched, Period: 60, Timeline: k < 2, JobNodes: true, BootFailProb: fail, Seed: 3}
				for k, pc := range pols {
					p, err := policy.New(pc)
					if err != nil {
						t.Fatal(err)
					}
					s, err := New(tr, cl.c, opt)
					if err != nil {
						t.Fatal(err)
					}
					var nodes []policy.NodeView // the late policy's views of the nodes
					if k == len(pols)-1 {
						p = late{p, tr.Jobs[len(tr.Jobs)/2].Submit, s, t, &nodes}
					}
					if _, ok := p.(policy.Quiet); !ok {
						t.Fatalf("%s is not a policy.Quiet", pc.Name)
					}
					want, err := s.Run(loud{p})
					if err != nil {
						t.Fatal(err)
					}
					wantNodes := nodes
					nodes = nil
					quiet := 0
					got, err := s.Run(counted{p, &quiet})
					if err != nil {
						t.Fatal(err)
					}
					if quiet == 0 {
						t.Fatalf("%s %s %s: no decision was quiet: the case tests nothing", cl.name, sched, pc.Name)
					}
					if !reflect.DeepEqual(nodes, wantNodes) {
						t.Errorf("%s %s %s fail %v: the late policy saw other nodes", cl.name, sched, pc.Name, fail)
					}
					if !reflect.DeepEqual(got, want) {
						t.Errorf("%s %s %s fail %v: the quiet run differs from the one consulted every time", cl.name, sched, pc.Name, fail)
					}
				}
			}
		}
	}
}
