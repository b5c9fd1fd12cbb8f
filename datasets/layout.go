package datasets

// Node layout. Logs that name the hosts a job ran on (Slurm's NodeList,
// PBS/TORQUE's exec_host, SGE/UGE's hostname) show the machine's nodes:
// the trace records them in Meta.Layout, grouped by slots per node, so
// that a 4-node × 32-core cluster replays as 4 nodes of 32 slots rather
// than 128 one-slot nodes.
//
// Slots per node are as observed: the most processors the log shows in
// use on the node at one time (jobs' [start, end) intervals overlapping),
// a job's processors spread evenly over its nodes and rounded up (Slurm,
// SGE), or counted per host (PBS exec_host, whose core indices also show
// that a node has at least index+1 cores). Overlaps are found among the
// last layoutRecent jobs of each node, which sacct, PBS and SGE logs
// list close together; nodes that ran no job in the log are missing. An
// SGE parallel job is counted on its master host (the hostname field).

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"

	"github.com/ecotune/ecotune/hostlist"
)

// A LayoutGroup is a set of nodes with the same number of slots.
type LayoutGroup struct {
	Slots int    `json:"slots"`
	Count int    `json:"count"`
	Hosts string `json:"hosts"` // host list expression, e.g. "cn[01-04]"
}

// LayoutNodes returns the number of nodes of a layout.
func LayoutNodes(l []LayoutGroup) int {
	n := 0
	for _, g := range l {
		n += g.Count
	}
	return n
}

// LayoutSlots returns the number of slots of a layout.
func LayoutSlots(l []LayoutGroup) int {
	n := 0
	for _, g := range l {
		n += g.Count * g.Slots
	}
	return n
}

const (
	layoutRecent   = 16      // jobs per node kept to find overlaps
	layoutMaxHosts = 1 << 18 // hosts tracked at most
)

// layoutSpan is one job on one node: its interval, processors and the
// load at its start (its own and that of the kept jobs running then).
type layoutSpan struct {
	job, start, end, procs, load int64
}

type layoutHost struct {
	slots  int64
	recent []layoutSpan
	next   int
}

// A layoutObserver collects the hosts of a log and their slots.
type layoutObserver struct {
	hosts      map[string]*layoutHost
	unreadable int64 // host lists and names that could not be read
	dropped    int64 // hosts beyond layoutMaxHosts
	names      hostlist.Names
}

func (o *layoutObserver) host(name []byte) *layoutHost {
	if len(bytes.TrimSpace(name)) == 0 || bytes.ContainsAny(name, ",[]") {
		o.unreadable++ // not a name a host list can hold
		return nil
	}
	if o.hosts == nil {
		o.hosts = map[string]*layoutHost{}
	}
	if h, ok := o.hosts[string(name)]; ok {
		return h
	}
	if len(o.hosts) >= layoutMaxHosts {
		o.dropped++
		return nil
	}
	h := &layoutHost{}
	o.hosts[string(name)] = h
	return h
}

// atLeast records that host name has at least slots slots.
func (o *layoutObserver) atLeast(name []byte, slots int64) {
	if h := o.host(name); h != nil {
		h.slots = max(h.slots, slots)
	}
}

// observe records procs processors in use on host name over [start, end)
// (Unknown times: the processors alone) by the job numbered job. The same
// run of a job listed twice (PBS and SGE logs do that) counts once.
func (o *layoutObserver) observe(name []byte, job, procs, start, end int64) {
	h := o.host(name)
	if h == nil || procs <= 0 {
		return
	}
	if start == Unknown || end == Unknown || end <= start {
		h.slots = max(h.slots, procs)
		return
	}
	if h.repeats(job, procs, start, end) {
		return
	}
	load := h.addLoad(procs, start, end)
	h.remember(layoutSpan{job, start, end, procs, load})
}

// repeats reports whether h holds the same run of the same job among its
// recent spans.
func (h *layoutHost) repeats(job, procs, start, end int64) bool {
	return slices.ContainsFunc(h.recent, func(s layoutSpan) bool {
		return s.job == job && s.start == start && s.end == end && s.procs == procs
	})
}

// addLoad adds procs processors in use over [start, end) to the recent
// spans of h that start within it, raises h's slots to every load seen and
// returns the load at start.
func (h *layoutHost) addLoad(procs, start, end int64) int64 {
	load := procs
	for i := range h.recent {
		s := &h.recent[i]
		if s.start <= start && start < s.end {
			load += s.procs
		}
		if start <= s.start && s.start < end {
			s.load += procs
			h.slots = max(h.slots, s.load)
		}
	}
	h.slots = max(h.slots, load)
	return load
}

