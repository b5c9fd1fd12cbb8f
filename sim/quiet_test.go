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
// at each decision.
type late struct {
	policy.Policy
	at int64
	s  *Simulator
	t  *testing.T
}

func (l late) Quiet(v *policy.View) bool {
	return v.Now < l.at || l.Policy.(policy.Quiet).Quiet(v)
}

func (l late) Decide(v *policy.View, d *policy.Decision) {
	if v.Now >= l.at {
		if err := l.s.checkInvariants(); err != nil {
			l.t.Fatalf("at %d: %v", v.Now, err)
		}
		l.Policy.Decide(v, d)
	}
}

// TestQuietSameRun: a policy.Quiet policy gets exactly the run (jobs,
// timeline, placements, energy) it gets when consulted at every
// decision, on one-slot and mixed clusters under every scheduler, with
// boot failures (nodes off that a quiet always-on then boots) and
// without; idle-timeout and hgfs turn from quiet to not and back, so the
// idle list is built mid-run.
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
	}{{"one-slot", oneSlotCluster(1)}, {"mixed", propertyCluster()}} {
		for _, sched := range []string{FCFS, EASY, Conservative} {
			tr := randomTrace(11, 400, cl.c.Slots())
			for _, fail := range []float64{0, 0.2} {
				opt := Options{Scheduler: sched, Period: 60, Timeline: true, JobNodes: true, BootFailProb: fail, Seed: 3}
				for k, pc := range pols {
					p, err := policy.New(pc)
					if err != nil {
						t.Fatal(err)
					}
					s, err := New(tr, cl.c, opt)
					if err != nil {
						t.Fatal(err)
					}
					if k == len(pols)-1 {
						p = late{p, tr.Jobs[len(tr.Jobs)/2].Submit, s, t}
					}
					if _, ok := p.(policy.Quiet); !ok {
						t.Fatalf("%s is not a policy.Quiet", pc.Name)
					}
					want, err := s.Run(loud{p})
					if err != nil {
						t.Fatal(err)
					}
					quiet := 0
					got, err := s.Run(counted{p, &quiet})
					if err != nil {
						t.Fatal(err)
					}
					if quiet == 0 {
						t.Fatalf("%s %s %s: no decision was quiet: the case tests nothing", cl.name, sched, pc.Name)
					}
					if !reflect.DeepEqual(got, want) {
						t.Errorf("%s %s %s fail %v: the quiet run differs from the one consulted every time", cl.name, sched, pc.Name, fail)
					}
				}
			}
		}
	}
}
