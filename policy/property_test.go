package policy

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// Properties every policy must have, checked on random Views: commands
// only for nodes in the right state, each node at most once; purity (the
// same View gives the same Decision, from a reused value and a fresh one);
// an honest Wake (the decision does not change at any time before it);
// and no allocation in steady state.

// randomView makes a consistent random View at time now.
func randomView(rng *rand.Rand, now int64) *View {
	groups := []Group{
		{Name: "a", Slots: 1 + rng.IntN(4), GFLOPS: 100, Model: escsModel},
		{Name: "b", Slots: 1 + rng.IntN(4), GFLOPS: 300, Model: escsModel},
	}
	groups[1].Model.SleepLevels = []SleepLevel{
		{Name: "standby", W: 10, EnterS: 5, EnterWh: 0.1, ExitS: 10, ExitWh: 0.2},
		{Name: "hibernate", W: 5, EnterS: 60, EnterWh: 1, ExitS: 120, ExitWh: 2},
	}
	groups[1].Model.Freqs = []FreqLevel{{Name: "2.4GHz", SlotW: 20, Speed: 1}, {Name: "1.8GHz", SlotW: 12, Speed: 0.75}, {Name: "1.2GHz", SlotW: 8, Speed: 0.5}}
	v := &View{Now: now, Start: now - 30*86400, Period: 60, TZOffset: 3600 * (rng.IntN(5) - 2), Groups: groups}
	n := 1 + rng.IntN(12)
	perm := rng.Perm(n) // host names not in ID order
	for i := range n {
		g := rng.IntN(2)
		nv := NodeView{
			ID: i, Name: fmt.Sprintf("n%02d", perm[i]), Group: g, State: NodeState(rng.IntN(5)),
			Since: now - rng.Int64N(8000), Slots: groups[g].Slots, LastFailed: NoTime, IdleSince: NoTime,
		}
		switch nv.State {
		case Idle:
			nv.IdleSince = nv.Since
		case Busy:
			nv.BusySlots = 1 + rng.IntN(nv.Slots)
		case Off:
			if g == 1 {
				nv.SleepLevel = rng.IntN(3)
			}
		}
		if nv.State != Off && g == 1 {
			nv.Freq = rng.IntN(len(groups[g].Model.Freqs))
		}
		if rng.IntN(4) == 0 {
			nv.LastFailed = now - rng.Int64N(10000)
		}
		groups[g].Count++
		v.Nodes = append(v.Nodes, nv)
	}
	for i := range v.Nodes {
		if v.Nodes[i].State == Busy {
			v.Running = append(v.Running, RunningJob{
				ID: int64(i), Slots: v.Nodes[i].BusySlots, Start: v.Nodes[i].Since,
				ReqTime: 60 + rng.Int64N(20000), Nodes: []int{i},
			})
		}
	}
	v.Recount()
	for range rng.IntN(6) {
		v.Queue = append(v.Queue, QueuedJob{
			ID: rng.Int64(), Slots: 1 + rng.IntN(v.TotalSlots), Submit: now - rng.Int64N(8000),
			ReqTime: 60 + rng.Int64N(20000), User: "u", Group: []string{"g1", "g2", ""}[rng.IntN(3)],
		})
	}
	t := now - rng.Int64N(40000)
	for range rng.IntN(60) {
		t += rng.Int64N(1200)
		if t > now {
			break
		}
		v.Recent = append(v.Recent, Arrival{Time: t, Slots: 1 + rng.IntN(v.TotalSlots), ReqTime: 60 + rng.Int64N(20000)})
	}
	for h := range v.HourlySlots {
		v.HourlySlots[h] = rng.Float64() * float64(v.TotalSlots)
	}
	v.Recount()
	return v
}

// randomFuture makes future jobs around now for clairvoyant policies.
func randomFuture(rng *rand.Rand, now int64, slots int) []FutureJob {
	var jobs []FutureJob
	t := now - 20000
	for range 200 {
		t += rng.Int64N(900)
		start := t + rng.Int64N(600)
		jobs = append(jobs, FutureJob{Submit: t, Start: start, End: start + rng.Int64N(7200), Slots: 1 + rng.IntN(slots)})
	}
	return jobs
}

func checkCommands(t *testing.T, v *View, d Decision) {
	t.Helper()
	seen := map[int]bool{}
	for _, i := range d.PowerOn {
		if i < 0 || i >= len(v.Nodes) || v.Nodes[i].State != Off || seen[i] {
			t.Fatalf("power on node %d (state %v) twice or not off: %+v", i, v.Nodes[min(max(i, 0), len(v.Nodes)-1)].State, d)
		}
		seen[i] = true
	}
	for _, c := range d.PowerOff {
		i := c.Node
		if i < 0 || i >= len(v.Nodes) || v.Nodes[i].State != Idle || seen[i] {
			t.Fatalf("power off node %d twice or not idle: %+v", i, d)
		}
		if c.Level < 0 || c.Level > len(v.Groups[v.Nodes[i].Group].Model.SleepLevels) {
			t.Fatalf("node %d: sleep level %d out of range", i, c.Level)
		}
		seen[i] = true
	}
	for _, f := range d.Freq {
		if f.Node < 0 || f.Node >= len(v.Nodes) || f.Level < 0 || f.Level >= max(1, len(v.Groups[v.Nodes[f.Node].Group].Model.Freqs)) {
			t.Fatalf("bad frequency command %+v", f)
		}
	}
	if d.Wake != NoTime && d.Wake <= v.Now {
		t.Fatalf("wake %d not after now %d", d.Wake, v.Now)
	}
}

func sameCommands(a, b Decision) bool {
	return slices.Equal(a.PowerOn, b.PowerOn) && slices.Equal(a.PowerOff, b.PowerOff) && slices.Equal(a.Freq, b.Freq)
}

