package slurm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Node is one node as sinfo --json (or scontrol show node) reports it.
type Node struct {
	Name       string
	State      NodeState
	CPUs       int
	AllocCPUs  int
	IdleCPUs   int
	Partitions []string
	Reason     string
	Hostname   string
	Address    string
	Port       int
	// BootTime, SlurmdStartTime and LastBusy are zero when Slurm has none.
	BootTime        time.Time
	SlurmdStartTime time.Time
	LastBusy        time.Time
}

// ReasonPowerDownASAP is the reason Slurm 22.05 gives a node it drains for
// `state=power_down_asap`.
const ReasonPowerDownASAP = "POWER_DOWN_ASAP"

// Power classifies the node for power management: its state's class
// (NodeState.Power), except that a node Slurm drains only to power it down
// once its jobs end is PowerDownRequested, not unavailable. Slurm 22.05
// carries out `state=power_down_asap` as DRAIN + POWER_DOWN with reason
// POWER_DOWN_ASAP (measured: draining! = allocated+DRAIN+POWER_DOWN while
// the job runs, then drained! = idle+DRAIN+POWER_DOWN, idle%, idle~); a
// node an administrator drained keeps its own reason and stays unavailable.
func (n Node) Power() PowerClass {
	c := n.State.Power()
	s := n.State
	if c == PowerUnavailable && n.Reason == ReasonPowerDownASAP && len(s.Unknown) == 0 &&
		s.Flags.Has(FlagDrain|FlagPowerDown) && s.Flags&(unavailableFlags&^FlagDrain|FlagNotResponding) == 0 &&
		(s.Base == BaseIdle || s.Base == BaseAllocated || s.Base == BaseMixed) {
		return PowerDownRequested
	}
	return c
}

// Job is one job as squeue --json (or squeue's text) reports it.
type Job struct {
	ID int64
	// ArrayJobID is the array's job id for an array task, else 0;
	// ArrayTaskID the task's index, or -1 when the job is no array task.
	ArrayJobID  int64
	ArrayTaskID int64
	// ArrayTasks is, for a pending array record that stands for tasks not
	// yet split off, their index expression ("5-6", "1-9:2%4"), else "".
	// Instances is how many jobs the record stands for: the number of those
	// tasks, or 1.
	ArrayTasks string
	Instances  int
	Name       string
	User       string
	Partition  string
	// State is Slurm's job state name (PENDING, RUNNING, CONFIGURING,
	// COMPLETING, COMPLETED, CANCELLED, ...); Phase groups it.
	State  string
	Reason string
	// CPUs and NodeCount are what the job asked for while pending and what
	// it holds once it runs.
	CPUs      int
	NodeCount int
	// NodeList is Slurm's hostlist of the job's nodes ("" while pending);
	// Nodes the same expanded.
	NodeList string
	Nodes    []string
	// SubmitTime is when the job was submitted; StartTime when it started
	// or, while pending, Slurm's estimate (zero if none); EndTime when it
	// ended or is expected to end (its time limit), zero if none.
	SubmitTime time.Time
	StartTime  time.Time
	EndTime    time.Time
	// TimeLimit is the job's wall-time limit; 0 means none (UNLIMITED).
	TimeLimit    time.Duration
	RestartCount int
}

// JobPhase groups job states by what they mean for the nodes.
type JobPhase uint8

// The job phases.
const (
	// JobOther: a state this package does not know.
	JobOther JobPhase = iota
	// JobPending: waiting for nodes (PENDING, REQUEUED, held...).
	JobPending
	// JobRunning: holds nodes (RUNNING, CONFIGURING, COMPLETING, SUSPENDED...).
	JobRunning
	// JobFinished: ended; squeue still lists it until MinJobAge.
	JobFinished
)

var jobPhaseNames = [...]string{"other", "pending", "running", "finished"}

func (p JobPhase) String() string {
	if int(p) < len(jobPhaseNames) {
		return jobPhaseNames[p]
	}
	return "other"
}

// JobPhaseOf groups a job state name.
func JobPhaseOf(state string) JobPhase {
	switch strings.ToUpper(state) {
	case "PENDING", "REQUEUED", "REQUEUE_FED", "REQUEUE_HOLD", "RESV_DEL_HOLD", "SPECIAL_EXIT":
		return JobPending
	case "RUNNING", "CONFIGURING", "COMPLETING", "SUSPENDED", "RESIZING", "SIGNALING",
		"STAGE_OUT", "STOPPED", "POWER_UP_NODE", "UPDATE_DB":
		return JobRunning
	case "COMPLETED", "CANCELLED", "FAILED", "TIMEOUT", "NODE_FAIL", "PREEMPTED",
		"BOOT_FAIL", "DEADLINE", "OUT_OF_MEMORY", "REVOKED":
		return JobFinished
	}
	return JobOther
}

