package policy

// NodeState is the power state of a node.
type NodeState uint8

// Node states. The order is part of the contract (timelines and Paraver
// files use these numbers).
const (
	Off          NodeState = iota // powered off, or asleep at View.Nodes[i].SleepLevel
	Booting                       // powering on; runs no job
	Idle                          // on, no busy slot
	Busy                          // on, at least one busy slot
	ShuttingDown                  // powering off (or entering a sleep level)
)

func (s NodeState) String() string {
	switch s {
	case Off:
		return "off"
	case Booting:
		return "booting"
	case Idle:
		return "idle"
	case Busy:
		return "busy"
	case ShuttingDown:
		return "shutting-down"
	}
	return "invalid"
}

// Powered reports whether the node draws more than its off power
// (booting, idle, busy, shutting down): state(i,t) = 1 in docs/architecture.md.
func (s NodeState) Powered() bool { return s != Off }

// NoTime marks a time that does not exist (never failed, never asked again).
const NoTime int64 = -1 << 62

// NodeView is what a policy sees of one node.
type NodeView struct {
	ID         int       // index in View.Nodes
	Name       string    // host name, e.g. "node017"
	Group      int       // index in View.Groups
	State      NodeState // power state
	Since      int64     // time the node entered State
	IdleSince  int64     // time the node last became idle (meaningful when State == Idle)
	Slots      int       // slots (cores) of the node
	BusySlots  int       // slots running jobs
	SleepLevel int       // 0 = power-off; >0 index+1 into the group's SleepLevels, when Off
	Freq       int       // index into the group's Freqs (0 = nominal)
	LastFailed int64     // time the last power command on this node failed, or NoTime
}

// QueuedJob is a job waiting to start.
type QueuedJob struct {
	ID      int64
	Slots   int
	Submit  int64
	ReqTime int64 // requested wall time (or run time when the log has none)
	User    string
	Group   string
}

// RunningJob is a job that has started.
type RunningJob struct {
	ID      int64
	Slots   int
	Start   int64
	ReqTime int64 // requested wall time (or run time when the log has none)
	Nodes   []int // nodes it runs on
}

// Arrival is one recent job submission.
type Arrival struct {
	Time    int64
	Slots   int
	ReqTime int64
}

// SleepLevel is one low-power state deeper than idle.
type SleepLevel struct {
	Name    string  `json:"name"`     // standby, suspend, hibernate, off
	W       float64 `json:"w"`        // residual power
	EnterS  int64   `json:"enter_s"`  // seconds to enter
	EnterWh float64 `json:"enter_wh"` // energy to enter
	ExitS   int64   `json:"exit_s"`   // seconds to leave (boot from it)
	ExitWh  float64 `json:"exit_wh"`  // energy to leave
}

// FreqLevel is one CPU frequency level.
type FreqLevel struct {
	Name  string  `json:"name"`   // e.g. "2.4GHz"
	SlotW float64 `json:"slot_w"` // W per busy slot at this level
	Speed float64 `json:"speed"`  // speed factor relative to nominal (1 = nominal); run time is divided by it
}

// NodeModel is the power model of a node group: W per state, seconds and
// Wh per transition. Off power is OffW; busy power is IdleW + BusyW +
// BusySlotW × busy slots.
type NodeModel struct {
	OffW        float64      `json:"off_w"`
	IdleW       float64      `json:"idle_w"`
	BusyW       float64      `json:"busy_w"`      // extra W when at least one slot is busy
	BusySlotW   float64      `json:"busy_slot_w"` // extra W per busy slot
	BootS       int64        `json:"boot_s"`
	BootWh      float64      `json:"boot_wh"`
	ShutdownS   int64        `json:"shutdown_s"`
	ShutdownWh  float64      `json:"shutdown_wh"`
	SleepLevels []SleepLevel `json:"sleep_levels,omitempty"` // optional, shallow to deep
	Freqs       []FreqLevel  `json:"freqs,omitempty"`        // optional, index 0 nominal
}

// BreakEven is Ts, the shortest idle gap for which switching a node off and
// on again saves energy: (E_on→off + E_off→on − P_off·(δ_on→off + δ_off→on)) / (P_idle − P_off), in seconds.
func (m NodeModel) BreakEven() float64 {
	if m.IdleW <= m.OffW {
		return 0
	}
	e := (m.ShutdownWh + m.BootWh) * 3600
	return (e - m.OffW*float64(m.ShutdownS+m.BootS)) / (m.IdleW - m.OffW)
}

