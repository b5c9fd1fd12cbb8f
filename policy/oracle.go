package policy

import (
	"cmp"
	"slices"
	"sort"
)

// demandCurve is the always-on demand D(t): the slots of the jobs running
// at t (Start ≤ t < max(End, Start+1)) when every job starts as under
// always-on.
type demandCurve struct {
	times []int64 // change points, ascending
	vals  []int   // D on [times[i], times[i+1])
}

func newDemandCurve(jobs []FutureJob) demandCurve {
	type change struct {
		t     int64
		delta int
	}
	var cs []change
	for _, j := range jobs {
		if j.Slots > 0 { // a zero-length job still needs its slots at its start
			cs = append(cs, change{j.Start, j.Slots}, change{max(j.End, j.Start+1), -j.Slots})
		}
	}
	slices.SortFunc(cs, func(a, b change) int { return cmp.Compare(a.t, b.t) })
	var c demandCurve
	d := 0
	for _, x := range cs {
		d += x.delta
		if n := len(c.times); n > 0 && c.times[n-1] == x.t {
			c.vals[n-1] = d
			continue
		}
		c.times = append(c.times, x.t)
		c.vals = append(c.vals, d)
	}
	return c
}

// index returns the index of the last change point at or before t, or −1.
func (c *demandCurve) index(t int64) int {
	return sort.Search(len(c.times), func(i int) bool { return c.times[i] > t }) - 1
}

// maxOver returns max D(t) for t in [a, b].
func (c *demandCurve) maxOver(a, b int64) int {
	i := c.index(a)
	m := 0
	if i >= 0 {
		m = c.vals[i]
	}
	for i++; i < len(c.times) && c.times[i] <= b; i++ {
		m = max(m, c.vals[i])
	}
	return m
}

// firstAbove returns the first t in [a, b] with D(t) > x, or NoTime.
func (c *demandCurve) firstAbove(a, b int64, x int) int64 {
	i := c.index(a)
	if i >= 0 && c.vals[i] > x {
		return a
	}
	for i++; i < len(c.times) && c.times[i] <= b; i++ {
		if c.vals[i] > x {
			return c.times[i]
		}
	}
	return NoTime
}

// nextChange returns the first change point after t, or NoTime.
func (c *demandCurve) nextChange(t int64) int64 {
	if i := c.index(t) + 1; i < len(c.times) {
		return c.times[i]
	}
	return NoTime
}

// windowWake is when max D over [t, t+w] can first change for t > now:
// the left end passing a change point or the right end reaching one.
func (c *demandCurve) windowWake(now, w int64) int64 {
	wake := c.nextChange(now)
	if r := c.nextChange(now + w); r != NoTime {
		wake = earliest(wake, later(now, r-w))
	}
	return wake
}

// oracle knows the whole trace and keeps every job's always-on start: it
// keeps powered (booting included) at least the always-on demand over the
// next boot time plus one cycle, booting nodes just in time, and switches
// idle nodes off (least recently used first) beyond the demand over the
// next H plus one cycle, H = max(Ts, shutdown + boot time) of the slowest
// group: no node goes off for a gap too short to save energy or to come
// back in time. Booting nodes do not count as kept capacity (they might
// come too late). The queue itself is not a reason to boot — under
// always-on, queued jobs wait for running ones — unless nothing runs or
// boots (the run has left the always-on schedule). The extra cycle
// absorbs the decision period: commands take effect at the cycle, not
// the second. A bound for reports, never deployable.
//
// Source: the clairvoyant lower bound of dynamic power management
// (Benini, Bogliolo, De Micheli, IEEE TVLSI 8(3), 2000), on the always-on
// schedule as in EECluster's evaluation (Cocaña-Fernández et al., 2015).
//
// Wake: when the windowed maxima of the demand can change.
type oracle struct {
	demand demandCurve
}

func oracleSpec() Spec {
	return withCheck(Spec{
		Name:        "oracle",
		Doc:         "clairvoyant bound: nodes powered just in time for the always-on schedule, off over gaps beyond max(Ts, shutdown+boot)",
		Source:      "clairvoyant bound of dynamic power management (Benini et al., IEEE TVLSI 8(3), 2000) on the always-on schedule",
		Clairvoyant: true,
	}, func(Config) (Policy, error) { return &oracle{}, nil })
}