// remember keeps span among h's recent spans, replacing the oldest once
// there are layoutRecent.
func (h *layoutHost) remember(span layoutSpan) {
	if len(h.recent) < layoutRecent {
		h.recent = append(h.recent, span)
		return
	}
	h.recent[h.next] = span
	h.next = (h.next + 1) % layoutRecent
}

// observeList records a job of procs processors spread evenly over the
// hosts of a host list (Slurm's NodeList).
func (o *layoutObserver) observeList(list []byte, job, procs, start, end int64) {
	switch string(list) {
	case "", "None assigned", "(null)", "None":
		return
	}
	if err := o.names.ExpandBytes(list); err != nil || o.names.Len() == 0 {
		o.unreadable++
		return
	}
	if procs <= 0 {
		return
	}
	n := int64(o.names.Len())
	share := (procs + n - 1) / n
	for i := range o.names.Len() {
		o.observe(o.names.Name(i), job, share, start, end)
	}
}

// fill sets m's Layout, Nodes, Procs and ProcsPerNode from the hosts seen
// (nothing when none was seen), with notes on what was left out.
func (o *layoutObserver) fill(m *Meta) {
	if o.unreadable > 0 {
		m.Notes = append(m.Notes, fmt.Sprintf("node layout: %d unreadable node lists or host names left out", o.unreadable))
	}
	if o.dropped > 0 {
		m.Notes = append(m.Notes, fmt.Sprintf("node layout: more than %d hosts, %d observations of further hosts left out", layoutMaxHosts, o.dropped))
	}
	slots := map[string]int{}
	for name, h := range o.hosts {
		if h.slots > 0 {
			slots[name] = int(min(h.slots, 1<<31-1))
		}
	}
	setLayout(m, layoutOf(slots))
	if len(m.Layout) > 0 {
		m.Notes = append(m.Notes, "node layout from the hosts the log names: slots per node as observed (most processors in use at once); nodes that ran no job are missing")
	}
}

// layoutOf groups hosts by slots, fewest slots first.
func layoutOf(slots map[string]int) []LayoutGroup {
	by := map[int][]string{}
	for name, s := range slots {
		by[s] = append(by[s], name)
	}
	var out []LayoutGroup
	for s, names := range by {
		out = append(out, LayoutGroup{Slots: s, Count: len(names), Hosts: HostList(names)})
	}
	slices.SortFunc(out, func(a, b LayoutGroup) int { return cmp.Compare(a.Slots, b.Slots) })
	return out
}

// setLayout sets m.Layout and the machine size it implies.
func setLayout(m *Meta, l []LayoutGroup) {
	m.Layout = l
	if len(l) == 0 {
		return
	}
	m.Nodes, m.Procs = LayoutNodes(l), LayoutSlots(l)
	m.ProcsPerNode = m.Procs / m.Nodes
}

// ValidateLayout checks a layout: every group has at least one node of
// at least one slot, its hosts are a host list of Count names, and no host
// is in two groups. The error names the group and field.
func ValidateLayout(l []LayoutGroup) error {
	for i, g := range l {
		if g.Slots < 1 {
			return fmt.Errorf("layout[%d].slots: %d must be at least 1", i, g.Slots)
		}
		if g.Count < 1 {
			return fmt.Errorf("layout[%d].count: %d must be at least 1", i, g.Count)
		}
	}
	slots, err := layoutSlots(l)
	if err != nil {
		return err
	}
	if n := LayoutNodes(l); len(slots) != n {
		return fmt.Errorf("layout: %d distinct hosts for %d nodes: a host is in two groups", len(slots), n)
	}
	return nil
}

// layoutSlots returns the slots of each host of a layout.
func layoutSlots(l []LayoutGroup) (map[string]int, error) {
	slots := map[string]int{}
	for i, g := range l {
		names, err := ExpandHostList(g.Hosts)
		if err != nil {
			return nil, fmt.Errorf("layout[%d].hosts: %w", i, err)
		}
		if len(names) != g.Count {
			return nil, fmt.Errorf("layout[%d].hosts: %d hosts for count %d", i, len(names), g.Count)
		}
		for _, n := range names {
			slots[n] = max(slots[n], g.Slots)
		}
	}
	return slots, nil
}

// mergeLayouts combines the layouts of several logs: every host, with the
// most slots any log shows. It returns nil unless every log has a layout.
func mergeLayouts(ls [][]LayoutGroup) ([]LayoutGroup, error) {
	all := map[string]int{}
	for _, l := range ls {
		if len(l) == 0 {
			return nil, nil
		}
		slots, err := layoutSlots(l)
		if err != nil {
			return nil, err
		}
		for n, s := range slots {
			all[n] = max(all[n], s)
		}
	}
	return layoutOf(all), nil
}
