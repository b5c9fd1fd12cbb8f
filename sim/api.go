package sim

import "github.com/ecotune/ecotune/policy"

// NodeGroup is a set of identical nodes.
type NodeGroup struct {
	Name   string           `json:"name" yaml:"name"` // name prefix of its hosts
	Count  int              `json:"count" yaml:"count"`
	Slots  int              `json:"slots" yaml:"slots"`
	GFLOPS float64          `json:"gflops,omitempty" yaml:"gflops,omitempty"`
	Model  policy.NodeModel `json:"model" yaml:"model"`
}

// Cluster is the machine a trace is replayed on.
type Cluster struct {
	Name   string      `json:"name,omitempty" yaml:"name,omitempty"`
	Groups []NodeGroup `json:"groups" yaml:"groups"`
	// Partitions split the node groups into independent scheduling
	// domains, each with its own queue (see Partitioned); none is one
	// partition of every node taking every job.
	Partitions []Partition `json:"partitions,omitempty" yaml:"partitions,omitempty"`
}

// Partition is a set of node groups with its own FIFO queue, scheduler
// and policy instance: the jobs of its queues run on its nodes only.
type Partition struct {
	Name   string   `json:"name" yaml:"name"`
	Groups []string `json:"groups" yaml:"groups"` // node group names
	// Queues are the queue (SWF field 15, Slurm's Partition, the PBS,
	// SGE, LSF or OAR queue) or partition (SWF field 16) names of the jobs
	// it takes; none means its own name.
	Queues []string `json:"queues,omitempty" yaml:"queues,omitempty"`
	// Default takes the jobs whose queue no partition lists (at most one
	// partition); without one such a job is an input error.
	Default bool `json:"default,omitempty" yaml:"default,omitempty"`
	// Priority orders partitions that share nodes; disjoint partitions,
	// the only kind supported, never compete, so it changes nothing yet.
	Priority int `json:"priority,omitempty" yaml:"priority,omitempty"`
	// Shared marks a partition whose nodes other partitions may use too:
	// not supported (refused by Validate).
	Shared bool `json:"shared,omitempty" yaml:"shared,omitempty"`
}

// Scheduler names.
const (
	FCFS         = "fcfs"
	EASY         = "easy"
	Conservative = "conservative"
)

// DefaultScheduler is the scheduler of every command and form that
// replays a trace (simulate, compare, tune, the workbench's forms): EASY
// backfilling, as real sites run. Options' zero value (an empty
// Scheduler) stays FCFS, unlike it: run.json files written before the
// scheduler was recorded read an empty scheduler as FCFS, which is what
// they were tuned under.
const DefaultScheduler = EASY

// Options control one replay.
type Options struct {
	Scheduler string // FCFS (the zero value; see DefaultScheduler), EASY or Conservative
	// UseRunTime makes backfilling use the job's real run time instead of
	// its requested time.
	UseRunTime bool
	// Period is the decision cycle in seconds: 0 means DefaultPeriod
	// (60 s), EveryEvent consults the policy at every event time.
	Period int64
	// BootFailProb is the probability that a boot fails (seeded by Seed);
	// a failed boot is noticed after BootTimeout seconds (0: twice the
	// boot time).
	BootFailProb float64
	BootTimeout  int64
	Seed         int64
	Timeline     bool // record node-state changes and requested/powered slots
	JobNodes     bool // record where each job ran (Result.Placements)
	// LeanJobs leaves Result.Jobs nil: Result.Job gives the records,
	// made from 16 bytes a job (the start and end times) and the
	// simulator's jobs, instead of 40. For replays of millions of jobs.
	// It changes how results are held, not what they are, so it is left
	// out of the options' JSON (a run's fingerprint and plan).
	LeanJobs bool `json:"-"`
}

// JobRecord is what happened to one job.
type JobRecord struct {
	ID     int64
	Submit int64
	Start  int64
	End    int64
	Slots  int
}

// StateSeconds counts node-seconds spent in each power state.
type StateSeconds [5]int64 // indexed by policy.NodeState

