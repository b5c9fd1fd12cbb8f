package sim

import (
	"math"
	"testing"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/policy"
)

// snapshot keeps copies of what the policy saw at chosen times.
type snapshot struct {
	at     map[int64]bool
	hourly map[int64][24]float64
	recent map[int64][]policy.Arrival
	queue  map[int64]int
}

func (*snapshot) Name() string { return "snapshot" }

func (s *snapshot) Decide(v *policy.View, d *policy.Decision) {
	if s.at[v.Now] {
		s.hourly[v.Now] = v.HourlySlots
		s.recent[v.Now] = append([]policy.Arrival(nil), v.Recent...)
		s.queue[v.Now] = len(v.Queue)
	}
}

// TestHourlySlots: in UTC+1, jobs at local 00:30 and 13:10 of day one, and
// 13:20 of day two. After the first local midnight HourlySlots is day one
// as it was; after the second, 1/7 of day two plus 6/7 of day one.
func TestHourlySlots(t *testing.T) {
	const tz = 3600
	day0 := int64(10*86400) - tz // local midnight
	tr := &datasets.Trace{Meta: datasets.Meta{TZOffset: tz}}
	for i, j := range []struct {
		t     int64
		slots int32
	}{{day0 + 1800, 2}, {day0 + 13*3600 + 600, 1}, {day0 + 86400 + 13*3600 + 1200, 7}, {day0 + 2*86400 + 3600, 1}} {
		tr.Jobs = append(tr.Jobs, datasets.Job{ID: int64(i + 1), Submit: j.t, Run: 10, Procs: j.slots, ReqTime: -1})
	}
	t1, t2 := day0+86400, day0+2*86400 // the two local midnights
	p := &snapshot{at: map[int64]bool{}, hourly: map[int64][24]float64{}, recent: map[int64][]policy.Arrival{}, queue: map[int64]int{}}
	s, err := New(tr, Uniform(1, 8, ESCS), Options{Period: EveryEvent})
	if err != nil {
		t.Fatal(err)
	}
	p.at[t1], p.at[t2] = true, true
	if _, err := s.Run(p); err != nil {
		t.Fatal(err)
	}
	h1, h2 := p.hourly[t1], p.hourly[t2]
	if h1[0] != 2 || h1[13] != 1 || sum(h1) != 3 {
		t.Errorf("after day one: %v", h1)
	}
	if want13 := 1 + (7-1)/7.0; !near(h2[0], 2*6/7.0) || !near(h2[13], want13) {
		t.Errorf("after day two: hour 0 %v (want %v), hour 13 %v (want %v)", h2[0], 2*6/7.0, h2[13], want13)
	}
	if r := p.recent[t2]; len(r) != 3 || r[2].Slots != 7 {
		t.Errorf("recent %v", r)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

func sum(h [24]float64) float64 {
	s := 0.0
	for _, v := range h {
		s += v
	}
	return s
}

// TestRecentCap: View.Recent keeps the last RecentCap arrivals, oldest first.
func TestRecentCap(t *testing.T) {
	tr := &datasets.Trace{}
	n := 3*policy.RecentCap + 5
	for i := range n {
		tr.Jobs = append(tr.Jobs, datasets.Job{ID: int64(i + 1), Submit: int64(i), Run: 0, Procs: 1, ReqTime: -1})
	}
	last := int64(n - 1)
	p := &snapshot{at: map[int64]bool{last: true}, hourly: map[int64][24]float64{}, recent: map[int64][]policy.Arrival{}, queue: map[int64]int{}}
	if _, err := Run(tr, Uniform(1, 1, ESCS), p, Options{Period: EveryEvent}); err != nil {
		t.Fatal(err)
	}
	r := p.recent[last]
	if len(r) != policy.RecentCap || r[0].Time != last-policy.RecentCap+1 || r[len(r)-1].Time != last {
		t.Errorf("recent: %d arrivals from %d to %d", len(r), r[0].Time, r[len(r)-1].Time)
	}
}