// Phase groups the job's state.
func (j Job) Phase() JobPhase { return JobPhaseOf(j.State) }

// jsonNum reads a number as the openapi plugins write it: a plain number,
// null (not set), or, from v0.0.39 on, {"set": b, "infinite": b, "number": n}.
type jsonNum struct {
	v        float64
	set, inf bool
}

func (n *jsonNum) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || string(b) == "null" {
		*n = jsonNum{}
		return nil
	}
	if b[0] == '{' {
		return n.unmarshalObject(b)
	}
	if b[0] == '"' { // numbers written as strings by some plugins
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		if s == "" {
			*n = jsonNum{}
			return nil
		}
		b = []byte(s)
	}
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Errorf("%s is not a number", b)
	}
	*n = jsonNum{v: v, set: true}
	return nil
}

// unmarshalObject reads the {"set", "infinite", "number"} form: the number
// is set when set is true or absent, infinite is false and number is set.
func (n *jsonNum) unmarshalObject(b []byte) error {
	var o struct {
		Set      *bool    `json:"set"`
		Infinite bool     `json:"infinite"`
		Number   *jsonNum `json:"number"`
	}
	if err := json.Unmarshal(b, &o); err != nil {
		return err
	}
	*n = jsonNum{inf: o.Infinite}
	if o.Number != nil {
		n.v = o.Number.v
	}
	n.set = (o.Set == nil || *o.Set) && !o.Infinite && o.Number != nil && o.Number.set
	return nil
}

// int returns the number as an int, 0 when unset, infinite or out of range.
func (n jsonNum) int() int {
	if !n.set || n.v < math.MinInt32 || n.v > math.MaxInt32 {
		return 0
	}
	return int(n.v)
}

func (n jsonNum) int64() int64 {
	if !n.set || n.v < -1<<53 || n.v > 1<<53 {
		return 0
	}
	return int64(n.v)
}

// unix returns the number as a Unix time; zero when unset or 0.
func (n jsonNum) unix() time.Time {
	s := n.int64()
	if s <= 0 || s > 1<<40 {
		return time.Time{}
	}
	return time.Unix(s, 0).UTC()
}

// jsonStrings reads a string or a list of strings.
type jsonStrings []string

func (s *jsonStrings) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		*s = nil
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		var one string
		if err := json.Unmarshal(b, &one); err != nil {
			return err
		}
		*s = jsonStrings{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return err
	}
	*s = many
	return nil
}

type jsonMeta struct {
	Plugin struct {
		Type string `json:"type"`
	} `json:"plugin"`
}

type jsonError struct {
	Error       string  `json:"error"`
	Description string  `json:"description"`
	Errno       jsonNum `json:"errno"`
	Source      string  `json:"source"`
}

// checkErrors turns a reply's "errors" list into one error.
func checkErrors(what string, raw json.RawMessage) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil {
		return fmt.Errorf("%s: field errors: %v", what, err)
	}
	var msgs []string
	for _, item := range list {
		var e jsonError
		if err := json.Unmarshal(item, &e); err != nil {
			var s string
			if json.Unmarshal(item, &s) != nil {
				return fmt.Errorf("%s: field errors: %v", what, err)
			}
			msgs = append(msgs, s)
			continue
		}
		m := strings.TrimSpace(e.Error + " " + e.Description)
		if e.Errno.set {
			m += fmt.Sprintf(" (errno %d)", e.Errno.int())
		}
		msgs = append(msgs, m)
	}
	if len(msgs) > 0 {
		return fmt.Errorf("%s: Slurm reported errors: %s", what, strings.Join(msgs, "; "))
	}
	return nil
}

