package policy

import (
	"encoding/json"
	"errors"
	"fmt"
)

// HourlySmoothing is the weight of the day just ended in
// View.HourlySlots: at each local midnight, HourlySlots[h] += HourlySmoothing
// × (slots submitted in hour h that day − HourlySlots[h]); the first day
// is taken as it is.
const HourlySmoothing = 1.0 / 7

// FeaturesVersion is the version of the JSON form of Features.
const FeaturesVersion = 1

const day = 86400

// Features is what policies observe beyond one instant: the recent
// arrivals, the hourly slot history and its smoothing (rolled at local
// midnight), and each node's state with the time it entered it, the time
// it last became idle and the time its last boot failed. It is fed by
// events — a job submitted, a node changing state, the clock advancing —
// and fills those fields of a View (Fill).
//
// The simulator feeds it from its events as they happen; a daemon feeds it
// what it observes when it polls the cluster: the jobs it has not seen
// before (whose submit times may lie before the poll, even before the last
// local midnight), the nodes whose state changed, and the poll's time.
// The same events give the same View whichever order a poll reports them
// in: a submission reported after the midnight that closed its day still
// enters that day's hourly counts exactly (up to one midnight late).
//
// Make one with NewFeatures (or Reset, or UnmarshalJSON). A Features
// value is not safe for concurrent use. Its JSON form
// (MarshalJSON, UnmarshalJSON) is versioned, so a daemon restarted from
// its state directory continues with the same history.
type Features struct {
	start    int64 // View.Start
	tz       int64 // View.TZOffset
	now      int64 // the latest time fed
	nextRoll int64 // the next local midnight after now

	recent []Arrival // oldest first; the last RecentCap are View.Recent

	today  [24]float64 // slots submitted per local hour since the last midnight
	hourly [24]float64 // View.HourlySlots
	rolled bool        // a midnight has passed (hourly holds a day)

	// The day before today, kept so that a submission reported after the
	// midnight that closed its day enters hourly exactly: hourly is
	// smooth(prevHourly, prevToday, prevRolled).
	prevToday  [24]float64
	prevHourly [24]float64
	prevRolled bool

	nodes []NodeView // per node: State, Since, IdleSince, LastFailed
}

// NewFeatures returns the feature state of a cluster of n nodes that
// starts at start (View.Start) in a time zone tzOffset seconds east of
// UTC, every node Idle since start, as the simulator starts.
func NewFeatures(start int64, tzOffset int, n int) *Features {
	f := new(Features)
	f.Reset(start, tzOffset, n)
	return f
}

// Reset makes f as NewFeatures(start, tzOffset, n) does, keeping its
// buffers: it allocates nothing when f held n nodes or more before.
func (f *Features) Reset(start int64, tzOffset int, n int) {
	f.start, f.tz, f.now = start, int64(tzOffset), start
	f.nextRoll = nextMidnight(start, f.tz)
	if f.recent == nil {
		f.recent = make([]Arrival, 0, 2*RecentCap)
	}
	f.recent = f.recent[:0]
	f.today, f.hourly, f.rolled = [24]float64{}, [24]float64{}, false
	f.prevToday, f.prevHourly, f.prevRolled = [24]float64{}, [24]float64{}, false
	if cap(f.nodes) < n {
		f.nodes = make([]NodeView, n)
	}
	f.nodes = f.nodes[:n]
	for i := range f.nodes {
		f.nodes[i] = NodeView{ID: i, State: Idle, Since: start, IdleSince: start, LastFailed: NoTime}
	}
}

// Now is the latest time fed (by Advance, Submitted or NodeChanged):
// View.Now after Fill.
func (f *Features) Now() int64 { return f.now }

// Start is View.Start.
func (f *Features) Start() int64 { return f.start }

// NextRoll is the first local midnight after Now: the next time at which
// View.HourlySlots changes with no event.
func (f *Features) NextRoll() int64 { return f.nextRoll }

// Nodes is the number of nodes f tracks.
func (f *Features) Nodes() int { return len(f.nodes) }

// Advance moves the clock to t, closing every local midnight up to and
// including t: each enters HourlySlots (a midnight with no submission
// smooths towards zero). A t before Now changes nothing.
func (f *Features) Advance(t int64) {
	for t >= f.nextRoll {
		f.roll()
	}
	f.now = max(f.now, t)
}

// roll closes the local day that ends at nextRoll.
func (f *Features) roll() {
	f.prevToday, f.prevHourly, f.prevRolled = f.today, f.hourly, f.rolled
	smooth(&f.hourly, &f.today, f.rolled)
	f.rolled = true
	f.today = [24]float64{}
	f.nextRoll += day
}

