package policy

import (
	"errors"
	"fmt"
)

// State is the cluster state a daemon hands to `ecotune decide`: the JSON
// form of a View. Node slots, models and the decision period come from the
// rule set's cluster; node IDs are positions in Nodes. Times are Unix
// seconds.
//
//	{
//	  "now": 1700000000,
//	  "start": 1690000000,            // optional: when the daemon started
//	  "tz_offset_s": 3600,            // optional: local time − UTC, for hour-of-day inputs
//	  "nodes": [
//	    {"name": "node001", "group": "node", "state": "idle", "since": 1699999000},
//	    {"name": "node002", "group": "node", "state": "busy", "since": 1699990000, "busy_slots": 8},
//	    {"name": "node003", "group": "node", "state": "off", "since": 1699000000,
//	     "sleep_level": 0, "last_failed": 1698000000}
//	  ],
//	  "queue": [{"id": 7, "slots": 16, "submit": 1699999500, "req_time": 3600, "user": "ana", "group": "physics"}],
//	  "running": [{"id": 6, "slots": 8, "start": 1699990000, "req_time": 7200, "nodes": ["node002"]}],
//	  "recent": [{"time": 1699999500, "slots": 16, "req_time": 3600}],   // oldest first
//	  "hourly_slots": [0, 0, ..., 0]  // 24 values, or absent
//	}
//
// state is one of off, booting, idle, busy, shutting-down; idle_since
// defaults to since for idle nodes; freq and sleep_level are level indices
// into the group's model (0 = nominal / power-off).
type State struct {
	Now         int64          `json:"now"`
	Start       int64          `json:"start,omitempty"`
	TZOffset    int            `json:"tz_offset_s,omitempty"`
	Nodes       []StateNode    `json:"nodes"`
	Queue       []StateQueued  `json:"queue,omitempty"`
	Running     []StateRunning `json:"running,omitempty"`
	Recent      []StateArrival `json:"recent,omitempty"`
	HourlySlots []float64      `json:"hourly_slots,omitempty"`
}

// StateNode is one node of a State.
type StateNode struct {
	Name       string `json:"name"`
	Group      string `json:"group"`
	State      string `json:"state"`
	Since      int64  `json:"since"`
	IdleSince  *int64 `json:"idle_since,omitempty"`
	BusySlots  int    `json:"busy_slots,omitempty"`
	SleepLevel int    `json:"sleep_level,omitempty"`
	Freq       int    `json:"freq,omitempty"`
	LastFailed *int64 `json:"last_failed,omitempty"`
}

// StateQueued is one queued job of a State.
type StateQueued struct {
	ID      int64  `json:"id"`
	Slots   int    `json:"slots"`
	Submit  int64  `json:"submit"`
	ReqTime int64  `json:"req_time"`
	User    string `json:"user,omitempty"`
	Group   string `json:"group,omitempty"`
}

// StateRunning is one running job of a State.
type StateRunning struct {
	ID      int64    `json:"id"`
	Slots   int      `json:"slots"`
	Start   int64    `json:"start"`
	ReqTime int64    `json:"req_time"`
	Nodes   []string `json:"nodes"`
}

// StateArrival is one recent submission of a State.
type StateArrival struct {
	Time    int64 `json:"time"`
	Slots   int   `json:"slots"`
	ReqTime int64 `json:"req_time"`
}

// ParseState decodes a State (unknown fields are errors) and builds the
// View it describes on the rule set's cluster, with summary counts.
func ParseState(data []byte, rs *RuleSet) (*View, error) {
	var s State
	if err := decodeStrict(data, &s); err != nil {
		return nil, err
	}
	return s.View(rs.Cluster, rs.Period)
}

// ReadState reads the State file at path (see ParseState).
func ReadState(path string, rs *RuleSet) (*View, error) {
	data, err := readLimited(path)
	if err != nil {
		return nil, err
	}
	v, err := ParseState(data, rs)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return v, nil
}

var stateNames = map[string]NodeState{"off": Off, "booting": Booting, "idle": Idle, "busy": Busy, "shutting-down": ShuttingDown}