type jsonNode struct {
	Name            string      `json:"name"`
	State           jsonStrings `json:"state"`
	StateFlags      []string    `json:"state_flags"`
	CPUs            jsonNum     `json:"cpus"`
	AllocCPUs       jsonNum     `json:"alloc_cpus"`
	IdleCPUs        jsonNum     `json:"idle_cpus"`
	Partitions      jsonStrings `json:"partitions"`
	Reason          string      `json:"reason"`
	Hostname        string      `json:"hostname"`
	Address         string      `json:"address"`
	Port            jsonNum     `json:"port"`
	BootTime        jsonNum     `json:"boot_time"`
	SlurmdStartTime jsonNum     `json:"slurmd_start_time"`
	LastBusy        jsonNum     `json:"last_busy"`
}

// ParseNodesJSON reads the output of `sinfo --json` (22.05: openapi
// v0.0.38, "state" a base name and "state_flags" a list; later versions:
// "state" one list of names). An error names the node (index and name) and
// the field; a non-empty "errors" list is an error.
func ParseNodesJSON(data []byte) ([]Node, error) {
	var top struct {
		Meta   jsonMeta          `json:"meta"`
		Errors json.RawMessage   `json:"errors"`
		Nodes  []json.RawMessage `json:"nodes"`
	}
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("sinfo --json: %v", err)
	}
	if err := checkErrors("sinfo --json", top.Errors); err != nil {
		return nil, err
	}
	if top.Nodes == nil {
		return nil, fmt.Errorf("sinfo --json: no \"nodes\" list")
	}
	out := make([]Node, 0, len(top.Nodes))
	for i, raw := range top.Nodes {
		var jn jsonNode
		if err := json.Unmarshal(raw, &jn); err != nil {
			return nil, fmt.Errorf("sinfo --json: node %d: %v", i, err)
		}
		if jn.Name == "" {
			return nil, fmt.Errorf("sinfo --json: node %d: field name is empty", i)
		}
		var st NodeState
		if len(jn.State) == 1 && jn.StateFlags != nil {
			st = ParseNodeState(jn.State[0], jn.StateFlags)
		} else {
			st = ParseNodeState("", append(append([]string(nil), jn.State...), jn.StateFlags...))
		}
		out = append(out, Node{
			Name:            jn.Name,
			State:           st,
			CPUs:            jn.CPUs.int(),
			AllocCPUs:       jn.AllocCPUs.int(),
			IdleCPUs:        jn.IdleCPUs.int(),
			Partitions:      []string(jn.Partitions),
			Reason:          jn.Reason,
			Hostname:        jn.Hostname,
			Address:         jn.Address,
			Port:            jn.Port.int(),
			BootTime:        jn.BootTime.unix(),
			SlurmdStartTime: jn.SlurmdStartTime.unix(),
			LastBusy:        jn.LastBusy.unix(),
		})
	}
	return out, nil
}

type jsonJob struct {
	JobID        jsonNum     `json:"job_id"`
	ArrayJobID   jsonNum     `json:"array_job_id"`
	ArrayTaskID  jsonNum     `json:"array_task_id"`
	ArrayTasks   string      `json:"array_task_string"`
	Name         string      `json:"name"`
	UserName     string      `json:"user_name"`
	Partition    string      `json:"partition"`
	JobState     jsonStrings `json:"job_state"`
	StateReason  string      `json:"state_reason"`
	CPUs         jsonNum     `json:"cpus"`
	NodeCount    jsonNum     `json:"node_count"`
	Nodes        string      `json:"nodes"`
	SubmitTime   jsonNum     `json:"submit_time"`
	StartTime    jsonNum     `json:"start_time"`
	EndTime      jsonNum     `json:"end_time"`
	TimeLimit    jsonNum     `json:"time_limit"`
	RestartCount jsonNum     `json:"restart_cnt"`
}

// ParseJobsJSON reads the output of `squeue --json` (22.05: openapi
// v0.0.38): every job Slurm still knows, finished ones included until
// MinJobAge. An error names the job (index and id) and the field.
func ParseJobsJSON(data []byte) ([]Job, error) {
	var top struct {
		Meta   jsonMeta          `json:"meta"`
		Errors json.RawMessage   `json:"errors"`
		Jobs   []json.RawMessage `json:"jobs"`
	}
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("squeue --json: %v", err)
	}
	if err := checkErrors("squeue --json", top.Errors); err != nil {
		return nil, err
	}
	if top.Jobs == nil {
		return nil, fmt.Errorf("squeue --json: no \"jobs\" list")
	}
	out := make([]Job, 0, len(top.Jobs))
	for i, raw := range top.Jobs {
		var jj jsonJob
		if err := json.Unmarshal(raw, &jj); err != nil {
			return nil, fmt.Errorf("squeue --json: job %d: %v", i, err)
		}
		j, err := jj.job(i)
		if err != nil {
			return nil, err
		}
		out = append(out, j)
	}
	return out, nil
}

