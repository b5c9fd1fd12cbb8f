package sim

import (
	"fmt"
	"math"
	"math/bits"
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

// jobInfo is what the simulator needs of one trace job. The requested
// time shown to policies (run time when unknown) is est, except with
// Options.UseRunTime (see Simulator.req).
//
// Durations are uint32: they are at most datasets.MaxDuration (checked
// when the job is added), so that a job takes 24 bytes, not 32.
type jobInfo struct {
	submit int64
	run    uint32 // logged run time at nominal speed
	est    uint32 // run-time estimate the backfilling scheduler uses
	slots  int32
}

// Every duration fits in jobInfo's uint32 (a compile-time check).
const _ = uint32(datasets.MaxDuration)

// allocation is where a running job runs: nodes[i] holds counts[i] of
// its slots. seq is the job's rank in start order (its key in the running
// list).
type allocation struct {
	nodes  []int
	counts []int32
	seq    int32
}

// A Simulator replays one trace on one cluster. It keeps its buffers
// between runs, so repeated runs do not allocate; one Simulator must not
// run two policies at once (make one per goroutine).
type Simulator struct {
	opt    Options
	period int64
	ticks  divisor // by period, when positive
	tIni   int64
	tz     int64
	easy   bool // a backfilling scheduler: EASY or conservative
	cons   bool // conservative backfilling

	// The jobs: 32 + 12 bytes each (+ 8 with UseRunTime), the
	// trace's only copy a replay keeps.
	jobs       []jobInfo
	ids        jobIDs              // job IDs
	jobName    nameIndex           // index into jobNames
	jobNames   []datasets.JobNames // distinct user, group, queue, partition
	reqs       []int64             // requested times when they differ from est (UseRunTime), else nil
	name       string              // the trace's name
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
	quiet      policy.Quiet // the policy, if it can tell when it would do nothing
	idleLazy   bool         // idleList is not kept (see syncIdleLRU)
	wasQuiet   bool         // the policy was quiet when last asked (see skipQuiet)
	nodesLazy  bool         // idleLazy, and the view's nodes are not kept either (see takeBits)
	freedAt    []int64      // while nodesLazy: when each node last became idle
	rng        *rand.Rand
	pcg        *rand.PCG
	events     endHeap           // job ends
	trans      []transitionQueue // boots and shutdowns, one queue per duration
	nextTrans  int64             // when the next transition ends, or never
	due        []uint64          // scratch: order keys of the transitions ending now
	queue      seqList[policy.QueuedJob]
	running    seqList[policy.RunningJob]
	ends       []endEntry   // EASY: running jobs by estimated end, latest first
	boots      bootEnds     // EASY: booting nodes by expected end
	expiries   expiries     // EASY: overrun estimates' expiry times
	plan       profile      // conservative: the free slots planned over time
	resv       []endEntry   // EASY: scratch for offReservation
	freeSet    bitset       // Idle or Busy nodes with a free slot (Slots − BusySlots in the view)
	idleList   idleList     // Idle nodes by IdleSince, then ID
	avail      int          // Σ free over Idle and Busy nodes
	level      []int32      // sleep level a shutting-down node is entering
	bootEnd    []int64      // when a booting node is expected up
	alloc      []allocation // where running jobs run, by handle (each job end event holds its job's)
	freeAllocs [64][]int32  // handles of alloc not in use, by the size class of their buffers
	start, end []int64      // per job: when it started and ended (Result.Job); end only with frequencies (else start + run)
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
	return newSimulator(tr, c, opt, false)
}

// newSimulator is New for a valid cluster without partitions; a
// partition's simulator (allowEmpty) may have no job.
func newSimulator(tr *datasets.Trace, c Cluster, opt Options, allowEmpty bool) (*Simulator, error) {
	b, err := NewBuilder(tr.Meta, c, opt, len(tr.Jobs))
	if err != nil {
		return nil, err
	}
	for i := range tr.Jobs {
		if err := b.Add(&tr.Jobs[i]); err != nil {
			return nil, err
		}
	}
	return b.build(allowEmpty)
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

// req is job j's requested time as policies see it: its requested time,
// or its run time when the log has none.
func (s *Simulator) req(j int32) int64 {
	if s.reqs != nil {
		return s.reqs[j]
	}
	return int64(s.jobs[j].est)
}

// queuedJob sets q to job j as it enters the queue, field by field (q
// is the queue's own slot: no copy).
func (s *Simulator) queuedJob(j int32, q *policy.QueuedJob) {
	info := &s.jobs[j]
	names := &s.jobNames[s.jobName.at(int(j))]
	q.ID, q.Slots, q.Submit, q.ReqTime = s.ids.at(int(j)), int(info.slots), info.submit, s.req(j)
	q.User, q.Group = names.User, names.Group
}

// newAlloc returns a free allocation, empty, and its handle, for a job
// that starts now and spans up to span nodes. A handle keeps its node and
// count buffers, of a power-of-two size class, when its job ends: buffers
// never grow in place, so after the first runs a Run finds every
// allocation it needs among the free handles of its class.
func (s *Simulator) newAlloc(span int) (int32, *allocation) {
	st := &s.st
	class := bits.Len(uint(span - 1))
	free := st.freeAllocs[class]
	if len(free) == 0 {
		size := 1 << class
		counts := make([]int32, size)
		if s.oneSlot { // every count stays 1 (takeIdleLowest)
			for k := range counts {
				counts[k] = 1
			}
		}
		st.alloc = append(st.alloc, allocation{nodes: make([]int, 0, size), counts: counts[:0]})
		h := int32(len(st.alloc) - 1)
		return h, &st.alloc[h]
	}
	h := free[len(free)-1]
	st.freeAllocs[class] = free[:len(free)-1]
	return h, &st.alloc[h]
}

// freeAlloc takes back allocation h, whose job has ended, emptied.
func (s *Simulator) freeAlloc(h int32) {
	st := &s.st
	al := &st.alloc[h]
	al.nodes, al.counts = al.nodes[:0], al.counts[:0]
	class := bits.Len(uint(cap(al.nodes) - 1))
	st.freeAllocs[class] = append(st.freeAllocs[class], h)
}

// recordStart records that job j started now and runs run seconds.
func (s *Simulator) recordStart(j int32, run int64) {
	s.st.start[j] = s.st.now
	if s.st.end != nil {
		s.st.end[j] = s.st.now + run
	}
}

// jobEnd is when job j ended in the last replay.
func (s *Simulator) jobEnd(j int) int64 {
	if s.st.end != nil {
		return s.st.end[j]
	}
	return s.st.start[j] + int64(s.jobs[j].run)
}

// jobIDs are the jobs' IDs: nothing while each job's ID is its index
// + 1 (as in many logs), then 4 bytes each while every ID fits in an
// int32, else 8.
type jobIDs struct {
	n     int // IDs while they are 1..n
	small []int32
	large []int64
	room  int // how many IDs are expected (the capacity to give a column)
}

func (d *jobIDs) at(j int) int64 {
	switch {
	case d.large != nil:
		return d.large[j]
	case d.small != nil:
		return int64(d.small[j])
	}
	return int64(j) + 1
}

// fill sets the ID of each record, in job order.
func (d *jobIDs) fill(recs []JobRecord) {
	switch {
	case d.large != nil:
		for j, id := range d.large[:len(recs)] {
			recs[j].ID = id
		}
	case d.small != nil:
		for j, id := range d.small[:len(recs)] {
			recs[j].ID = int64(id)
		}
	default:
		for j := range recs {
			recs[j].ID = int64(j) + 1
		}
	}
}

func (d *jobIDs) add(id int64) {
	if d.small == nil && d.large == nil {
		if id == int64(d.n)+1 {
			d.n++
			return
		}
		d.small = make([]int32, d.n, max(d.room, d.n+1))
		for i := range d.small {
			d.small[i] = int32(i + 1)
		}
	}
	if d.large == nil && id == int64(int32(id)) {
		d.small = append(d.small, int32(id))
		return
	}
	if d.large == nil {
		d.large = make([]int64, len(d.small), max(d.room, len(d.small)+1))
		for i, v := range d.small {
			d.large[i] = int64(v)
		}
		d.small = nil
	}
	d.large = append(d.large, id)
}

// nameIndex holds each job's index into the distinct names: 2 bytes a
// job while there are at most 65,536 distinct names, else 4.
type nameIndex struct {
	small []uint16
	large []int32
}

func (x *nameIndex) at(j int) int32 {
	if x.large != nil {
		return x.large[j]
	}
	return int32(x.small[j])
}

func (x *nameIndex) add(k int32) {
	if x.large == nil && k <= math.MaxUint16 {
		x.small = append(x.small, uint16(k))
		return
	}
	if x.large == nil {
		x.large = make([]int32, len(x.small), cap(x.small))
		for i, v := range x.small {
			x.large[i] = int32(v)
		}
		x.small = nil
	}
	x.large = append(x.large, k)
}

// allocState makes the per-run buffers whose size is known up front.
func (s *Simulator) allocState() {
	st := &s.st
	n := len(s.nodeSlots)
	st.view.Groups = s.groups
	st.view.Nodes = make([]policy.NodeView, n)
	st.freeSet = newBitset(n)
	st.idleList = newIdleList(n)
	st.freedAt = make([]int64, n)
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
// Result allocates nothing per replay. With Options.LeanJobs r.Jobs stays
// nil and r takes the start and end times the replay recorded (the next
// Run records into new ones). After an error r holds no result.
func (s *Simulator) RunInto(p policy.Policy, r *Result) error {
	if err := s.prepare(p, r); err != nil {
		return err
	}
	if err := s.replay(s.holdReservations(p), r); err != nil {
		return fmt.Errorf("sim: policy %s: %w", p.Name(), err)
	}
	s.keepRecords(r)
	return nil
}

// keepRecords gives r the job records of the run just ended: r.Jobs, or
// with Options.LeanJobs the lean records (the next run records into new
// ones).
func (s *Simulator) keepRecords(r *Result) {
	st := &s.st
	if s.opt.LeanJobs {
		r.lean = &leanJobs{jobs: s.jobs, ids: s.ids, start: st.start, end: st.end}
		st.start, st.end = nil, nil
		return
	}
	recs := r.Jobs
	jobs, start := s.jobs[:len(recs)], st.start[:len(recs)]
	for j := range recs {
		info := &jobs[j]
		recs[j] = JobRecord{Submit: info.submit, Start: start[j], End: start[j] + int64(info.run), Slots: int(info.slots)}
	}
	if st.end != nil {
		for j, t := range st.end[:len(recs)] {
			recs[j].End = t
		}
	}
	s.ids.fill(recs)
}

// prepare tells a clairvoyant p the future and makes r ready for a run.
func (s *Simulator) prepare(p policy.Policy, r *Result) error {
	if cv, ok := p.(policy.Clairvoyant); ok {
		if err := s.makeFuture(); err != nil {
			return err
		}
		cv.SetFuture(s.future)
	}
	var jobs []JobRecord
	if !s.opt.LeanJobs {
		jobs = r.Jobs[:0]
		if cap(jobs) < len(s.jobs) {
			jobs = make([]JobRecord, len(s.jobs))
		} else {
			jobs = jobs[:len(s.jobs)] // each record is written whole below
		}
	}
	*r = Result{Jobs: jobs, Nodes: len(s.nodeSlots), Slots: s.totalSlots}
	if s.opt.Timeline {
		r.Timeline = &Timeline{NodeNames: append([]string(nil), s.names...)}
	}
	if s.opt.JobNodes {
		s.preparePlacements(r)
	}
	s.prepareRecords()
	return nil
}

// prepareRecords makes the per-job start and end times a replay records,
// and frees every allocation handle (a failed run may have left some in
// use).
func (s *Simulator) prepareRecords() {
	st := &s.st
	if st.start == nil {
		st.start = make([]int64, len(s.jobs))
		if s.hasFreqs {
			st.end = make([]int64, len(s.jobs))
		}
	}
	free := 0
	for _, f := range st.freeAllocs {
		free += len(f)
	}
	if free != len(st.alloc) {
		for c := range st.freeAllocs {
			st.freeAllocs[c] = st.freeAllocs[c][:0]
		}
		for h := len(st.alloc) - 1; h >= 0; h-- {
			s.freeAlloc(int32(h))
		}
	}
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
	r := &Result{Nodes: len(s.nodeSlots), Slots: s.totalSlots}
	s.prepareRecords()
	if err := s.replay(allOn{}, r); err != nil {
		return fmt.Errorf("sim: always-on replay for a clairvoyant policy: %w", err)
	}
	s.future = make([]policy.FutureJob, len(s.jobs))
	for i := range s.future {
		info := &s.jobs[i]
		s.future[i] = policy.FutureJob{Submit: info.submit, Start: s.st.start[i], End: s.jobEnd(i), Slots: int(info.slots)}
	}
	return nil
}

// allOn keeps every node on; it replays the future for clairvoyant policies.
type allOn struct{}

func (allOn) Name() string { return "always-on" }

func (allOn) Quiet(v *policy.View) bool { return v.OffNodes == 0 }

func (allOn) Decide(v *policy.View, d *policy.Decision) {
	for i := range v.Nodes {
		if v.Nodes[i].State == policy.Off {
			d.PowerOn = append(d.PowerOn, i)
		}
	}
}