// smooth takes a day's hourly submissions into h; the first day
// (rolled false) is taken as it is. Both a midnight and a late
// submission's correction use it, so they round alike.
func smooth(h, today *[24]float64, rolled bool) {
	for k := range h {
		if rolled {
			h[k] += HourlySmoothing * (today[k] - h[k])
		} else {
			h[k] = today[k]
		}
	}
}

// Submitted records a job submission: a.Time is its submit time, a.Slots
// the slots it asks for, a.ReqTime its requested wall time (its run time
// when it has none). The clock first advances to a.Time. A submission
// before Now (a daemon learns of jobs at its next poll) takes its place in
// time order among the recent arrivals and enters the hourly counts of
// its own day: exactly when that day is today or the day before, not at
// all when it is older. Each job must be fed once; submissions at the same
// second are kept in the order fed.
func (f *Features) Submitted(a Arrival) {
	if a.Time < f.now {
		f.late(a)
		return
	}
	// In order, the simulator's case, written out: it runs for every job.
	// Every recorded arrival is at or before now, and now is today.
	if a.Time >= f.nextRoll {
		f.Advance(a.Time)
	}
	f.now = a.Time
	if r := f.recent; len(r) < cap(r) {
		f.recent = append(r, a)
	} else {
		f.addRecent(a)
	}
	f.today[f.localHour(a.Time)] += float64(a.Slots)
}

// late records a submission before now: in time order among the recent
// arrivals, and in today's counts or, when it is of the day before, in
// that day's, which is then taken into HourlySlots again as its midnight
// would have with the submission.
func (f *Features) late(a Arrival) {
	f.addRecent(a)
	switch dayStart := f.nextRoll - day; {
	case a.Time >= dayStart:
		f.today[f.localHour(a.Time)] += float64(a.Slots)
	case a.Time >= dayStart-day && f.rolled:
		f.prevToday[f.localHour(a.Time)] += float64(a.Slots)
		f.hourly = f.prevHourly
		smooth(&f.hourly, &f.prevToday, f.prevRolled)
	}
}

// addRecent inserts a after the arrivals at or before a.Time, dropping
// the oldest when the buffer is full (only the last RecentCap are seen).
func (f *Features) addRecent(a Arrival) {
	r := f.recent
	if len(r) == cap(r) && len(r) >= RecentCap {
		r = r[:copy(r, r[len(r)-RecentCap+1:])]
	}
	k := len(r)
	for k > 0 && r[k-1].Time > a.Time {
		k--
	}
	r = append(r, Arrival{})
	copy(r[k+1:], r[k:])
	r[k] = a
	f.recent = r
}

func (f *Features) localHour(t int64) int {
	return int(floorMod(t+f.tz, day) / 3600)
}

func nextMidnight(t, tz int64) int64 {
	local := t + tz
	return local - floorMod(local, day) + day - tz
}

func floorMod(a, b int64) int64 {
	m := a % b
	if m < 0 {
		m += b
	}
	return m
}

// Recent is View.Recent: the last RecentCap arrivals, oldest first. The
// slice is f's, valid until the next Submitted.
func (f *Features) Recent() []Arrival {
	return f.recent[max(0, len(f.recent)-RecentCap):]
}

// HourlySlots is View.HourlySlots.
func (f *Features) HourlySlots() [24]float64 { return f.hourly }

// NodeChanged records that node i is in state s since t. A node already
// in s keeps its times (a daemon may report every node at every poll);
// otherwise it enters s at t by NodeView.Enter. Like every event it
// moves the clock to t (Advance). It panics if i is not a node of f.
func (f *Features) NodeChanged(i int, s NodeState, t int64) {
	f.Advance(t)
	if n := &f.nodes[i]; n.State != s {
		n.Enter(s, t)
	}
}

// Enter moves n into state s at time t: Since becomes t, IdleSince too
// when s is Idle, and LastFailed when a booting node returns to Off (its
// boot failed). The simulator and Features both change node states
// through it.
func (n *NodeView) Enter(s NodeState, t int64) {
	if s == Off && n.State == Booting {
		n.LastFailed = t
	}
	n.State, n.Since = s, t
	if s == Idle {
		n.IdleSince = t
	}
}

// Node is what f knows of node i: its State, Since, IdleSince and
// LastFailed (the other fields are zero but ID).
func (f *Features) Node(i int) NodeView { return f.nodes[i] }

// Fill sets the fields of v that f owns — Now, Start, TZOffset, Recent,
// HourlySlots, and each node's State, Since, IdleSince and LastFailed —
// then recounts the summary counts and IdleLRU from v's nodes and queue
// (Recount). The caller sets the rest: Groups, Period, Queue, Running,
// and each node's ID, Name, Group, Slots, BusySlots, SleepLevel and Freq.
// v.Recent shares f's buffer (see Recent). It panics if v has not as many
// nodes as f.
func (f *Features) Fill(v *View) {
	if len(v.Nodes) != len(f.nodes) {
		panic(fmt.Sprintf("policy: Features.Fill: view has %d nodes, features %d", len(v.Nodes), len(f.nodes)))
	}
	v.Now, v.Start, v.TZOffset = f.now, f.start, int(f.tz)
	v.Recent = f.Recent()
	v.HourlySlots = f.hourly
	for i := range v.Nodes {
		n, m := &v.Nodes[i], &f.nodes[i]
		n.State, n.Since, n.IdleSince, n.LastFailed = m.State, m.Since, m.IdleSince, m.LastFailed
	}
	v.Recount()
}