// Result is the outcome of one replay. Times are Unix seconds.
type Result struct {
	Jobs  []JobRecord // in trace order
	TIni  int64       // min submit
	TEnd  int64       // max end
	Nodes int
	Slots int
	// PoweredNodeSeconds is Σ_i ∫ state(i,t) dt over [TIni, TEnd].
	PoweredNodeSeconds int64
	// OffNodeSeconds is Nodes·(TEnd−TIni) − PoweredNodeSeconds: energy saved as docs/architecture.md defines it.
	OffNodeSeconds int64
	// Reconfigurations counts power-ons plus power-offs within (TIni, TEnd).
	Reconfigurations int64
	Boots            int64
	Shutdowns        int64
	BootFailures     int64
	StateSeconds     StateSeconds // over [TIni, TEnd]
	BusySlotSeconds  int64
	EnergyWh         float64 // over [TIni, TEnd], states plus transitions
	// EnergyByState splits EnergyWh: Off (residual power, asleep included),
	// Idle, Busy (busy slots included), and the transition energies under
	// Booting and ShuttingDown.
	EnergyByState [5]float64
	// IgnoredCommands counts decisions' commands that did not apply: power
	// on a node that is not Off, power off a node that is not Idle, change
	// the frequency of a Busy node.
	IgnoredCommands  int64
	PeakPoweredNodes int
	Timeline         *Timeline // nil unless Options.Timeline
	// Placements holds where each job ran, in trace order, and NodeNames
	// and NodeSlots the nodes' host names and slots; nil unless
	// Options.JobNodes.
	Placements []Placement
	NodeNames  []string
	NodeSlots  []int32
	// Partitions holds each partition's share of a partitioned replay (in
	// the cluster's order) and JobPartition each job's partition, an index
	// into Partitions, in trace order; both nil when the cluster declares
	// no partitions.
	Partitions   []PartitionResult
	JobPartition []int32

	lean *leanJobs // the records with Options.LeanJobs
}

// PartitionResult is one partition's share of a partitioned replay: its
// nodes and jobs, and its accounting over the whole replay's [TIni, TEnd]
// (the Result's fields of the same names are these summed).
type PartitionResult struct {
	Name               string
	Nodes, Slots, Jobs int
	PoweredNodeSeconds int64
	OffNodeSeconds     int64
	Reconfigurations   int64
	Boots, Shutdowns   int64
	EnergyWh           float64
}

// leanJobs are the job records of a replay with Options.LeanJobs: the
// simulator's jobs (never changed after New) and the times the replay
// recorded.
type leanJobs struct {
	jobs       []jobInfo
	ids        jobIDs
	start, end []int64 // end only with frequency levels, else start + run
}

// NumJobs is the number of jobs replayed: len(r.Jobs), or with
// Options.LeanJobs the number of lean records.
func (r *Result) NumJobs() int {
	if r.lean != nil {
		return len(r.lean.start)
	}
	return len(r.Jobs)
}

// Job returns the record of job i, in trace order: r.Jobs[i], or with
// Options.LeanJobs the record made from the lean ones.
func (r *Result) Job(i int) JobRecord {
	if l := r.lean; l != nil {
		end := l.start[i] + int64(l.jobs[i].run)
		if l.end != nil {
			end = l.end[i]
		}
		return JobRecord{ID: l.ids.at(i), Submit: l.jobs[i].submit, Start: l.start[i], End: end, Slots: int(l.jobs[i].slots)}
	}
	return r.Jobs[i]
}

// Change is one node-state change.
type Change struct {
	Time  int64
	Node  int32
	State policy.NodeState
	// Level is the sleep level (0 power-off, k>0 the group's level k-1)
	// the node boots from (Booting), is entering (ShuttingDown) or is at
	// (Off); 0 otherwise.
	Level uint8
}

// Step is one point of the requested vs powered slots step function.
type Step struct {
	Time      int64
	Requested int // slots of running plus queued jobs
	Powered   int // slots of powered nodes
	Busy      int
}

// Timeline records what happened over time.
type Timeline struct {
	NodeNames []string
	Changes   []Change
	Steps     []Step
}
