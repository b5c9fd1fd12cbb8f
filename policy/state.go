package policy

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/ecotune/ecotune/internal/horizon"
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
// state is one of off, booting, idle, busy, shutting-down, or a Slurm node
// state as sinfo/scontrol print it (see slurmStates; case, the "+FLAG"
// suffixes and the ~ # % * ! symbols are understood): down, drained,
// draining, failing, maintenance and not-responding nodes are out of
// service, left out of the View, so no decision ever powers them on or
// off. The nodes must be the rule set's cluster, every node once: as many
// of each group as the group's count. idle_since
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
	if err := requireKeys(data); err != nil {
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

// requireKeys fails when data lacks a key every State needs: now, nodes,
// and each node's name, group, state and since. (Decoding alone cannot
// tell a missing key from a zero.)
func requireKeys(data []byte) error {
	var top struct {
		Now   *json.RawMessage              `json:"now"`
		Nodes *[]map[string]json.RawMessage `json:"nodes"`
	}
	if err := json.Unmarshal(data, &top); err != nil {
		return err
	}
	switch {
	case top.Now == nil:
		return errors.New(`now: missing (the current time, Unix seconds)`)
	case top.Nodes == nil:
		return errors.New(`nodes: missing (every node of the rule set's cluster, with its state)`)
	}
	for i, n := range *top.Nodes {
		for _, k := range []string{"name", "group", "state", "since"} {
			if _, ok := n[k]; !ok {
				return fmt.Errorf("nodes[%d].%s: missing", i, k)
			}
		}
	}
	return nil
}

// slurmStates maps Slurm's base node states (sinfo %T, scontrol State=,
// lower case, without flags) to a power state and whether the node is in
// service. ECOTUNE's own names are in stateNames.
var slurmStates = map[string]struct {
	state     NodeState
	inService bool
}{
	"idle": {Idle, true}, "allocated": {Busy, true}, "alloc": {Busy, true}, "mixed": {Busy, true}, "mix": {Busy, true},
	"completing": {Busy, true}, "comp": {Busy, true}, "reserved": {Idle, false}, "resv": {Idle, false},
	"planned": {Idle, true}, "plnd": {Idle, true},
	"powered_down": {Off, true}, "powered_off": {Off, true}, "power_down": {Off, true}, "powering_up": {Booting, true},
	"powering_down": {ShuttingDown, true}, "future": {Off, false}, "futr": {Off, false},
	"down": {Off, false}, "drain": {Off, false}, "drained": {Off, false}, "drng": {Off, false}, "draining": {Busy, false},
	"fail": {Off, false}, "failing": {Busy, false}, "maint": {Off, false}, "unknown": {Off, false}, "unk": {Off, false},
	"reboot": {Off, false}, "reboot_issued": {Off, false}, "reboot_requested": {Off, false}, "inval": {Off, false},
	"not_responding": {Off, false}, "npc": {Off, false}, "blocked": {Off, false},
}

// outOfService are Slurm state flags ("IDLE+DRAIN") that take a node out
// of service.
var outOfService = map[string]bool{"drain": true, "drained": true, "draining": true, "down": true, "fail": true,
	"failing": true, "maint": true, "not_responding": true, "reboot_requested": true, "reboot_issued": true, "inval": true,
	"reserved": true} // docs/architecture.md: reserved nodes are never acted on

// nodeState maps a node's state string to its power state and whether it
// is in service, accepting ecotune's names and Slurm's.
func nodeState(name string) (st NodeState, inService, ok bool) {
	if st, ok := stateNames[name]; ok {
		return st, true, true
	}
	parts := strings.Split(strings.ToLower(strings.TrimSpace(name)), "+")
	base := parts[0]
	symbol := byte(0)
	if n := len(base); n > 0 && strings.IndexByte("~#%*!@$^-", base[n-1]) >= 0 {
		symbol, base = base[n-1], base[:n-1]
	}
	m, ok := slurmStates[base]
	if !ok {
		return 0, false, false
	}
	st, inService = withSymbol(m.state, m.inService, symbol)
	for _, f := range parts[1:] {
		st, inService = withFlag(st, inService, m.state, f)
	}
	return st, inService, true
}

// withSymbol applies a Slurm state's trailing symbol ("idle~") to its
// power state st and in-service inService.
func withSymbol(st NodeState, inService bool, symbol byte) (NodeState, bool) {
	switch symbol {
	case '~':
		st = Off
	case '#':
		st = Booting
	case '%', '!':
		st = ShuttingDown
	case '*':
		inService = false
	}
	return st, inService
}

// withFlag applies a Slurm state flag ("+drain") to the power state st and
// in-service inService of a node whose base state is base.
func withFlag(st NodeState, inService bool, base NodeState, f string) (NodeState, bool) {
	switch {
	case outOfService[f]:
		inService = false
	case (f == "powered_down" || f == "power_down" || f == "powered_off") && base == Busy:
		st = Booting // allocated to a job while down: Slurm is resuming it
	case f == "powered_down" || f == "power_down" || f == "powered_off":
		st = Off
	case f == "powering_up":
		st = Booting
	case f == "powering_down":
		st = ShuttingDown
	}
	return st, inService
}

// View validates s against the cluster groups and returns its View. The
// error names the offending field, e.g. "nodes[3].busy_slots: 9 > 8 slots".
func (s *State) View(groups []Group, period int64) (*View, error) {
	v := &View{Now: s.Now, Start: s.Start, TZOffset: s.TZOffset, Period: period, Groups: groups}
	if err := s.checkClock(); err != nil {
		return nil, err
	}
	copy(v.HourlySlots[:], s.HourlySlots)
	ids := make(map[string]int, len(s.Nodes)) // in-service nodes: their ID
	names := make(map[string]bool, len(s.Nodes))
	if err := s.nodes(v, groups, ids, names); err != nil {
		return nil, err
	}
	if err := s.jobs(v, ids, names, clusterSlots(groups)); err != nil {
		return nil, err
	}
	v.Recount()
	return v, nil
}

// checkClock checks now, start, the time zone offset and the hourly
// arrival profile.
func (s *State) checkClock() error {
	switch {
	case s.Now < 0:
		return fmt.Errorf("now: %d is negative", s.Now)
	case s.Now > horizon.Unix:
		return fmt.Errorf("now: %d is out of range: beyond the horizon %s (%d)", s.Now, horizon.Text, horizon.Unix)
	case s.Start < 0 || s.Start > s.Now:
		return fmt.Errorf("start: %d out of [0, now %d]", s.Start, s.Now)
	case s.TZOffset < -14*3600 || s.TZOffset > 14*3600:
		return fmt.Errorf("tz_offset_s: %d out of [-50400, 50400]", s.TZOffset)
	case len(s.HourlySlots) != 0 && len(s.HourlySlots) != 24:
		return fmt.Errorf("hourly_slots: %d values, want 24", len(s.HourlySlots))
	}
	for h, x := range s.HourlySlots {
		switch {
		case x < 0:
			return fmt.Errorf("hourly_slots[%d]: %g is negative", h, x)
		case !(x <= maxHourlySlots): // also NaN
			return fmt.Errorf("hourly_slots[%d]: %g is out of range: more than %g", h, x, maxHourlySlots)
		}
	}
	return nil
}

// nodes validates every node, appends the in-service ones to v.Nodes and
// records them in ids (name to ID); names records every node's name. The
// nodes must match the groups' counts.
func (s *State) nodes(v *View, groups []Group, ids map[string]int, names map[string]bool) error {
	perGroup := make([]int, len(groups))
	for i := range s.Nodes {
		n, inService, err := s.node(i, groups)
		if err != nil {
			return fmt.Errorf("nodes[%d].%w", i, err)
		}
		if names[n.Name] {
			return fmt.Errorf("nodes[%d].name: %q used twice", i, n.Name)
		}
		names[n.Name] = true
		perGroup[n.Group]++
		if !inService { // never powered on or off: the policy does not see it
			continue
		}
		n.ID = len(v.Nodes)
		ids[n.Name] = n.ID
		v.Nodes = append(v.Nodes, n)
	}
	return checkGroupCounts(groups, len(s.Nodes), perGroup)
}

// checkGroupCounts checks that the state lists every node of the groups:
// nodes in all, perGroup of each group.
func checkGroupCounts(groups []Group, nodes int, perGroup []int) error {
	total := 0
	for g := range groups {
		total += groups[g].Count
	}
	if nodes != total {
		return fmt.Errorf("nodes: %d nodes, but the rule set's cluster has %d (%s); list every node once", nodes, total, groupCounts(groups))
	}
	for g := range groups {
		if perGroup[g] != groups[g].Count {
			return fmt.Errorf("nodes: %d nodes of group %q, but the rule set's cluster has %d", perGroup[g], groups[g].Name, groups[g].Count)
		}
	}
	return nil
}

// maxHourlySlots bounds hourly_slots: one job per slot of the largest
// cluster every second of the hour.
const maxHourlySlots = float64(horizon.MaxSlots) * 3600

// clusterSlots is the slots of the cluster's nodes (at most
// horizon.MaxSlots in a valid rule set).
func clusterSlots(groups []Group) int {
	n := 0
	for g := range groups {
		n += groups[g].Count * groups[g].Slots
	}
	return n
}

// checkJob checks a job's slots against the cluster's and its requested
// time against horizon.MaxDuration; field is "queue[3]" and the like.
func checkJob(field string, id int64, slots int, reqTime int64, total int) error {
	switch {
	case slots < 1:
		return fmt.Errorf("%s.slots: %d, want ≥ 1", field, slots)
	case slots > total:
		return fmt.Errorf("%s.slots: job %d asks %d slots, out of range: the cluster has %d", field, id, slots, total)
	case reqTime < 0:
		return fmt.Errorf("%s.req_time: %d is negative", field, reqTime)
	case reqTime > horizon.MaxDuration:
		return fmt.Errorf("%s.req_time: %d s is out of range: more than %d (100 years)", field, reqTime, horizon.MaxDuration)
	}
	return nil
}

// groupCounts is "4 node, 2 gpu": each group's node count.
func groupCounts(groups []Group) string {
	parts := make([]string, len(groups))
	for g := range groups {
		parts[g] = fmt.Sprintf("%d %s", groups[g].Count, groups[g].Name)
	}
	return strings.Join(parts, ", ")
}

// node validates node i and returns its NodeView and whether it is in
// service.
func (s *State) node(i int, groups []Group) (NodeView, bool, error) {
	sn := &s.Nodes[i]
	n := NodeView{ID: i, Name: sn.Name, Group: -1, Since: sn.Since, BusySlots: sn.BusySlots,
		SleepLevel: sn.SleepLevel, Freq: sn.Freq, IdleSince: NoTime, LastFailed: NoTime}
	if sn.Name == "" {
		return n, false, errors.New("name: empty")
	}
	n.Group = groupIndex(groups, sn.Group)
	if n.Group < 0 {
		return n, false, fmt.Errorf("group: %q is not a group of the rule set's cluster", sn.Group)
	}
	g := &groups[n.Group]
	n.Slots = g.Slots
	st, inService, err := s.nodePower(sn, g)
	n.BusySlots = sn.BusySlots
	if err != nil || !inService {
		n.State = st
		return n, false, err
	}
	n.State = st
	if st == Idle {
		if n.IdleSince, err = s.idleSince(sn); err != nil {
			return n, false, err
		}
	}
	if sn.LastFailed != nil {
		n.LastFailed = *sn.LastFailed
	}
	return n, true, nil
}

// groupIndex is the index of the last group named name, or -1.
func groupIndex(groups []Group, name string) int {
	k := -1
	for g := range groups {
		if groups[g].Name == name {
			k = g
		}
	}
	return k
}

// nodePower validates node sn of group g and returns its power state and
// whether it is in service. A node Slurm reports allocated without busy
// slots is given every slot of its group.
func (s *State) nodePower(sn *StateNode, g *Group) (NodeState, bool, error) {
	st, inService, ok := nodeState(sn.State)
	if st == Busy && sn.BusySlots == 0 && inService && strings.HasPrefix(strings.ToLower(sn.State), "alloc") {
		sn.BusySlots = g.Slots // Slurm's allocated: every slot
	}
	switch {
	case !ok:
		return st, false, fmt.Errorf("state: %q, want off, booting, idle, busy or shutting-down, or a Slurm state (idle, allocated, mixed, down, drained, ...)", sn.State)
	case sn.Since < 0 || sn.Since > s.Now:
		return st, false, fmt.Errorf("since: %d out of [0, now %d]", sn.Since, s.Now)
	case sn.LastFailed != nil && (*sn.LastFailed < 0 || *sn.LastFailed > s.Now):
		return st, false, fmt.Errorf("last_failed: %d out of [0, now %d]", *sn.LastFailed, s.Now)
	case sn.BusySlots < 0 || sn.BusySlots > g.Slots: // in service or not
		return st, false, fmt.Errorf("busy_slots: %d out of [0, %d]", sn.BusySlots, g.Slots)
	case !inService:
		return st, false, nil
	}
	return st, true, checkInService(sn, st, g)
}

// checkInService checks the busy slots, sleep level and frequency of sn,
// an in-service node of group g in power state st.
func checkInService(sn *StateNode, st NodeState, g *Group) error {
	switch {
	case (st == Busy) != (sn.BusySlots > 0):
		return fmt.Errorf("busy_slots: %d for a node %s", sn.BusySlots, sn.State)
	case sn.SleepLevel < 0 || sn.SleepLevel > len(g.Model.SleepLevels) || (sn.SleepLevel > 0 && st != Off):
		return fmt.Errorf("sleep_level: %d invalid for a %s node of %d sleep levels", sn.SleepLevel, sn.State, len(g.Model.SleepLevels))
	case sn.Freq < 0 || sn.Freq >= max(1, len(g.Model.Freqs)):
		return fmt.Errorf("freq: %d out of [0, %d)", sn.Freq, max(1, len(g.Model.Freqs)))
	}
	return nil
}

// idleSince is when idle node sn became idle: its idle_since, by default
// its since.
func (s *State) idleSince(sn *StateNode) (int64, error) {
	t := sn.Since
	if sn.IdleSince != nil {
		t = *sn.IdleSince
	}
	if t < 0 || t > s.Now {
		return t, fmt.Errorf("idle_since: %d out of [0, now %d]", t, s.Now)
	}
	return t, nil
}

// jobs validates the queued, running and recent jobs; ids are the
// in-service nodes, names every node (a running job's nodes out of service
// are left out of its View).
func (s *State) jobs(v *View, ids map[string]int, names map[string]bool, total int) error {
	if err := s.queue(v, total); err != nil {
		return err
	}
	if err := s.running(v, ids, names, total); err != nil {
		return err
	}
	return s.recent(v, total)
}

// queue validates the queued jobs and appends them to v.Queue.
func (s *State) queue(v *View, total int) error {
	for i, q := range s.Queue {
		if err := checkJob(fmt.Sprintf("queue[%d]", i), q.ID, q.Slots, q.ReqTime, total); err != nil {
			return err
		}
		if q.Submit < 0 || q.Submit > s.Now {
			return fmt.Errorf("queue[%d].submit: %d out of [0, now %d]", i, q.Submit, s.Now)
		}
		v.Queue = append(v.Queue, QueuedJob(q))
	}
	return nil
}

// running validates the running jobs and appends them to v.Running, each
// with its in-service nodes.
func (s *State) running(v *View, ids map[string]int, names map[string]bool, total int) error {
	for i, r := range s.Running {
		if err := checkJob(fmt.Sprintf("running[%d]", i), r.ID, r.Slots, r.ReqTime, total); err != nil {
			return err
		}
		if r.Start < 0 || r.Start > s.Now {
			return fmt.Errorf("running[%d].start: %d out of [0, now %d]", i, r.Start, s.Now)
		}
		j := RunningJob{ID: r.ID, Slots: r.Slots, Start: r.Start, ReqTime: r.ReqTime, Nodes: make([]int, 0, len(r.Nodes))}
		for k, name := range r.Nodes {
			id, ok := ids[name]
			if !ok && !names[name] {
				return fmt.Errorf("running[%d].nodes[%d]: unknown node %q", i, k, name)
			}
			if ok {
				j.Nodes = append(j.Nodes, id)
			}
		}
		v.Running = append(v.Running, j)
	}
	return nil
}

// recent validates the recent arrivals and appends them to v.Recent.
func (s *State) recent(v *View, total int) error {
	if len(s.Recent) > RecentCap {
		return fmt.Errorf("recent: %d arrivals, at most %d", len(s.Recent), RecentCap)
	}
	for i, a := range s.Recent {
		if a.Time < 0 || a.Time > s.Now || (i > 0 && a.Time < s.Recent[i-1].Time) || a.Slots < 1 || a.ReqTime < 0 {
			return fmt.Errorf("recent[%d]: want slots ≥ 1, req_time ≥ 0 and times in order in [0, now]", i)
		}
		if a.Slots > total || a.ReqTime > horizon.MaxDuration {
			return fmt.Errorf("recent[%d]: %d slots, req_time %d s: out of range: at most the cluster's %d slots and %d s", i, a.Slots, a.ReqTime, total, horizon.MaxDuration)
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