// newForTest makes the policy of spec with default parameters, told the
// future if it is clairvoyant.
func newForTest(t *testing.T, s Spec, future []FutureJob) Policy {
	t.Helper()
	p, err := s.New(s.Defaults())
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := p.(Clairvoyant); ok {
		c.SetFuture(future)
	} else if s.Clairvoyant {
		t.Fatalf("%s: declared clairvoyant but lacks SetFuture", s.Name)
	}
	return p
}

func TestPolicyProperties(t *testing.T) {
	for _, s := range All() {
		t.Run(s.Name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, uint64(len(s.Name))))
			const now = 1_000_000_000
			future := randomFuture(rng, now, 8)
			p, fresh := newForTest(t, s, future), newForTest(t, s, future)
			for range 300 {
				v := randomView(rng, now+rng.Int64N(86400))
				d := decide(p, v)
				checkCommands(t, v, d)
				if d2, d3 := decide(p, v), decide(fresh, v); !sameCommands(d, d2) || d.Wake != d2.Wake || !sameCommands(d, d3) || d.Wake != d3.Wake {
					t.Fatalf("not pure at %d:\n%+v\n%+v\n%+v", v.Now, d, d2, d3)
				}
				checkWake(t, p, v, d, rng)
				checkPlace(t, p, v, rng)
			}
		})
	}
}

// checkWake asserts that at times before d.Wake (or any time, for NoTime)
// the same View gives the same commands.
func checkWake(t *testing.T, p Policy, v *View, d Decision, rng *rand.Rand) {
	t.Helper()
	now, horizon := v.Now, v.Now+10*86400
	if d.Wake != NoTime {
		horizon = d.Wake - 1
	}
	times := []int64{now + 1, horizon}
	for range 4 {
		times = append(times, now+rng.Int64N(horizon-now+1))
	}
	defer func() { v.Now = now }()
	for _, at := range times {
		if at <= now {
			continue
		}
		v.Now = at
		if got := decide(p, v); !sameCommands(got, d) {
			t.Fatalf("decision changed at %d before wake %d (now %d):\nat now: %+v\nlater:  %+v", at, d.Wake, now, d, got)
		}
	}
}

func TestPolicyNoAllocation(t *testing.T) {
	for _, s := range All() {
		t.Run(s.Name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(2, 3))
			const now = 1_000_000_000
			p := newForTest(t, s, randomFuture(rng, now, 8))
			views := make([]*View, 50)
			for i := range views {
				views[i] = randomView(rng, now+rng.Int64N(86400))
			}
			var d Decision
			d.PowerOn = make([]int, 0, 64)
			d.PowerOff = make([]NodeCommand, 0, 64)
			d.Freq = make([]FreqCommand, 0, 64)
			for _, v := range views { // warm up the scratch buffers
				d.Reset()
				p.Decide(v, &d)
			}
			allocs := testing.AllocsPerRun(5, func() {
				for _, v := range views {
					d.Reset()
					p.Decide(v, &d)
				}
			})
			if allocs != 0 {
				t.Errorf("%v allocations per 50 decisions; want 0", allocs)
			}
		})
	}
}

// checkPlace asserts that a Placer only reorders the candidates.
func checkPlace(t *testing.T, p Policy, v *View, rng *rand.Rand) {
	t.Helper()
	pl, ok := p.(Placer)
	if !ok {
		return
	}
	cands := rng.Perm(len(v.Nodes))
	before := slices.Clone(cands)
	pl.Place(v, &QueuedJob{Slots: 1}, cands)
	slices.Sort(cands)
	slices.Sort(before)
	if !slices.Equal(cands, before) {
		t.Fatalf("Place changed the candidate set")
	}
}

// TestQuiet checks every policy.Quiet on random Views, half of them with
// the idle nodes made busy: whenever Quiet says so, Decide appends no
// command and leaves Wake at NoTime; Quiet does not read IdleLRU or
// EarliestIdle (it answers the same with them cleared).
func TestQuiet(t *testing.T) {
	for _, s := range All() {
		rng := rand.New(rand.NewPCG(4, uint64(len(s.Name))))
		const now = 1_000_000_000
		p := newForTest(t, s, randomFuture(rng, now, 8))
		q, ok := p.(Quiet)
		if !ok {
			continue
		}
		t.Run(s.Name, func(t *testing.T) {
			quiet := 0
			for k := range 600 {
				v := randomView(rng, now+rng.Int64N(86400))
				if k%2 == 1 {
					for i := range v.Nodes {
						if n := &v.Nodes[i]; n.State == Idle {
							n.State, n.BusySlots = Busy, 1
						}
					}
					v.Recount()
				}
				if k%3 == 0 {
					v.Queue = v.Queue[:0]
					v.Recount()
				}
				w := *v
				w.IdleLRU, w.EarliestIdle = nil, -7
				got := q.Quiet(v)
				if q.Quiet(&w) != got {
					t.Fatalf("Quiet reads IdleLRU or EarliestIdle: %+v", v)
				}
				w.Now += 1 + rng.Int64N(86400)
				if got && !q.Quiet(&w) {
					t.Fatalf("Quiet at %d, not at %d: %+v", v.Now, w.Now, v)
				}
				if !got {
					continue
				}
				quiet++
				if d := decide(p, v); len(d.PowerOn)+len(d.PowerOff)+len(d.Freq) > 0 || d.Wake != NoTime {
					t.Fatalf("quiet, but Decide gives %+v on %+v", d, v)
				}
			}
			if quiet == 0 {
				t.Fatalf("no view quiet: the test tests nothing")
			}
			t.Logf("%d views of 600 quiet", quiet)
		})
	}
}
