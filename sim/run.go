package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/policy"
)

// EveryEvent as Options.Period consults the policy at every event time
// instead of on a fixed cycle.
const EveryEvent int64 = -1

// DefaultPeriod is the decision cycle when Options.Period is 0.
const DefaultPeriod int64 = 60

// rngStream is the second PCG seed word of boot-failure draws.
const rngStream = 0x5eed

// never is a time after every other.
const never int64 = math.MaxInt64

// stuckConsults is how many consecutive consultations that change nothing,
// with jobs waiting and nothing else pending, end a run with an error.
const stuckConsults = 100_000

// jobInfo is what the simulator needs of one trace job.
type jobInfo struct {
	submit int64
	run    int64 // logged run time at nominal speed
	est    int64 // run-time estimate the backfilling scheduler uses
	req    int64 // requested time shown to policies (run time when unknown)
	slots  int32
}

// allocation is where a running job runs: nodes[i] holds counts[i] of its
// slots. It also keeps the job's rank in start order (its key in the
// running list) and its slots, so that a job's end reads nothing per job
// but its allocation.
type allocation struct {
	nodes  []int
	counts []int32
	seq    int32
	slots  int32
}

// A Simulator replays one trace on one cluster. It keeps its buffers
// between runs, so repeated runs do not allocate; one Simulator must not
// run two policies at once (make one per goroutine).
type Simulator struct {
	tr     *datasets.Trace
	opt    Options
	period int64
	ticks  divisor // by period, when positive
	tIni   int64
	tz     int64
	easy   bool // a backfilling scheduler: EASY or conservative
	cons   bool // conservative backfilling

	jobs       []jobInfo
	queued     []policy.QueuedJob // each job as it enters the queue
	groups     []policy.Group
	nodeGroup  []int32
	nodeSlots  []int32
	names      []string
	totalSlots int
	hasFreqs   bool // some group has frequency levels
	oneSlot    bool // every node has one slot

	indexFrom, indexUntil int // queue lengths bounding EASY's candidate index

	future []policy.FutureJob // always-on replay, made on first need
	holds  []reservation      // the trace's advance reservations (reserve.go)

	st state // per-run state, reset by each Run
}

// state is everything one run changes. Its buffers survive between runs.
type state struct {
	now        int64
	view       policy.View
	dec        policy.Decision
	res        *Result
	placer     policy.Placer
	rng        *rand.Rand
	pcg        *rand.PCG
	events     endHeap           // job ends
	trans      []transitionQueue // boots and shutdowns, one queue per duration
	nextTrans  int64             // when the next transition ends, or never
	due        []uint64          // scratch: order keys of the transitions ending now
	queue      seqList[policy.QueuedJob]
	running    seqList[policy.RunningJob]
	ends       []endEntry       // EASY: running jobs by estimated end, latest first
	boots      bootEnds         // EASY: booting nodes by expected end
	expiries   expiries         // EASY: overrun estimates' expiry times
	plan       profile          // conservative: the free slots planned over time
	resv       []endEntry       // EASY: scratch for offReservation
	freeSet    bitset           // Idle or Busy nodes with a free slot (Slots − BusySlots in the view)
	idleList   idleList         // Idle nodes by IdleSince, then ID
	avail      int              // Σ free over Idle and Busy nodes
	level      []int32          // sleep level a shutting-down node is entering
	bootEnd    []int64          // when a booting node is expected up
	alloc      []allocation     // by allocation slot: the running jobs' (jobEnd.a)
	freeAlloc  []int32          // allocation slots not in use
	pools      [64][]allocation // free allocations by size class
	seq        int32
	cands      candidates // EASY: queued jobs by slots and estimate
	scanned    scanMemo   // EASY: what the last backfill scan found
	qslots     queueSlots // queued jobs by slots needed
	order      []int      // node order a Placer sorts
	acct       []groupAcct
	powered    int   // nodes in a powered state
	poweredS   int64 // Σ powered node-seconds up to poweredAt
	poweredAt  int64
	feat       policy.Features // arrivals and the hourly history (View.Recent, View.HourlySlots)
	nextRoll   int64           // feat.NextRoll(), kept for the loop
	indexed    bool            // EASY keeps queued jobs in cands (the queue is long)
	nextJob    int             // next job to submit
	nextSubmit int64           // its submit time, or never
	ended      int

	changed  bool  // the view changed since the policy was last consulted
	schedule bool  // something happened that may let a job start
	last     int64 // time of the last consultation
	wake     int64 // the Wake the last decision returned
	tick     int64 // the decision tick tickAtOrAfter found last
	wakeTick int64 // the next decision while the view is unchanged (wakeDecision)
	idle     int   // iterations with jobs waiting and nothing pending

	lastStep Step
}

