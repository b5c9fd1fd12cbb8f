package policy

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestFeaturesHourlyHandWorked: slots submitted at local hours of three
// days, in three time zones; after each local midnight HourlySlots is
// worked out by hand: the first day as it is, then 1/7 of the new day
// plus 6/7 of the old value, an empty day shrinking every hour by 6/7.
func TestFeaturesHourlyHandWorked(t *testing.T) {
	for _, tz := range []int{0, 3600, -5*3600 - 1800} {
		midnight := int64(20*86400 - tz) // a local midnight
		start := midnight + 3600         // 01:00 local
		f := NewFeatures(start, tz, 0)
		if f.NextRoll() != midnight+86400 {
			t.Fatalf("tz %d: next roll %d, want %d", tz, f.NextRoll(), midnight+86400)
		}
		sub := func(day, hour, minute int64, slots int) {
			f.Submitted(Arrival{Time: midnight + day*86400 + hour*3600 + minute*60, Slots: slots, ReqTime: 60})
		}
		sub(0, 1, 30, 2)  // hour 1
		sub(0, 13, 10, 1) // hour 13
		sub(0, 23, 59, 4) // hour 23
		if h := f.HourlySlots(); h != [24]float64{} {
			t.Errorf("tz %d: before the first midnight %v", tz, h)
		}
		sub(1, 0, 0, 3) // at midnight: closes day 0, then hour 0 of day 1
		sub(1, 13, 20, 7)
		h := f.HourlySlots()
		if h[1] != 2 || h[13] != 1 || h[23] != 4 || h[0] != 0 || sum24(h) != 7 {
			t.Errorf("tz %d: after day 0: %v", tz, h)
		}
		f.Advance(midnight + 2*86400) // closes day 1
		h = f.HourlySlots()
		want := map[int]float64{0: 3.0 / 7, 1: 2 * 6.0 / 7, 13: 1 + (7-1)/7.0, 23: 4 * 6.0 / 7}
		for k, w := range want {
			if !nearly(h[k], w) {
				t.Errorf("tz %d: after day 1: hour %d = %v, want %v", tz, k, h[k], w)
			}
		}
		f.Advance(midnight + 3*86400 + 5) // closes day 2, empty
		h2 := f.HourlySlots()
		for k, w := range want {
			if !nearly(h2[k], w*6/7) {
				t.Errorf("tz %d: after empty day 2: hour %d = %v, want %v", tz, k, h2[k], w*6/7)
			}
		}
		if f.NextRoll() != midnight+4*86400 || f.Now() != midnight+3*86400+5 {
			t.Errorf("tz %d: now %d, next roll %d", tz, f.Now(), f.NextRoll())
		}
	}
}

func nearly(a, b float64) bool { return a-b < 1e-12 && b-a < 1e-12 }

func sum24(h [24]float64) float64 {
	s := 0.0
	for _, v := range h {
		s += v
	}
	return s
}

// events is a random workload: distinct submit times over about ten days
// and polls every few minutes to an hour.
func events(seed uint64) (arrivals []Arrival, polls []int64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	start := int64(1_000_000_000)
	t := start
	for t < start+10*86400 {
		t += 1 + rng.Int64N(1800)
		arrivals = append(arrivals, Arrival{Time: t, Slots: 1 + rng.IntN(64), ReqTime: 60 + rng.Int64N(86400)})
	}
	for p := start; p < t+3600; p += 30 + rng.Int64N(3600) {
		polls = append(polls, p)
	}
	return arrivals, polls
}

// TestFeaturesPollOrder: the same submissions fed as they happen, or at
// polls after the clock (late, across midnights), or at polls in random
// order, give the same Recent and bit-identical HourlySlots at every poll.
func TestFeaturesPollOrder(t *testing.T) {
	lateDays := 0
	for seed := range uint64(8) {
		arrivals, polls := events(seed)
		tz := int(seed)*3600 - 4*3600
		start := polls[0]
		inOrder := NewFeatures(start, tz, 0)
		late := NewFeatures(start, tz, 0)
		shuffled := NewFeatures(start, tz, 0)
		rng := rand.New(rand.NewPCG(seed, 2))
		next := 0
		for _, p := range polls {
			from := next
			for next < len(arrivals) && arrivals[next].Time <= p {
				inOrder.Submitted(arrivals[next])
				next++
			}
			inOrder.Advance(p)
			late.Advance(p)
			shuffled.Advance(p)
			batch := slices.Clone(arrivals[from:next])
			for _, a := range batch {
				if a.Time < late.NextRoll()-86400 {
					lateDays++
				}
				late.Submitted(a)
			}
			rng.Shuffle(len(batch), func(i, j int) { batch[i], batch[j] = batch[j], batch[i] })
			for _, a := range batch {
				shuffled.Submitted(a)
			}
			for name, g := range map[string]*Features{"late": late, "shuffled": shuffled} {
				if g.HourlySlots() != inOrder.HourlySlots() {
					t.Fatalf("seed %d, poll %d, %s: hourly %v, in order %v", seed, p, name, g.HourlySlots(), inOrder.HourlySlots())
				}
				if !slices.Equal(g.Recent(), inOrder.Recent()) {
					t.Fatalf("seed %d, poll %d, %s: recent differs", seed, p, name)
				}
			}
		}
		if sum24(inOrder.HourlySlots()) == 0 || len(inOrder.Recent()) != RecentCap {
			t.Errorf("seed %d: hourly sum %v, %d recent: the case is not exercised", seed, sum24(inOrder.HourlySlots()), len(inOrder.Recent()))
		}
	}
	if lateDays < 8 {
		t.Errorf("%d submissions reported after their midnight: the case is not exercised", lateDays)
	}
}