// View validates s against the cluster groups and returns its View. The
// error names the offending field, e.g. "nodes[3].busy_slots: 9 > 8 slots".
func (s *State) View(groups []Group, period int64) (*View, error) {
	v := &View{Now: s.Now, Start: s.Start, TZOffset: s.TZOffset, Period: period, Groups: groups}
	if len(s.HourlySlots) != 0 && len(s.HourlySlots) != 24 {
		return nil, fmt.Errorf("hourly_slots: %d values, want 24", len(s.HourlySlots))
	}
	copy(v.HourlySlots[:], s.HourlySlots)
	ids := make(map[string]int, len(s.Nodes))
	for i := range s.Nodes {
		n, err := s.node(i, groups)
		if err != nil {
			return nil, fmt.Errorf("nodes[%d].%w", i, err)
		}
		if _, dup := ids[n.Name]; dup {
			return nil, fmt.Errorf("nodes[%d].name: %q used twice", i, n.Name)
		}
		ids[n.Name] = i
		v.Nodes = append(v.Nodes, n)
	}
	if err := s.jobs(v, ids); err != nil {
		return nil, err
	}
	v.Recount()
	return v, nil
}

func (s *State) node(i int, groups []Group) (NodeView, error) {
	sn := &s.Nodes[i]
	n := NodeView{ID: i, Name: sn.Name, Group: -1, Since: sn.Since, BusySlots: sn.BusySlots,
		SleepLevel: sn.SleepLevel, Freq: sn.Freq, IdleSince: NoTime, LastFailed: NoTime}
	if sn.Name == "" {
		return n, errors.New("name: empty")
	}
	for g := range groups {
		if groups[g].Name == sn.Group {
			n.Group = g
		}
	}
	if n.Group < 0 {
		return n, fmt.Errorf("group: %q is not a group of the rule set's cluster", sn.Group)
	}
	g := &groups[n.Group]
	n.Slots = g.Slots
	st, ok := stateNames[sn.State]
	switch {
	case !ok:
		return n, fmt.Errorf("state: %q, want off, booting, idle, busy or shutting-down", sn.State)
	case sn.Since > s.Now:
		return n, fmt.Errorf("since: %d is after now (%d)", sn.Since, s.Now)
	case sn.BusySlots < 0 || sn.BusySlots > g.Slots:
		return n, fmt.Errorf("busy_slots: %d out of [0, %d]", sn.BusySlots, g.Slots)
	case (st == Busy) != (sn.BusySlots > 0):
		return n, fmt.Errorf("busy_slots: %d for a node %s", sn.BusySlots, sn.State)
	case sn.SleepLevel < 0 || sn.SleepLevel > len(g.Model.SleepLevels) || (sn.SleepLevel > 0 && st != Off):
		return n, fmt.Errorf("sleep_level: %d invalid for a %s node of %d sleep levels", sn.SleepLevel, sn.State, len(g.Model.SleepLevels))
	case sn.Freq < 0 || sn.Freq >= max(1, len(g.Model.Freqs)):
		return n, fmt.Errorf("freq: %d out of [0, %d)", sn.Freq, max(1, len(g.Model.Freqs)))
	}
	n.State = st
	if st == Idle {
		n.IdleSince = sn.Since
		if sn.IdleSince != nil {
			n.IdleSince = *sn.IdleSince
		}
		if n.IdleSince > s.Now {
			return n, fmt.Errorf("idle_since: %d is after now (%d)", n.IdleSince, s.Now)
		}
	}
	if sn.LastFailed != nil {
		n.LastFailed = *sn.LastFailed
	}
	return n, nil
}

func (s *State) jobs(v *View, ids map[string]int) error {
	for i, q := range s.Queue {
		if q.Slots < 1 || q.Submit > s.Now {
			return fmt.Errorf("queue[%d]: want slots ≥ 1 and submit ≤ now, got %d slots submitted at %d", i, q.Slots, q.Submit)
		}
		v.Queue = append(v.Queue, QueuedJob(q))
	}
	for i, r := range s.Running {
		j := RunningJob{ID: r.ID, Slots: r.Slots, Start: r.Start, ReqTime: r.ReqTime, Nodes: make([]int, len(r.Nodes))}
		for k, name := range r.Nodes {
			id, ok := ids[name]
			if !ok {
				return fmt.Errorf("running[%d].nodes[%d]: unknown node %q", i, k, name)
			}
			j.Nodes[k] = id
		}
		v.Running = append(v.Running, j)
	}
	if len(s.Recent) > RecentCap {
		return fmt.Errorf("recent: %d arrivals, at most %d", len(s.Recent), RecentCap)
	}
	for i, a := range s.Recent {
		if a.Time > s.Now || (i > 0 && a.Time < s.Recent[i-1].Time) || a.Slots < 1 {
			return fmt.Errorf("recent[%d]: want slots ≥ 1 and times in order up to now", i)
		}
		v.Recent = append(v.Recent, Arrival(a))
	}
	return nil
}