// New prepares a replay of tr on c. It fails if a job needs more slots than
// the cluster has or the cluster is invalid.
// A cluster with partitions is replayed by a Partitioned instead.
func New(tr *datasets.Trace, c Cluster, opt Options) (*Simulator, error) {
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("sim: cluster: %w", err)
	}
	if len(c.Partitions) > 0 {
		return nil, fmt.Errorf("sim: cluster %q has %d partitions: replay it with NewPartitioned", c.Name, len(c.Partitions))
	}
	return newSimulator(tr, c, opt, true)
}

// newSimulator is New for a valid cluster; checkJobs checks the trace's
// jobs (a partition's, checked with the whole trace, may be none).
func newSimulator(tr *datasets.Trace, c Cluster, opt Options, checkJobs bool) (*Simulator, error) {
	s := &Simulator{tr: tr, opt: opt, tz: int64(tr.Meta.TZOffset), indexFrom: indexFrom, indexUntil: indexUntil}
	if err := s.setOptions(); err != nil {
		return nil, err
	}
	if checkJobs {
		if err := checkReplayJobs(tr, c.Slots()); err != nil {
			return nil, err
		}
	}
	s.setCluster(c)
	if err := s.setJobs(); err != nil {
		return nil, err
	}
	if err := s.setReservations(); err != nil {
		return nil, err
	}
	s.allocState()
	return s, nil
}

func (s *Simulator) setOptions() error {
	o := &s.opt
	switch o.Scheduler {
	case "", FCFS:
		o.Scheduler = FCFS
	case EASY:
		s.easy = true
	case Conservative:
		s.easy, s.cons = true, true
	default:
		return fmt.Errorf("sim: unknown scheduler %q (use %q, %q or %q)", o.Scheduler, FCFS, EASY, Conservative)
	}
	switch {
	case o.Period == 0:
		s.period = DefaultPeriod
	case o.Period > 0 || o.Period == EveryEvent:
		s.period = o.Period
	default:
		return fmt.Errorf("sim: period %d: must be positive, 0 (default %d s) or EveryEvent", o.Period, DefaultPeriod)
	}
	if s.period > 0 {
		s.ticks = newDivisor(s.period)
	}
	if !(o.BootFailProb >= 0 && o.BootFailProb < 1) {
		return fmt.Errorf("sim: boot failure probability %v: must be in [0, 1)", o.BootFailProb)
	}
	if o.BootTimeout < 0 || o.BootTimeout > datasets.MaxDuration {
		return fmt.Errorf("sim: boot timeout %d: must be in 0..%d (100 years)", o.BootTimeout, datasets.MaxDuration)
	}
	if s.period > datasets.MaxDuration {
		return fmt.Errorf("sim: period %d: more than the limit, %d s (100 years)", o.Period, datasets.MaxDuration)
	}
	return nil
}

func (s *Simulator) setCluster(c Cluster) {
	s.oneSlot = true
	for gi, g := range c.Groups {
		s.oneSlot = s.oneSlot && g.Slots == 1
		s.groups = append(s.groups, policy.Group{Name: g.Name, Count: g.Count, Slots: g.Slots, GFLOPS: g.GFLOPS, Model: g.Model})
		s.hasFreqs = s.hasFreqs || len(g.Model.Freqs) > 0
		width := len(strconv.Itoa(g.Count))
		for k := 1; k <= g.Count; k++ {
			s.nodeGroup = append(s.nodeGroup, int32(gi))
			s.nodeSlots = append(s.nodeSlots, int32(g.Slots))
			s.names = append(s.names, fmt.Sprintf("%s%0*d", g.Name, width, k))
			s.totalSlots += g.Slots
		}
	}
}

func (s *Simulator) setJobs() error {
	jobs := s.tr.Jobs // checked by checkReplayJobs
	s.jobs = make([]jobInfo, len(jobs))
	s.queued = make([]policy.QueuedJob, len(jobs))
	if len(jobs) > 0 {
		s.tIni = jobs[0].Submit
	}
	for i := range jobs {
		j := &jobs[i]
		info := jobInfo{submit: j.Submit, run: j.Run, est: j.Run, req: j.Run, slots: j.Procs}
		if j.ReqTime > 0 {
			info.req = j.ReqTime
			if !s.opt.UseRunTime {
				info.est = j.ReqTime
			}
		}
		s.jobs[i] = info
		s.queued[i] = policy.QueuedJob{ID: j.ID, Slots: int(j.Procs), Submit: j.Submit, ReqTime: info.req, User: j.User, Group: j.Group}
	}
	return nil
}