// TestFeaturesTooLate: a submission more than a day late joins Recent
// but no longer the hourly counts.
func TestFeaturesTooLate(t *testing.T) {
	f := NewFeatures(0, 0, 0)
	f.Submitted(Arrival{Time: 100, Slots: 5})
	f.Advance(3 * 86400)
	before := f.HourlySlots()
	f.Submitted(Arrival{Time: 200, Slots: 9})
	if f.HourlySlots() != before {
		t.Errorf("hourly changed by a submission two days late: %v, before %v", f.HourlySlots(), before)
	}
	if r := f.Recent(); len(r) != 2 || r[1].Slots != 9 || f.Now() != 3*86400 {
		t.Errorf("recent %v, now %d", r, f.Now())
	}
}

// TestFeaturesRecentWindow: Recent is the last RecentCap arrivals in time
// order, whatever order they were fed in.
func TestFeaturesRecentWindow(t *testing.T) {
	f := NewFeatures(0, 0, 0)
	n := 3*RecentCap + 7
	for i := range n {
		f.Submitted(Arrival{Time: int64(2 * i), Slots: 1})
	}
	f.Submitted(Arrival{Time: int64(2*n - 3), Slots: 2}) // between the last two
	f.Submitted(Arrival{Time: 1, Slots: 3})              // older than the window
	r := f.Recent()
	if len(r) != RecentCap || !slices.IsSortedFunc(r, func(a, b Arrival) int { return int(a.Time - b.Time) }) {
		t.Fatalf("%d arrivals, sorted %v", len(r), slices.IsSortedFunc(r, func(a, b Arrival) int { return int(a.Time - b.Time) }))
	}
	if last := r[len(r)-2:]; last[0].Slots != 2 || last[1].Time != int64(2*n-2) {
		t.Errorf("last two %v", last)
	}
	for _, a := range r {
		if a.Slots == 3 {
			t.Errorf("an arrival older than the window shows: %v", a)
		}
	}
}

// TestNodeEnter: the node-time rule, transition by transition.
func TestNodeEnter(t *testing.T) {
	for _, tc := range []struct {
		from, to                     NodeState
		since, idleSince, lastFailed int64
	}{
		{Idle, Busy, 50, 10, NoTime},
		{Busy, Idle, 50, 50, NoTime},
		{Idle, ShuttingDown, 50, 10, NoTime},
		{ShuttingDown, Off, 50, 10, NoTime},
		{Off, Booting, 50, 10, NoTime},
		{Booting, Idle, 50, 50, NoTime},
		{Booting, Off, 50, 10, 50}, // a failed boot
	} {
		n := NodeView{State: tc.from, Since: 10, IdleSince: 10, LastFailed: NoTime}
		n.Enter(tc.to, 50)
		if n.State != tc.to || n.Since != tc.since || n.IdleSince != tc.idleSince || n.LastFailed != tc.lastFailed {
			t.Errorf("%v → %v: %+v", tc.from, tc.to, n)
		}
	}
	f := NewFeatures(10, 0, 2)
	f.NodeChanged(1, Idle, 40) // already idle: keeps its times
	f.NodeChanged(0, Busy, 30)
	if n := f.Node(1); n.Since != 10 || n.IdleSince != 10 || f.Node(0).Since != 30 || f.Now() != 40 {
		t.Errorf("node 1 %+v, node 0 %+v, now %d", n, f.Node(0), f.Now())
	}
}

