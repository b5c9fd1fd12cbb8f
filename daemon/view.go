package daemon

import (
	"cmp"
	"slices"

	"github.com/ecotune/ecotune/policy"
)

// BuildState turns a snapshot and the feature state into the State
// `ecotune decide` reads (policy/state.go), so that the View comes from
// the same code: the managed, available nodes in assignment order with
// their states and since times; pending jobs in submit order; running
// jobs in start order on the nodes of the View; recent arrivals and the
// smoothed hourly slots from the feature state (policy.Features).
// Unavailable nodes are listed last, as "down": the State names every
// node of the cluster, and policy.State.View leaves them out of the View,
// so the policy never sees them and never acts on them (and the View's
// node IDs are the positions of the available nodes here).
func BuildState(rs *policy.RuleSet, a *Assignment, h *History, tz int, snap *Snapshot) *policy.State {
	now := snap.Time
	f := h.F
	hourly := f.HourlySlots()
	s := &policy.State{Now: now, Start: f.Start(), TZOffset: tz, HourlySlots: hourly[:]}
	for _, r := range f.Recent() {
		s.Recent = append(s.Recent, policy.StateArrival(r))
	}
	inView := stateNodes(s, rs, a, h, snap)
	stateJobs(s, snap, inView)
	return s
}

// stateNodes lists in s the managed nodes, the available ones in
// assignment order and then the unavailable ones as "down", and returns
// the set of available ones.
func stateNodes(s *policy.State, rs *policy.RuleSet, a *Assignment, h *History, snap *Snapshot) map[string]bool {
	now := snap.Time
	byName := make(map[string]*Node, len(snap.Nodes))
	for i := range snap.Nodes {
		byName[snap.Nodes[i].Name] = &snap.Nodes[i]
	}
	inView := map[string]bool{}
	var out []policy.StateNode // unavailable: listed after the others
	for _, name := range a.Order {
		n := byName[name]
		if n == nil || n.Unavailable != "" {
			out = append(out, policy.StateNode{Name: name, Group: rs.Cluster[a.Group[name]].Name, State: "down", Since: now})
			continue
		}
		s.Nodes = append(s.Nodes, stateNode(n, rs.Cluster[a.Group[name]], h, now))
		inView[name] = true
	}
	s.Nodes = append(s.Nodes, out...)
	return inView
}

// stateNode is available node n of group g at now, with its since, idle
// since and last failure times from the feature history h.
func stateNode(n *Node, g policy.Group, h *History, now int64) policy.StateNode {
	sn := policy.StateNode{Name: n.Name, Group: g.Name, State: n.Power.String(), Since: now}
	if i, ok := h.index[n.Name]; ok {
		t := h.F.Node(i)
		sn.Since = min(t.Since, now)
		if n.Power == policy.Idle && t.IdleSince != sn.Since {
			is := min(t.IdleSince, now)
			sn.IdleSince = &is
		}
		if t.LastFailed != policy.NoTime {
			lf := t.LastFailed
			sn.LastFailed = &lf
		}
	}
	if n.Power == policy.Busy {
		sn.BusySlots = min(max(n.AllocCPUs, 1), g.Slots)
	}
	return sn
}

// stateJobs lists in s the pending jobs in submit order and the running
// jobs in start order, each on its nodes of inView (a job on none is left
// out).
func stateJobs(s *policy.State, snap *Snapshot, inView map[string]bool) {
	now := snap.Time
	var pending, running []*Job
	for i := range snap.Jobs {
		j := &snap.Jobs[i]
		if j.Running {
			running = append(running, j)
		} else {
			pending = append(pending, j)
		}
	}
	slices.SortStableFunc(pending, func(x, y *Job) int { return cmp.Or(cmp.Compare(x.Submit, y.Submit), cmp.Compare(x.ID, y.ID)) })
	slices.SortStableFunc(running, func(x, y *Job) int { return cmp.Or(cmp.Compare(x.Start, y.Start), cmp.Compare(x.ID, y.ID)) })
	for _, j := range pending {
		s.Queue = append(s.Queue, policy.StateQueued{ID: j.ID, Slots: max(j.CPUs, 1), Submit: min(j.Submit, now), ReqTime: j.TimeLimit, User: j.User, Group: j.Account})
	}
	for _, j := range running {
		r := policy.StateRunning{ID: j.ID, Slots: max(j.CPUs, 1), Start: min(j.Start, now), ReqTime: j.TimeLimit}
		for _, n := range j.Nodes {
			if inView[n] {
				r.Nodes = append(r.Nodes, n)
			}
		}
		if len(r.Nodes) == 0 {
			continue // runs outside the managed, available nodes
		}
		s.Running = append(s.Running, r)
	}
}

// groupsFor is the rule set's cluster with the live node counts.
func groupsFor(rs *policy.RuleSet, a *Assignment) []policy.Group {
	gs := slices.Clone(rs.Cluster)
	for i := range gs {
		gs[i].Count = a.Counts[i]
	}
	return gs
}
