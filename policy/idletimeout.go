package policy

// idleTimeout switches a node off once it has been idle for a timeout,
// keeps a number of spare idle nodes on, and boots nodes on demand.
//
// Source: Slurm power saving (SuspendTime, SuspendRate/ResumeRate,
// https://slurm.schedmd.com/power_save.html) and CLUES (IDLE_TIME,
// de Alfonso et al., "An energy management system for cluster
// infrastructures", Computers & Electrical Engineering 39(8), 2013).
//
// Each decision:
//   - Boot on demand: boot Off nodes (in node-ID order) until the queued
//     slots are covered by free slots (idle, or on booting nodes), and
//     until at least spare nodes are idle or booting; never more than
//     max_booting nodes booting at once (0: no limit).
//   - Switch off: idle nodes idle for at least idle_timeout seconds,
//     least recently used first, as long as spare idle nodes stay on and
//     the free slots left still cover the queued slots.
//
// Wake: the earliest IdleSince + idle_timeout of an idle node after now.
type idleTimeout struct {
	timeout int64
	spare   int
	maxBoot int // 0: no limit
}

func idleTimeoutSpec() Spec {
	return withCheck(Spec{
		Name: "idle-timeout",
		Doc:  "off after idle_timeout seconds idle; spare idle nodes kept on; at most max_booting booting; boot on demand",
		Source: "Slurm power saving (SuspendTime, ResumeRate); CLUES IDLE_TIME (de Alfonso et al., " +
			"Computers & Electrical Engineering 39(8), 2013)",
		Params: []Param{
			{Name: "idle_timeout", Unit: "s", Doc: "idle time before a node is switched off", Min: 60, Max: 86400, Default: 1800, Integer: true, Log: true},
			{Name: "spare", Unit: "nodes", Doc: "idle nodes always kept on", Min: 0, Max: 256, Default: 0, Integer: true},
			{Name: "max_booting", Unit: "nodes", Doc: "most nodes booting at once (0: no limit)", Min: 0, Max: 1024, Default: 0, Integer: true},
		},
	}, func(c Config) (Policy, error) {
		return &idleTimeout{
			timeout: int64(c.Params["idle_timeout"]),
			spare:   int(c.Params["spare"]),
			maxBoot: int(c.Params["max_booting"]),
		}, nil
	})
}

func (p *idleTimeout) Name() string {
	if p.timeout == 0 && p.spare == 0 && p.maxBoot == 0 {
		return "always-off"
	}
	return "idle-timeout"
}

// Quiet is true when no node is idle (none to switch off, no timeout to
// wake for) and none would boot: none is off, or the free slots cover
// the queue and the spare nodes are booting.
func (p *idleTimeout) Quiet(v *View) bool {
	return v.IdleNodes == 0 && (v.OffNodes == 0 || queueDeficit(v) == 0 && p.spare <= v.BootingNodes)
}

func (p *idleTimeout) Decide(v *View, d *Decision) {
	if n := p.boot(v, d); n > 0 {
		return // booting: nothing is switched off in the same decision
	}
	p.switchOff(v, d)
}

// boot boots on demand and returns the number of nodes booted.
func (p *idleTimeout) boot(v *View, d *Decision) int {
	if v.OffNodes == 0 {
		return 0
	}
	limit := -1
	if p.maxBoot > 0 {
		limit = max(0, p.maxBoot-v.BootingNodes)
	}
	short := max(0, p.spare-v.IdleNodes-v.BootingNodes)
	return bootInOrder(v, d, nil, queueDeficit(v), short, limit)
}

// switchOff switches off the idle nodes that are due, least recently used
// first: a prefix of v.IdleLRU.
func (p *idleTimeout) switchOff(v *View, d *Decision) {
	free := freeSlots(v)
	kept := v.IdleNodes
	due, next := dueIdle(v, p.timeout)
	d.Wake = earliest(d.Wake, next)
	for _, i := range due {
		// Every node has a slot at least: once the free slots beyond the
		// queue are gone, no later node can go either.
		if kept <= p.spare || free-1 < v.QueuedSlots {
			return // no more can go
		}
		n := &v.Nodes[i]
		if free-n.Slots < v.QueuedSlots {
			continue
		}
		d.PowerOff = append(d.PowerOff, NodeCommand{Node: i})
		free -= n.Slots
		kept--
	}
}
