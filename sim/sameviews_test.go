package sim

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/policy"
)

// sameViews wraps a policy: at each decision it feeds a policy.Features
// of its own the events of the replay since the last decision — the
// submissions (from the trace) and the node state changes (from the
// run's timeline) — builds a View from the instantaneous part of the
// simulator's (queue, running jobs, nodes' slots, busy slots, levels)
// and the feature state (Fill), and records any difference from the
// simulator's View. A reference computation of HourlySlots straight from
// the definition checks the smoothing and the rollover themselves.
type sameViews struct {
	policy.Policy
	s    *Simulator
	jobs []datasets.Job
	poll bool // feed like a polling daemon: clock first, then the late submissions

	f         *policy.Features
	nextJob   int // jobs fed
	nextCh    int // timeline changes fed
	v         policy.View
	decisions int
	rolls     int // midnights the reference closed
	errs      []string

	ref refHourly
}

func (c *sameViews) Decide(v *policy.View, d *policy.Decision) {
	c.check(v)
	c.Policy.Decide(v, d)
}

func (c *sameViews) check(v *policy.View) {
	c.decisions++
	if c.f == nil {
		c.f = policy.NewFeatures(v.Start, v.TZOffset, len(v.Nodes))
		c.ref = refHourly{tz: int64(v.TZOffset), next: nextMidnightRef(v.Start, int64(v.TZOffset))}
	}
	changes := c.s.st.res.Timeline.Changes
	if c.poll {
		c.f.Advance(v.Now)
	}
	for c.nextJob < len(c.jobs) && c.jobs[c.nextJob].Submit <= v.Now {
		j := &c.jobs[c.nextJob]
		for !c.poll && c.nextCh < len(changes) && changes[c.nextCh].Time <= j.Submit {
			c.feedChange(changes[c.nextCh])
		}
		req := j.Run
		if j.ReqTime > 0 {
			req = j.ReqTime
		}
		c.f.Submitted(policy.Arrival{Time: j.Submit, Slots: int(j.Procs), ReqTime: req})
		c.ref.add(j.Submit, int(j.Procs))
		c.nextJob++
	}
	for c.nextCh < len(changes) {
		c.feedChange(changes[c.nextCh])
	}
	c.f.Advance(v.Now)
	c.rolls += c.ref.advance(v.Now)

	// The instantaneous part of the simulator's View; what the feature
	// state owns is cleared, to be filled.
	w := &c.v
	nodes, lru := w.Nodes[:0], w.IdleLRU[:0]
	*w = policy.View{Groups: v.Groups, Period: v.Period, Queue: v.Queue, Running: v.Running, IdleLRU: lru}
	for _, n := range v.Nodes {
		n.State, n.Since, n.IdleSince, n.LastFailed = policy.Busy, -7, -7, -7
		nodes = append(nodes, n)
	}
	w.Nodes = nodes
	c.f.Fill(w)

	if diff := diffViews(v, w); diff != "" && len(c.errs) < 5 {
		c.errs = append(c.errs, fmt.Sprintf("decision %d at %d: %s", c.decisions, v.Now, diff))
	}
	for k, h := range c.ref.hourly {
		if math.Abs(v.HourlySlots[k]-h) > 1e-9*max(1, math.Abs(h)) && len(c.errs) < 5 {
			c.errs = append(c.errs, fmt.Sprintf("decision %d at %d: HourlySlots[%d] = %v, by definition %v", c.decisions, v.Now, k, v.HourlySlots[k], h))
		}
	}
}

func (c *sameViews) feedChange(ch Change) {
	c.f.NodeChanged(int(ch.Node), ch.State, ch.Time)
	c.nextCh++
}

// diffViews describes how a and b differ, field by field ("" if not).
func diffViews(a, b *policy.View) string {
	sa, sb := *a, *b
	sa.Groups, sa.Nodes, sa.Queue, sa.Running, sa.Recent, sa.IdleLRU = nil, nil, nil, nil, nil, nil
	sb.Groups, sb.Nodes, sb.Queue, sb.Running, sb.Recent, sb.IdleLRU = nil, nil, nil, nil, nil, nil
	switch {
	case !reflect.DeepEqual(sa, sb):
		return fmt.Sprintf("scalars and HourlySlots differ:\n sim  %+v\n feat %+v", sa, sb)
	case !slices.Equal(a.Nodes, b.Nodes):
		for i := range a.Nodes {
			if i < len(b.Nodes) && a.Nodes[i] != b.Nodes[i] {
				return fmt.Sprintf("node %d: sim %+v, feat %+v", i, a.Nodes[i], b.Nodes[i])
			}
		}
		return fmt.Sprintf("%d nodes, %d", len(a.Nodes), len(b.Nodes))
	case !slices.Equal(a.Recent, b.Recent):
		return fmt.Sprintf("Recent: sim %d arrivals %v…, feat %d %v…", len(a.Recent), a.Recent[:min(3, len(a.Recent))], len(b.Recent), b.Recent[:min(3, len(b.Recent))])
	case !slices.Equal(a.IdleLRU, b.IdleLRU):
		return fmt.Sprintf("IdleLRU: sim %v, feat %v", a.IdleLRU, b.IdleLRU)
	}
	return ""
}