// allocState makes the per-run buffers whose size is known up front.
func (s *Simulator) allocState() {
	st := &s.st
	n := len(s.nodeSlots)
	st.view.Groups = s.groups
	st.view.Nodes = make([]policy.NodeView, n)
	st.freeSet = newBitset(n)
	st.idleList = newIdleList(n)
	st.level = make([]int32, n)
	st.bootEnd = make([]int64, n)
	st.order = make([]int, 0, n)
	st.qslots = newQueueSlots(s.totalSlots)
	if s.easy && !s.cons {
		st.cands = newCandidates(len(s.jobs))
	}
	st.acct = make([]groupAcct, len(s.groups))
	for g := range st.acct {
		st.acct[g].init(s.groups[g].Model)
	}
	st.pcg = rand.NewPCG(uint64(s.opt.Seed), rngStream)
	st.rng = rand.New(st.pcg)
}

// Run replays the trace under p and returns what happened. The Result is
// the caller's (it is not reused by the next Run).
func (s *Simulator) Run(p policy.Policy) (*Result, error) {
	r := new(Result)
	if err := s.RunInto(p, r); err != nil {
		return nil, err
	}
	return r, nil
}

// RunInto is Run writing into r, which it overwrites whole; it reuses the
// backing array of r.Jobs when that is large enough, so a caller that
// replays policy after policy and keeps only what it computes from each
// Result allocates nothing per replay. After an error r holds no result.
func (s *Simulator) RunInto(p policy.Policy, r *Result) error {
	if err := s.prepare(p, r); err != nil {
		return err
	}
	if err := s.replay(s.holdReservations(p), r); err != nil {
		return fmt.Errorf("sim: policy %s: %w", p.Name(), err)
	}
	return nil
}

// prepare tells a clairvoyant p the future and makes r ready for a run.
func (s *Simulator) prepare(p policy.Policy, r *Result) error {
	if cv, ok := p.(policy.Clairvoyant); ok {
		if err := s.makeFuture(); err != nil {
			return err
		}
		cv.SetFuture(s.future)
	}
	jobs := r.Jobs[:0]
	if cap(jobs) < len(s.jobs) {
		jobs = make([]JobRecord, len(s.jobs))
	} else {
		jobs = jobs[:len(s.jobs)] // each record is written whole at its job's submission
	}
	*r = Result{Jobs: jobs, Nodes: len(s.nodeSlots), Slots: s.totalSlots}
	if s.opt.Timeline {
		r.Timeline = &Timeline{NodeNames: append([]string(nil), s.names...)}
	}
	if s.opt.JobNodes {
		s.preparePlacements(r)
	}
	return nil
}

// Run is New followed by one Run.
func Run(tr *datasets.Trace, c Cluster, p policy.Policy, opt Options) (*Result, error) {
	s, err := New(tr, c, opt)
	if err != nil {
		return nil, err
	}
	return s.Run(p)
}

// makeFuture replays the trace always-on once and keeps every job's submit,
// start, end and slots for clairvoyant policies.
func (s *Simulator) makeFuture() error {
	if s.future != nil {
		return nil
	}
	r := &Result{Jobs: make([]JobRecord, len(s.jobs)), Nodes: len(s.nodeSlots), Slots: s.totalSlots}
	if err := s.replay(allOn{}, r); err != nil {
		return fmt.Errorf("sim: always-on replay for a clairvoyant policy: %w", err)
	}
	s.future = make([]policy.FutureJob, len(r.Jobs))
	for i, j := range r.Jobs {
		s.future[i] = policy.FutureJob{Submit: j.Submit, Start: j.Start, End: j.End, Slots: j.Slots}
	}
	return nil
}

// allOn keeps every node on; it replays the future for clairvoyant policies.
type allOn struct{}

func (allOn) Name() string { return "always-on" }

func (allOn) Decide(v *policy.View, d *policy.Decision) {
	for i := range v.Nodes {
		if v.Nodes[i].State == policy.Off {
			d.PowerOn = append(d.PowerOn, i)
		}
	}
}