// featuresJSON is the JSON form of Features.
type featuresJSON struct {
	Version    int            `json:"version"`
	Start      int64          `json:"start"`
	TZOffset   int64          `json:"tz_offset_s"`
	Now        int64          `json:"now"`
	Recent     []StateArrival `json:"recent"`
	Today      [24]float64    `json:"today"`
	Hourly     [24]float64    `json:"hourly_slots"`
	Rolled     bool           `json:"rolled"`
	PrevToday  [24]float64    `json:"prev_today"`
	PrevHourly [24]float64    `json:"prev_hourly_slots"`
	PrevRolled bool           `json:"prev_rolled"`
	Nodes      []featureNode  `json:"nodes"`
}

type featureNode struct {
	State      string `json:"state"`
	Since      int64  `json:"since"`
	IdleSince  int64  `json:"idle_since"`
	LastFailed *int64 `json:"last_failed,omitempty"`
}

// MarshalJSON writes f's JSON form: {"version": 1, ...}, with the last
// RecentCap arrivals.
func (f *Features) MarshalJSON() ([]byte, error) {
	j := featuresJSON{Version: FeaturesVersion, Start: f.start, TZOffset: f.tz, Now: f.now,
		Recent: []StateArrival{}, Today: f.today, Hourly: f.hourly, Rolled: f.rolled,
		PrevToday: f.prevToday, PrevHourly: f.prevHourly, PrevRolled: f.prevRolled, Nodes: []featureNode{}}
	for _, a := range f.Recent() {
		j.Recent = append(j.Recent, StateArrival(a))
	}
	for i := range f.nodes {
		n := &f.nodes[i]
		fn := featureNode{State: n.State.String(), Since: n.Since, IdleSince: n.IdleSince}
		if n.LastFailed != NoTime {
			t := n.LastFailed
			fn.LastFailed = &t
		}
		j.Nodes = append(j.Nodes, fn)
	}
	return json.Marshal(j)
}

var errFeaturesVersion = errors.New("unsupported version")

// UnmarshalJSON reads what MarshalJSON wrote (unknown fields are errors);
// on error f is unchanged. The error names the offending field.
func (f *Features) UnmarshalJSON(data []byte) error {
	var j featuresJSON
	if err := decodeStrict(data, &j); err != nil {
		return fmt.Errorf("features: %w", err)
	}
	if j.Version != FeaturesVersion {
		return fmt.Errorf("features: version: %d: %w (want %d)", j.Version, errFeaturesVersion, FeaturesVersion)
	}
	if j.Now < j.Start {
		return fmt.Errorf("features: now: %d is before start (%d)", j.Now, j.Start)
	}
	if len(j.Recent) > RecentCap {
		return fmt.Errorf("features: recent: %d arrivals, at most %d", len(j.Recent), RecentCap)
	}
	g := Features{start: j.Start, tz: j.TZOffset, now: j.Now, nextRoll: nextMidnight(j.Now, j.TZOffset),
		today: j.Today, hourly: j.Hourly, rolled: j.Rolled,
		prevToday: j.PrevToday, prevHourly: j.PrevHourly, prevRolled: j.PrevRolled,
		recent: make([]Arrival, 0, 2*RecentCap), nodes: make([]NodeView, len(j.Nodes))}
	for i, a := range j.Recent {
		if a.Time > j.Now || (i > 0 && a.Time < j.Recent[i-1].Time) || a.Slots < 1 {
			return fmt.Errorf("features: recent[%d]: want slots ≥ 1 and times in order up to now (%d)", i, j.Now)
		}
		g.recent = append(g.recent, Arrival(a))
	}
	for i, n := range j.Nodes {
		s, ok := stateNames[n.State]
		if !ok {
			return fmt.Errorf("features: nodes[%d].state: %q, want off, booting, idle, busy or shutting-down", i, n.State)
		}
		if n.Since > j.Now || n.IdleSince > j.Now {
			return fmt.Errorf("features: nodes[%d]: since %d or idle_since %d after now (%d)", i, n.Since, n.IdleSince, j.Now)
		}
		g.nodes[i] = NodeView{ID: i, State: s, Since: n.Since, IdleSince: n.IdleSince, LastFailed: NoTime}
		if n.LastFailed != nil {
			g.nodes[i].LastFailed = *n.LastFailed
		}
	}
	*f = g
	return nil
}