// StateOf returns the State of v: what a simulator records so that
// `ecotune decide` can replay its Views.
func StateOf(v *View) *State {
	s := &State{Now: v.Now, Start: v.Start, TZOffset: v.TZOffset, HourlySlots: append([]float64(nil), v.HourlySlots[:]...)}
	for i := range v.Nodes {
		n := &v.Nodes[i]
		sn := StateNode{Name: n.Name, Group: v.Groups[n.Group].Name, State: n.State.String(), Since: n.Since,
			BusySlots: n.BusySlots, SleepLevel: n.SleepLevel, Freq: n.Freq}
		if n.State == Idle && n.IdleSince != n.Since {
			sn.IdleSince = &n.IdleSince
		}
		if n.LastFailed != NoTime {
			sn.LastFailed = &n.LastFailed
		}
		s.Nodes = append(s.Nodes, sn)
	}
	for _, q := range v.Queue {
		s.Queue = append(s.Queue, StateQueued(q))
	}
	for _, r := range v.Running {
		sr := StateRunning{ID: r.ID, Slots: r.Slots, Start: r.Start, ReqTime: r.ReqTime}
		for _, id := range r.Nodes {
			sr.Nodes = append(sr.Nodes, v.Nodes[id].Name)
		}
		s.Running = append(s.Running, sr)
	}
	for _, a := range v.Recent {
		s.Recent = append(s.Recent, StateArrival(a))
	}
	return s
}

// DecisionOut is the JSON form of a Decision that `ecotune decide`
// prints: nodes by name; wake null when the policy only needs the next
// event.
type DecisionOut struct {
	Policy   string         `json:"policy"`
	Now      int64          `json:"now"`
	PowerOn  []string       `json:"power_on"`
	PowerOff []NodeLevelOut `json:"power_off"`
	Freq     []NodeLevelOut `json:"freq"`
	Wake     *int64         `json:"wake"`
}

// NodeLevelOut is a node and a level: a sleep level (0 power-off) or a
// frequency level, with the level's name from the group's model.
type NodeLevelOut struct {
	Node      string `json:"node"`
	Level     int    `json:"level"`
	LevelName string `json:"level_name"`
}

// Out returns the printable form of d, decided by p on v.
func (d *Decision) Out(p Policy, v *View) DecisionOut {
	o := DecisionOut{Policy: p.Name(), Now: v.Now, PowerOn: []string{}, PowerOff: []NodeLevelOut{}, Freq: []NodeLevelOut{}}
	for _, i := range d.PowerOn {
		o.PowerOn = append(o.PowerOn, v.Nodes[i].Name)
	}
	for _, c := range d.PowerOff {
		name := "off"
		if lv := v.Groups[v.Nodes[c.Node].Group].Model.SleepLevels; c.Level > 0 && c.Level <= len(lv) {
			name = lv[c.Level-1].Name
		}
		o.PowerOff = append(o.PowerOff, NodeLevelOut{Node: v.Nodes[c.Node].Name, Level: c.Level, LevelName: name})
	}
	for _, f := range d.Freq {
		name := "nominal"
		if fl := v.Groups[v.Nodes[f.Node].Group].Model.Freqs; f.Level < len(fl) {
			name = fl[f.Level].Name
		}
		o.Freq = append(o.Freq, NodeLevelOut{Node: v.Nodes[f.Node].Name, Level: f.Level, LevelName: name})
	}
	if d.Wake != NoTime {
		w := d.Wake
		o.Wake = &w
	}
	return o
}

// DecideState makes the rule set's policy and decides on v, as a daemon
// does each cycle.
func DecideState(rs *RuleSet, v *View) (DecisionOut, error) {
	p, err := rs.NewPolicy()
	if err != nil {
		return DecisionOut{}, err
	}
	var d Decision
	d.Reset()
	p.Decide(v, &d)
	return d.Out(p, v), nil
}
