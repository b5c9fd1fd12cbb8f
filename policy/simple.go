package policy

import "math"

// Policies that switch idle nodes off by a simple per-node or per-cluster
// test and boot on demand. All keep the queue covered: they never switch
// off a node whose slots the queued jobs need.

// offIfFree appends a power-off of idle node i at level to d if the free
// slots left still cover the queue, and returns the free slots left.
func offIfFree(v *View, d *Decision, i, level, free int) int {
	if free-v.Nodes[i].Slots < v.QueuedSlots {
		return free
	}
	d.PowerOff = append(d.PowerOff, NodeCommand{Node: i, Level: level})
	return free - v.Nodes[i].Slots
}

// randomOff switches each idle node off with probability p, decided once
// per idle period: node i idle since t goes off iff a hash of (seed, i, t)
// falls below p, so the decision is pure and stable over the idle period.
// Boots on demand.
//
// Source: the random baseline of DCworms (Kurowski, Oleksiak, Piątek,
// Piontek, Przybyszewski, Węglarz, "DCworms – a tool for simulation of
// energy efficiency in distributed computing infrastructures", Simulation
// Modelling Practice and Theory 39, 2013: "random + switching off unused
// nodes").
type randomOff struct {
	p    float64
	seed uint64
}

func randomSpec() Spec {
	return withCheck(Spec{
		Name:   "random",
		Doc:    "each idle period, switch the node off with probability p (seeded); boot on demand",
		Source: "random baseline of DCworms (Kurowski et al., Simulation Modelling Practice and Theory 39, 2013)",
		Params: []Param{{Name: "p", Unit: "probability", Doc: "chance that an idle node is switched off", Min: 0, Max: 1, Default: 0.5}},
	}, func(c Config) (Policy, error) { return &randomOff{p: c.Params["p"], seed: uint64(c.Seed)}, nil })
}

func (p *randomOff) Name() string { return "random" }

func (p *randomOff) Decide(v *View, d *Decision) {
	if need := queueDeficit(v); need > 0 {
		bootInOrder(v, d, nil, need, 0, -1)
		return
	}
	if v.IdleNodes == 0 {
		return
	}
	free := freeSlots(v)
	for i := range v.Nodes {
		n := &v.Nodes[i]
		if n.State == Idle && unitHash(p.seed, uint64(i), uint64(n.IdleSince)) < p.p {
			free = offIfFree(v, d, i, 0, free)
		}
	}
}

// unitHash maps its arguments to [0, 1) (SplitMix64 finaliser rounds).
func unitHash(xs ...uint64) float64 {
	h := uint64(0x9e3779b97f4a7c15)
	for _, x := range xs {
		h ^= x
		h += 0x9e3779b97f4a7c15
		h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9
		h = (h ^ (h >> 27)) * 0x94d049bb133111eb
		h ^= h >> 31
	}
	return float64(h>>11) / (1 << 53)
}

// loadOff decides at each job end: the nodes a job freed stay idle if the
// cluster load is at least threshold, else they are switched off. In View
// terms, idle nodes that became idle since the previous decision cycle
// (IdleSince > Now − Period) are switched off when busy ÷ total slots is
// below threshold; nodes left idle stay on until used again. Boots on
// demand.
//
// Source: Pinheiro, Bianchini, Carrera, Heath, "Load balancing and
// unbalancing for power and performance in cluster-based systems",
// Workshop on Compilers and Operating Systems for Low Power, 2001.
//
// Wake: when the freshly idle nodes stop being fresh (IdleSince + Period).
type loadOff struct{ threshold float64 }

func loadSpec() Spec {
	return withCheck(Spec{
		Name:   "load",
		Doc:    "at each job end, freed nodes stay idle if load ≥ threshold, else off; boot on demand",
		Source: "Pinheiro, Bianchini, Carrera, Heath, \"Load balancing and unbalancing for power and performance in cluster-based systems\", COLP 2001",
		Params: []Param{{Name: "threshold", Unit: "fraction", Doc: "busy ÷ total slots at or above which freed nodes stay on", Min: 0, Max: 1, Default: 0.5}},
	}, func(c Config) (Policy, error) { return &loadOff{threshold: c.Params["threshold"]}, nil })
}