// TestFeaturesFill: Fill sets what the features own and recounts.
func TestFeaturesFill(t *testing.T) {
	f := NewFeatures(100, 3600, 3)
	f.NodeChanged(0, Busy, 110)
	f.NodeChanged(0, Idle, 150)
	f.NodeChanged(2, ShuttingDown, 120)
	f.NodeChanged(2, Off, 130)
	f.Submitted(Arrival{Time: 140, Slots: 2, ReqTime: 60})
	f.Advance(160)
	g := []Group{{Name: "n", Count: 3, Slots: 2}}
	v := &View{Groups: g, Period: 60, Nodes: []NodeView{{ID: 0, Slots: 2}, {ID: 1, Slots: 2}, {ID: 2, Slots: 2}},
		Queue: []QueuedJob{{ID: 1, Slots: 2, Submit: 140}}}
	f.Fill(v)
	if v.Now != 160 || v.Start != 100 || v.TZOffset != 3600 || len(v.Recent) != 1 {
		t.Errorf("now %d start %d tz %d recent %v", v.Now, v.Start, v.TZOffset, v.Recent)
	}
	if !slices.Equal(v.IdleLRU, []int{1, 0}) || v.EarliestIdle != 100 || v.OffNodes != 1 || v.IdleNodes != 2 || v.PoweredSlots != 4 || v.QueuedSlots != 2 {
		t.Errorf("lru %v earliest %d off %d idle %d powered %d queued %d", v.IdleLRU, v.EarliestIdle, v.OffNodes, v.IdleNodes, v.PoweredSlots, v.QueuedSlots)
	}
	if n := v.Nodes[0]; n.State != Idle || n.Since != 150 || n.IdleSince != 150 || v.Nodes[2].State != Off {
		t.Errorf("nodes %+v", v.Nodes)
	}
}

// feed applies event k of a random stream to f.
func feed(f *Features, rng *rand.Rand, t *int64) {
	*t += rng.Int64N(7200)
	switch rng.IntN(4) {
	case 0, 1:
		f.Submitted(Arrival{Time: *t - rng.Int64N(600), Slots: 1 + rng.IntN(8), ReqTime: 3600})
	case 2:
		f.NodeChanged(rng.IntN(f.Nodes()), NodeState(rng.IntN(5)), *t)
	case 3:
		f.Advance(*t)
	}
}

// TestFeaturesJSONRoundTrip: a Features written and read back continues
// exactly as the original: same Views and same bytes after more events.
func TestFeaturesJSONRoundTrip(t *testing.T) {
	for seed := range uint64(5) {
		rng := rand.New(rand.NewPCG(seed, 3))
		f := NewFeatures(1_000_000, 7200, 6)
		now := int64(1_000_000)
		for range 2000 {
			feed(f, rng, &now)
		}
		data, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		var g Features
		if err := json.Unmarshal(data, &g); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		again, _ := json.Marshal(&g)
		if !bytes.Equal(data, again) {
			t.Fatalf("seed %d: marshal(unmarshal(b)) != b", seed)
		}
		rf, rg := rand.New(rand.NewPCG(seed, 4)), rand.New(rand.NewPCG(seed, 4))
		tf, tg := now, now
		for k := range 2000 {
			feed(f, rf, &tf)
			feed(&g, rg, &tg)
			vf, vg := fillView(f), fillView(&g)
			if vf.Now != vg.Now || vf.HourlySlots != vg.HourlySlots || !slices.Equal(vf.Recent, vg.Recent) ||
				!slices.Equal(vf.Nodes, vg.Nodes) || !slices.Equal(vf.IdleLRU, vg.IdleLRU) || vf.EarliestIdle != vg.EarliestIdle {
				t.Fatalf("seed %d: event %d after the round trip: views differ", seed, k)
			}
		}
		a, _ := json.Marshal(f)
		b, _ := json.Marshal(&g)
		if !bytes.Equal(a, b) || !bytes.Contains(a, []byte(`"version":1`)) {
			t.Errorf("seed %d: the states differ after the same events", seed)
		}
	}
}

func fillView(f *Features) *View {
	v := &View{Groups: []Group{{Name: "n", Count: f.Nodes(), Slots: 1}}}
	for i := range f.Nodes() {
		v.Nodes = append(v.Nodes, NodeView{ID: i, Slots: 1})
	}
	f.Fill(v)
	return v
}

// TestFeaturesJSONErrors: bad state files are refused, naming the field,
// and leave the Features as it was.
func TestFeaturesJSONErrors(t *testing.T) {
	f := NewFeatures(100, 0, 1)
	f.Submitted(Arrival{Time: 150, Slots: 2})
	good, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ old, new, want string }{
		{`"version":1`, `"version":2`, "version"},
		{`"version":1`, `"version":1,"extra":0`, "extra"},
		{`"state":"idle"`, `"state":"asleep"`, "nodes[0].state"},
		{`"now":150`, `"now":50`, "now"},
		{`"slots":2`, `"slots":0`, "recent[0]"},
		{`"idle_since":100`, `"idle_since":900`, "nodes[0]"},
	} {
		bad := strings.Replace(string(good), tc.old, tc.new, 1)
		if bad == string(good) {
			t.Fatalf("%q not in %s", tc.old, good)
		}
		g := NewFeatures(100, 0, 1)
		g.Submitted(Arrival{Time: 150, Slots: 2})
		err := json.Unmarshal([]byte(bad), g)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one naming %q", tc.new, err, tc.want)
		}
		if after, _ := json.Marshal(g); !bytes.Equal(after, good) {
			t.Errorf("%s: the features changed on error", tc.new)
		}
	}
	var g Features
	err = g.UnmarshalJSON([]byte(`{"version":9}`))
	if !errors.Is(err, errFeaturesVersion) {
		t.Errorf("version 9: %v", err)
	}
}