// refHourly is HourlySlots by its definition: at each local midnight
// each hour's value becomes 1/7 of the slots submitted in that hour of the
// day just ended plus 6/7 of its value before (the first day as it is).
type refHourly struct {
	tz     int64
	next   int64 // next local midnight
	today  [24]int
	hourly [24]float64
	rolled bool
}

func (r *refHourly) add(t int64, slots int) {
	r.advance(t)
	local := t + r.tz
	r.today[((local%86400+86400)%86400)/3600] += slots
}

func (r *refHourly) advance(t int64) int {
	n := 0
	for ; t >= r.next; n++ {
		for k := range r.hourly {
			if r.rolled {
				r.hourly[k] = float64(r.today[k])/7 + r.hourly[k]*6/7
			} else {
				r.hourly[k] = float64(r.today[k])
			}
		}
		r.rolled, r.today, r.next = true, [24]int{}, r.next+86400
	}
	return n
}

func nextMidnightRef(t, tz int64) int64 {
	local := t + tz
	return local - ((local%86400)+86400)%86400 + 86400 - tz
}

// TestSameViews replays a slice of the embedded trace under idle-timeout
// and hgfs (with boot failures, FCFS and EASY, in UTC, UTC−7 and a time zone with a
// submission at midnight) and
// feeds the same events to a policy.Features directly, at every decision:
// in the order they happened, and as a polling daemon sees them (the clock
// first, past midnight, then the submissions since the last poll). The
// Views must be identical at every decision, and HourlySlots as defined.
func TestSameViews(t *testing.T) {
	tr, err := datasets.Default()
	if err != nil {
		t.Fatal(err)
	}
	tr.Jobs = tr.Jobs[:4000]
	// A time zone in which job 1000 is submitted at local midnight: the
	// midnight closes its day before the job enters the next one.
	atMidnight := int(-tr.Jobs[1000].Submit % 86400)
	if atMidnight < -43200 {
		atMidnight += 86400
	}
	c, err := ClusterFromTrace(tr.Meta)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		policy string
		tz     int
		opt    Options
	}{
		{"idle-timeout", 0, Options{}},
		{"idle-timeout", atMidnight, Options{Scheduler: EASY, BootFailProb: 0.2, Seed: 3}},
		{"hgfs", 0, Options{Scheduler: EASY}},
		{"hgfs", -7 * 3600, Options{Period: EveryEvent, BootFailProb: 0.1, Seed: 5}},
	} {
		for _, poll := range []bool{false, true} {
			name := fmt.Sprintf("%s/tz%d/%s/period%d/poll=%v", tc.policy, tc.tz, tc.opt.Scheduler, tc.opt.Period, poll)
			t.Run(name, func(t *testing.T) {
				tz := *tr
				tz.Meta.TZOffset = tc.tz
				opt := tc.opt
				opt.Timeline = true
				s, err := New(&tz, c, opt)
				if err != nil {
					t.Fatal(err)
				}
				p, err := policy.New(policy.Config{Name: tc.policy})
				if err != nil {
					t.Fatal(err)
				}
				chk := &sameViews{Policy: p, s: s, jobs: tz.Jobs, poll: poll}
				r, err := s.Run(chk)
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range chk.errs {
					t.Error(e)
				}
				t.Logf("%d decisions, %d midnights, %d boots, %d shutdowns, %d boot failures", chk.decisions, chk.rolls, r.Boots, r.Shutdowns, r.BootFailures)
				// The run must have exercised what is compared.
				if chk.decisions < 1000 || chk.rolls < 10 || r.Shutdowns == 0 || (opt.BootFailProb > 0 && r.BootFailures == 0) {
					t.Errorf("%d decisions, %d midnights, %d shutdowns, %d boot failures: too few to compare", chk.decisions, chk.rolls, r.Shutdowns, r.BootFailures)
				}
			})
		}
	}
}