// Group is a node group as policies see it.
type Group struct {
	Name   string    `json:"name"`
	Count  int       `json:"count"`
	Slots  int       `json:"slots"`
	GFLOPS float64   `json:"gflops,omitempty"` // per node, for efficiency ordering (0 = unknown)
	Model  NodeModel `json:"model"`
}

// View is the cluster as a policy sees it at one decision. The simulator
// owns it and updates it in place: a policy must not keep references to
// its slices after Decide returns.
type View struct {
	Now      int64 // Unix seconds
	Start    int64 // time the trace (or the daemon) started
	TZOffset int   // seconds east of UTC, for hour-of-day features
	Period   int64 // decision cycle in seconds
	Groups   []Group
	Nodes    []NodeView
	Queue    []QueuedJob  // in scheduler order
	Running  []RunningJob // in start order
	Recent   []Arrival    // last arrivals, oldest first (at most RecentCap)
	// HourlySlots[h] is an exponentially smoothed count of slots submitted
	// in hour h of the (local) day over past days.
	HourlySlots [24]float64

	// Summary counts, kept by the simulator so policies need not scan Nodes.
	TotalSlots   int
	PoweredSlots int // slots of booting, idle, busy nodes (not shutting down)
	BusySlots    int
	BootingSlots int
	QueuedSlots  int
	// QueuedSubmitSum is the sum of the queued jobs' Submit times: with
	// len(Queue) it gives the mean queue wait at any time without a scan.
	QueuedSubmitSum int64

	// Node counts by state and the earliest IdleSince of the Idle nodes
	// (NoTime when none is idle), kept like the slot counts: a policy
	// finds at once whether any node is off, or any idle timeout is due.
	OffNodes     int
	BootingNodes int
	IdleNodes    int
	EarliestIdle int64
	// IdleLRU lists the Idle nodes least recently idle first (IdleSince,
	// then ID): the nodes idle for at least x seconds are a prefix of it.
	IdleLRU []int
}

// RecentCap is the most arrivals View.Recent holds.
const RecentCap = 256

// NodeCommand asks for one node to change power state.
type NodeCommand struct {
	Node  int
	Level int // for PowerOff: 0 = power-off, k>0 = sleep level k-1
}

// FreqCommand sets a node's CPU frequency level.
type FreqCommand struct {
	Node  int
	Level int
}

// Decision is what a policy asks for. The simulator resets it (keeping
// capacity) before each call, so a policy appends without allocating.
type Decision struct {
	PowerOn  []int         // nodes to boot (must be Off)
	PowerOff []NodeCommand // nodes to switch off or put to sleep (must be Idle)
	Freq     []FreqCommand
	// Wake is the earliest time at which, with no event in between, the
	// policy's decision could differ (an idle timeout expiring, a mean wait
	// crossing a threshold). NoTime: only on the next event.
	Wake int64
}

// Reset empties d, keeping capacity.
func (d *Decision) Reset() {
	d.PowerOn = d.PowerOn[:0]
	d.PowerOff = d.PowerOff[:0]
	d.Freq = d.Freq[:0]
	d.Wake = NoTime
}

// A Policy decides power states. It is pure: the same View gives the same
// Decision. It may keep scratch buffers, so one value must not be used by
// two goroutines at once; New makes independent values.
type Policy interface {
	Name() string
	Decide(v *View, d *Decision)
}

// A Quiet policy can tell cheaply when its decision would be empty, so
// that a simulator may skip Decide and the View work only Decide needs.
// Quiet(v) true promises that Decide(v, d) would append no command and
// leave d.Wake at NoTime, and that Quiet stays true while only time
// passes (for v with any later Now): a simulator then need not consult
// the policy again before something else changes. Quiet must not read
// v.IdleLRU or v.EarliestIdle, which may be stale when it is called;
// like Decide it is pure. A policy that is never quiet need not
// implement it.
type Quiet interface {
	Quiet(v *View) bool
}

// A Placer is a policy that also orders candidate nodes for job placement
// (frequency-scaling and packing policies). The simulator places a job on
// the first nodes of the returned order that have free slots.
type Placer interface {
	Place(v *View, job *QueuedJob, candidates []int)
}

// A Clairvoyant policy is told the future before the run (oracle,
// clairvoyant break-even): never deployable, a bound.
type Clairvoyant interface {
	SetFuture(jobs []FutureJob)
}

// FutureJob is one job as a clairvoyant policy knows it in advance.
type FutureJob struct {
	Submit int64
	Start  int64 // start time under always-on (the oracle keeps it)
	End    int64
	Slots  int
}