func (p *loadOff) Name() string { return "load" }

func (p *loadOff) Decide(v *View, d *Decision) {
	if need := queueDeficit(v); need > 0 {
		bootInOrder(v, d, nil, need, 0, -1)
		return
	}
	if v.IdleNodes == 0 {
		return
	}
	low := v.TotalSlots > 0 && float64(v.BusySlots) < p.threshold*float64(v.TotalSlots)
	period := max(v.Period, 1)
	free := freeSlots(v)
	for i := range v.Nodes {
		n := &v.Nodes[i]
		if n.State != Idle || n.IdleSince <= v.Now-period {
			continue
		}
		d.Wake = earliest(d.Wake, n.IdleSince+period)
		if low {
			free = offIfFree(v, d, i, 0, free)
		}
	}
}

// bestFit puts idle nodes to sleep at a depth chosen by the cluster usage
// rate u = busy ÷ total slots: below low, power-off (level 0); from low to
// high, the deepest sleep level of the node's model; from high up, the
// shallowest. A model without sleep levels degrades to power-off at every
// rate. Nodes go to sleep once idle for min_idle seconds, and only when the
// queue does not need their slots. Boots on demand.
//
// Source: the best-fit sleep-state selection of ecotune issue 4
// (thresholds 30 % and 50 %), after the reserve pools of sleep depths in
// "Self-adaptive management of the sleep depths of idle nodes in large
// scale systems to balance between energy consumption and response times"
// (the paper that introduced the policy could not be located; the
// thresholds are the issue's, tunable).
//
// Wake: an idle node reaching min_idle.
type bestFit struct {
	low, high float64
	minIdle   int64
}

func bestFitSpec() Spec {
	return withCheck(Spec{
		Name: "best-fit",
		Doc:  "idle nodes to standby, hibernate or power-off by cluster usage rate; without sleep levels, power-off",
		Source: "best-fit sleep-depth selection by usage rate (thresholds of ecotune issue 4), after \"Self-adaptive management " +
			"of the sleep depths of idle nodes in large scale systems to balance between energy consumption and response times\"",
		Params: []Param{
			{Name: "low", Unit: "fraction", Doc: "usage rate below which idle nodes power off", Min: 0, Max: 1, Default: 0.3},
			{Name: "high", Unit: "fraction", Doc: "usage rate from which idle nodes only take the shallowest sleep", Min: 0, Max: 1, Default: 0.5},
			{Name: "min_idle", Unit: "s", Doc: "idle time before a node sleeps", Min: 0, Max: 86400, Default: 0, Integer: true},
		},
	}, func(c Config) (Policy, error) {
		return &bestFit{low: c.Params["low"], high: math.Max(c.Params["low"], c.Params["high"]), minIdle: int64(c.Params["min_idle"])}, nil
	})
}

func (p *bestFit) Name() string { return "best-fit" }

// level is the sleep level for a node of model m at usage rate u.
func (p *bestFit) level(m *NodeModel, u float64) int {
	switch n := len(m.SleepLevels); {
	case u < p.low || n == 0:
		return 0
	case u < p.high:
		return n
	default:
		return 1
	}
}

func (p *bestFit) Decide(v *View, d *Decision) {
	if need := queueDeficit(v); need > 0 {
		bootInOrder(v, d, nil, need, 0, -1)
		return
	}
	u := 0.0
	if v.TotalSlots > 0 {
		u = float64(v.BusySlots) / float64(v.TotalSlots)
	}
	if v.IdleNodes == 0 {
		return
	}
	free := freeSlots(v)
	for i := range v.Nodes {
		n := &v.Nodes[i]
		if n.State != Idle {
			continue
		}
		if due := n.IdleSince + p.minIdle; due > v.Now {
			d.Wake = earliest(d.Wake, due)
			continue
		}
		free = offIfFree(v, d, i, p.level(&v.Groups[n.Group].Model, u), free)
	}
}
