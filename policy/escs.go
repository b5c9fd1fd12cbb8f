package policy

import (
	"cmp"
	"slices"
	"strings"
)

// escs is the rule set of the Energy-Saving Cluster daemon (cherub).
//
// Source: Kiertscher, Zinke, Gasterstädt, Schnor, "Cherub: power
// consumption aware cluster resource management", IEEE/ACM GreenCom 2010,
// and Kiertscher, Zinke, Schnor, Cluster Computing 16(1):55–63, 2013.
//
// Each decision, with the queued jobs of each user group that has
// thresholds of its own (NAME@GROUP overrides; QueuedJob.Group) compared
// with them, and the jobs of every other group pooled and compared with
// the defaults:
//   - Power on (host-name order): the nodes a queued job lacks (the queued
//     slots beyond the free slots); else one node if some group's mean
//     wait exceeds its wait_on or it has more than queue_max jobs queued.
//   - Otherwise power off, if every group's mean wait is below its
//     wait_off (an empty queue waits 0): one idle node idle for longer
//     than idle_off, least recently used first, and not one the queue
//     needs.
//
// Wake: a group's mean wait crossing wait_on or wait_off, an idle node
// passing idle_off; after powering one node off, the next cycle.
type escs struct {
	def    escsLimits
	groups map[string]escsLimits // per-group overrides, defaults filled
	seen   []escsGroup           // scratch: groups of the queue
	order  []int
}

type escsLimits struct {
	waitOn, waitOff float64
	queueMax        int
	idleOff         int64
}

type escsGroup struct {
	name string
	w    queueWait
}

func escsSpec() Spec {
	return withCheck(Spec{
		Name: "escs",
		Doc:  "ESCS/cherub: on when a job lacks nodes, the mean wait or queue length is high; off after idle_off while the wait is low; per user group",
		Source: "Kiertscher, Zinke, Gasterstädt, Schnor, \"Cherub: power consumption aware cluster resource management\", " +
			"GreenCom 2010; Cluster Computing 16(1), 2013",
		Params: []Param{
			{Name: "wait_on", Unit: "s", Doc: "power on one node when a group's mean wait exceeds this", Min: 60, Max: 86400, Default: 1800, Log: true, PerGroup: true},
			{Name: "queue_max", Unit: "jobs", Doc: "power on one node when a group has more jobs than this queued", Min: 1, Max: 1000, Default: 16, Integer: true, Log: true, PerGroup: true},
			{Name: "wait_off", Unit: "s", Doc: "power off only while every group's mean wait is below this", Min: 0, Max: 86400, Default: 600, PerGroup: true},
			{Name: "idle_off", Unit: "s", Doc: "idle time before a node may be switched off", Min: 60, Max: 86400, Default: 1800, Integer: true, Log: true},
		},
	}, newESCS)
}

func newESCS(c Config) (Policy, error) {
	p := &escs{groups: map[string]escsLimits{}}
	p.def = escsLimits{waitOn: c.Params["wait_on"], waitOff: c.Params["wait_off"],
		queueMax: int(c.Params["queue_max"]), idleOff: int64(c.Params["idle_off"])}
	for k, x := range c.Params {
		name, group, ok := strings.Cut(k, GroupSep)
		if !ok {
			continue
		}
		l, found := p.groups[group]
		if !found {
			l = p.def
		}
		switch name {
		case "wait_on":
			l.waitOn = x
		case "wait_off":
			l.waitOff = x
		case "queue_max":
			l.queueMax = int(x)
		}
		p.groups[group] = l
	}
	return p, nil
}

func (p *escs) Name() string { return "escs" }

func (p *escs) limits(group string) escsLimits {
	if l, ok := p.groups[group]; ok {
		return l
	}
	return p.def
}

func (p *escs) Decide(v *View, d *Decision) {
	p.groupQueue(v)
	on, offOK := false, true
	for _, g := range p.seen {
		l := p.limits(g.name)
		on = on || g.w.above(v.Now, l.waitOn) || g.w.n > l.queueMax
		offOK = offOK && g.w.below(v.Now, l.waitOff)
		d.Wake = earliest(d.Wake, earliest(g.w.crossing(v.Now, l.waitOn), g.w.crossing(v.Now, l.waitOff)))
	}
	if need := queueDeficit(v); need > 0 || on {
		extra := 0
		if need == 0 {
			extra = 1
		}
		p.order = nameOrder(v, p.order)
		if bootInOrder(v, d, p.order, need, extra, -1) > 0 {
			return
		}
	}
	if len(p.seen) == 0 {
		offOK = queueWait{}.below(v.Now, p.def.waitOff) // an empty queue waits 0
	}
	if !offOK {
		return
	}
	free := freeSlots(v)
	due, next := dueIdle(v, p.def.idleOff+1) // idle for longer than idle_off
	for _, i := range due {
		if free-v.Nodes[i].Slots >= v.QueuedSlots {
			d.PowerOff = append(d.PowerOff, NodeCommand{Node: i})
			d.Wake = earliest(d.Wake, v.Now+max(v.Period, 1))
			return
		}
	}
	d.Wake = earliest(d.Wake, next)
}

// groupQueue sums the queue into p.seen: one pool per user group with
// thresholds of its own (NAME@GROUP), in order of first appearance, and
// one pool (named "") for every other job, compared with the defaults.
func (p *escs) groupQueue(v *View) {
	p.seen = p.seen[:0]
	if len(p.groups) == 0 {
		if w := waitOf(v); w.n > 0 {
			p.seen = append(p.seen, escsGroup{w: w})
		}
		return
	}
	for i := range v.Queue {
		q := &v.Queue[i]
		name := q.Group
		if _, own := p.groups[name]; !own {
			name = ""
		}
		k := 0
		for k < len(p.seen) && p.seen[k].name != name {
			k++
		}
		if k == len(p.seen) {
			p.seen = append(p.seen, escsGroup{name: name})
		}
		p.seen[k].w.n++
		p.seen[k].w.sumSubmit += q.Submit
	}
}

// nameOrder appends the Off nodes to buf[:0] in host-name order.
func nameOrder(v *View, buf []int) []int {
	buf = buf[:0]
	for i := range v.Nodes {
		if v.Nodes[i].State == Off {
			buf = append(buf, i)
		}
	}
	slices.SortFunc(buf, func(a, b int) int {
		return cmp.Or(strings.Compare(v.Nodes[a].Name, v.Nodes[b].Name), cmp.Compare(a, b))
	})
	return buf
}