func (p *oracle) Name() string { return "oracle" }

// SetFuture gives the oracle every job with its always-on start and end.
func (p *oracle) SetFuture(jobs []FutureJob) { p.demand = newDemandCurve(jobs) }

// horizons returns the boot and switch-off look-aheads of v's cluster.
func horizons(v *View) (boot, off int64) {
	for i := range v.Groups {
		m := &v.Groups[i].Model
		boot = max(boot, m.BootS)
		off = max(off, m.ShutdownS+m.BootS, int64(m.BreakEven()+0.5))
	}
	period := max(v.Period, 1)
	return boot + period, off + period
}

func (p *oracle) Decide(v *View, d *Decision) {
	bootLook, offLook := horizons(v)
	d.Wake = earliest(p.demand.windowWake(v.Now, bootLook), p.demand.windowWake(v.Now, offLook))
	need := p.demand.maxOver(v.Now, v.Now+bootLook) - v.PoweredSlots
	if need <= 0 && v.BusySlots == 0 && v.BootingSlots == 0 {
		need = queueDeficit(v) // off the always-on schedule with nothing to free slots
	}
	if need > 0 {
		bootInOrder(v, d, nil, need, 0, -1)
		return
	}
	// Booting slots are not counted as kept capacity: they may come too
	// late; once idle they go off if in excess.
	keep := max(p.demand.maxOver(v.Now, v.Now+offLook), v.BusySlots+v.QueuedSlots)
	excess := v.PoweredSlots - v.BootingSlots - keep
	for _, i := range v.IdleLRU {
		if s := v.Nodes[i].Slots; s <= excess {
			d.PowerOff = append(d.PowerOff, NodeCommand{Node: i})
			excess -= s
		}
	}
}

// breakEvenOracle is break-even with a clairvoyant prediction: it knows
// when each idle node is next needed — the first time the always-on demand
// exceeds the capacity ranked before the node (powered slots not on idle
// nodes, then idle nodes most recently used first) — and switches the
// node off when that is more than Ts away. Boots on demand. A bound,
// never deployable.
//
// Source: the clairvoyant break-even policy of dynamic power management
// (Benini, Bogliolo, De Micheli, IEEE TVLSI 8(3), 2000).
//
// Wake: when the demand within the next Ts can change.
type breakEvenOracle struct {
	demand demandCurve
	order  []int
}

func breakEvenOracleSpec() Spec {
	return withCheck(Spec{
		Name:        "break-even-oracle",
		Doc:         "clairvoyant break-even: off when the node's next use (known) is more than Ts away",
		Source:      "clairvoyant break-even policy (Benini, Bogliolo, De Micheli, IEEE TVLSI 8(3), 2000)",
		Clairvoyant: true,
	}, func(Config) (Policy, error) { return &breakEvenOracle{}, nil })
}

func (p *breakEvenOracle) Name() string { return "break-even-oracle" }

// SetFuture gives the policy every job with its always-on start and end.
func (p *breakEvenOracle) SetFuture(jobs []FutureJob) { p.demand = newDemandCurve(jobs) }

func (p *breakEvenOracle) Decide(v *View, d *Decision) {
	for i := range v.Groups {
		ts := int64(v.Groups[i].Model.BreakEven())
		d.Wake = earliest(d.Wake, p.demand.windowWake(v.Now, ts))
	}
	if need := queueDeficit(v); need > 0 {
		bootInOrder(v, d, nil, need, 0, -1)
		return
	}
	p.order = recentFirst(v, p.order)
	before := v.PoweredSlots
	for _, i := range p.order {
		before -= v.Nodes[i].Slots
	}
	for _, i := range p.order {
		n := &v.Nodes[i]
		ts := int64(v.Groups[n.Group].Model.BreakEven())
		if p.demand.firstAbove(v.Now, v.Now+ts, before) == NoTime && before >= v.QueuedSlots {
			d.PowerOff = append(d.PowerOff, NodeCommand{Node: i})
		}
		before += n.Slots
	}
}