// job converts jj, job i of the list, to a Job.
func (jj *jsonJob) job(i int) (Job, error) {
	id := jj.JobID.int64()
	if id <= 0 {
		return Job{}, fmt.Errorf("squeue --json: job %d: field job_id: missing or not positive", i)
	}
	if len(jj.JobState) == 0 || jj.JobState[0] == "" {
		return Job{}, fmt.Errorf("squeue --json: job %d (id %d): field job_state is empty", i, id)
	}
	nodes, err := ExpandHostlist(jj.Nodes)
	if err != nil {
		return Job{}, fmt.Errorf("squeue --json: job %d (id %d): field nodes: %v", i, id, err)
	}
	task := int64(-1)
	if jj.ArrayTaskID.set {
		task = jj.ArrayTaskID.int64()
	}
	instances, err := countArrayTasks(jj.ArrayTasks)
	if err != nil {
		return Job{}, fmt.Errorf("squeue --json: job %d (id %d): field array_task_string: %v", i, id, err)
	}
	limit := time.Duration(0)
	if m := jj.TimeLimit.int64(); m > 0 && m < 1<<31 {
		limit = time.Duration(m) * time.Minute
	}
	return Job{
		ID:           id,
		ArrayJobID:   jj.ArrayJobID.int64(),
		ArrayTaskID:  task,
		ArrayTasks:   jj.ArrayTasks,
		Instances:    instances,
		Name:         jj.Name,
		User:         jj.UserName,
		Partition:    jj.Partition,
		State:        jsonJobState(jj.JobState),
		Reason:       jj.StateReason,
		CPUs:         jj.CPUs.int(),
		NodeCount:    jj.NodeCount.int(),
		NodeList:     jj.Nodes,
		Nodes:        nodes,
		SubmitTime:   jj.SubmitTime.unix(),
		StartTime:    jj.StartTime.unix(),
		EndTime:      jj.EndTime.unix(),
		TimeLimit:    limit,
		RestartCount: jj.RestartCount.int(),
	}, nil
}

// jsonJobState returns the state of a job_state list, which is not empty:
// its base state, or its last flag that names the phase better.
func jsonJobState(states []string) string {
	state := strings.ToUpper(states[0])
	// Later versions list base and flags; a flag such as CONFIGURING or
	// COMPLETING names the phase better than RUNNING or COMPLETED.
	for _, s := range states[1:] {
		switch u := strings.ToUpper(s); u {
		case "CONFIGURING", "COMPLETING", "REQUEUED", "RESIZING", "SIGNALING", "STAGE_OUT", "POWER_UP_NODE":
			state = u
		}
	}
	return state
}

// maxArrayTasks bounds the tasks one array expression may count, as Slurm's
// MaxArraySize does (its largest allowed value is 4000001).
const maxArrayTasks = 4000001

// countArrayTasks counts the indices of a job array expression such as
// "1-3,5,7-15:2%4" ("%N" limits how many run at once and does not change the
// count); "" counts 1, a record that is a single job.
func countArrayTasks(expr string) (int, error) {
	if expr == "" {
		return 1, nil
	}
	body, _, _ := strings.Cut(expr, "%")
	total := 0
	for _, part := range strings.Split(body, ",") {
		rng, stepS, hasStep := strings.Cut(part, ":")
		loS, hiS, isRange := strings.Cut(rng, "-")
		lo, err := strconv.Atoi(loS)
		if err != nil || lo < 0 || lo > maxArrayTasks {
			return 0, fmt.Errorf("array index %q in %q", loS, expr)
		}
		hi := lo
		if isRange {
			if hi, err = strconv.Atoi(hiS); err != nil || hi < lo || hi > maxArrayTasks {
				return 0, fmt.Errorf("array range %q in %q", rng, expr)
			}
		}
		step := 1
		if hasStep {
			if step, err = strconv.Atoi(stepS); err != nil || step < 1 {
				return 0, fmt.Errorf("array step %q in %q", stepS, expr)
			}
		}
		total += (hi-lo)/step + 1
		if total > maxArrayTasks {
			return 0, fmt.Errorf("%q counts more than %d tasks", expr, maxArrayTasks)
		}
	}
	return total, nil
}
