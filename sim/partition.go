package sim

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/policy"
)

// PolicyMaker makes a fresh policy instance. A partitioned replay asks
// for one per partition, so that each sees and keeps its own state.
type PolicyMaker func() (policy.Policy, error)

// validatePartitions checks c.Partitions (c.Groups are valid): unique
// non-empty names, node groups named once each and owned by exactly one
// partition, each queue taken by one partition, at most one default.
// Partitions sharing nodes are refused.
func (c Cluster) validatePartitions() error {
	if len(c.Partitions) == 0 {
		return nil
	}
	pc := partitionCheck{c: c, group: map[string]int{}, owner: make([]int, len(c.Groups)),
		names: map[string]int{}, queues: map[string]int{}, def: -1}
	for i, g := range c.Groups {
		if _, dup := pc.group[g.Name]; dup {
			pc.group[g.Name] = -1
			continue
		}
		pc.group[g.Name] = i
		pc.groupNames = append(pc.groupNames, fmt.Sprintf("%q", g.Name))
	}
	for i := range pc.owner {
		pc.owner[i] = -1
	}
	for k := range c.Partitions {
		if err := pc.partition(k); err != nil {
			return err
		}
	}
	for i, o := range pc.owner {
		if o < 0 {
			return fmt.Errorf("groups[%d]: group %q is in no partition: list it under one", i, c.Groups[i].Name)
		}
	}
	return nil
}

// partitionCheck is the state of validatePartitions as it goes through
// the partitions.
type partitionCheck struct {
	c          Cluster
	group      map[string]int // group name → index, −1 when several groups have it
	groupNames []string       // quoted, for messages
	owner      []int          // the partition of each group, −1 for none yet
	names      map[string]int // partition name → index
	queues     map[string]int // queue → partition index
	def        int            // the default partition, −1 for none yet
}

// partition checks partition k and records its name, groups, queues and
// whether it is the default.
func (pc *partitionCheck) partition(k int) error {
	p := pc.c.Partitions[k]
	at := fmt.Sprintf("partitions[%d]", k)
	if p.Name == "" {
		return fmt.Errorf("%s.name: empty", at)
	}
	if o, dup := pc.names[p.Name]; dup {
		return fmt.Errorf("%s.name: %q is also the name of partitions[%d]", at, p.Name, o)
	}
	pc.names[p.Name] = k
	if p.Shared {
		return fmt.Errorf("%s.shared: partitions sharing nodes are not supported: give each partition node groups of its own", at)
	}
	if len(p.Groups) == 0 {
		return fmt.Errorf("%s.groups: partition %q has no node group", at, p.Name)
	}
	if err := pc.groups(k, at); err != nil {
		return err
	}
	for qi, q := range p.queues() {
		if q == "" {
			return fmt.Errorf("%s.queues[%d]: empty", at, qi)
		}
		if o, dup := pc.queues[q]; dup {
			return fmt.Errorf("%s.queues[%d]: queue %q is also taken by partition %q", at, qi, q, pc.c.Partitions[o].Name)
		}
		pc.queues[q] = k
	}
	if p.Default {
		if pc.def >= 0 {
			return fmt.Errorf("%s.default: partition %q is the default already", at, pc.c.Partitions[pc.def].Name)
		}
		pc.def = k
	}
	return nil
}

// groups checks the node groups of partition k (at is its field path)
// and makes it their owner.
func (pc *partitionCheck) groups(k int, at string) error {
	for gi, name := range pc.c.Partitions[k].Groups {
		i, ok := pc.group[name]
		switch {
		case !ok:
			return fmt.Errorf("%s.groups[%d]: no node group is named %q (groups: %s)", at, gi, name, strings.Join(pc.groupNames, ", "))
		case i < 0:
			return fmt.Errorf("%s.groups[%d]: several node groups are named %q: give them distinct names", at, gi, name)
		case pc.owner[i] == k:
			return fmt.Errorf("%s.groups[%d]: group %q is listed twice", at, gi, name)
		case pc.owner[i] >= 0:
			return fmt.Errorf("%s.groups[%d]: group %q is also in partition %q: partitions sharing nodes are not supported", at, gi, name, pc.c.Partitions[pc.owner[i]].Name)
		}
		pc.owner[i] = k
	}
	return nil
}

// queues are the queue names p takes: its Queues, or its name.
func (p Partition) queues() []string {
	if len(p.Queues) == 0 {
		return []string{p.Name}
	}
	return p.Queues
}

// JobPartitions maps each job of tr, in trace order, to its partition
// (an index into c.Partitions): the partition whose queues list the job's
// queue (datasets.Job.Queue: SWF field 15, Slurm's Partition, the PBS,
// SGE, LSF or OAR queue), else the one listing its partition (SWF field
// 16), else the default partition. A job none takes is an error naming
// the job and its queue. c must have partitions and be valid.
func (c Cluster) JobPartitions(tr *datasets.Trace) ([]int32, error) {
	if len(c.Partitions) == 0 {
		return nil, fmt.Errorf("sim: cluster %q has no partitions", c.Name)
	}
	take := map[string]int32{}
	def := int32(-1)
	for k, p := range c.Partitions {
		for _, q := range p.queues() {
			take[q] = int32(k)
		}
		if p.Default {
			def = int32(k)
		}
	}
	out := make([]int32, len(tr.Jobs))
	for i := range tr.Jobs {
		j := &tr.Jobs[i]
		k, ok := take[j.Queue]
		if !ok || j.Queue == "" {
			k, ok = take[j.Partition]
			ok = ok && j.Partition != ""
		}
		if !ok {
			if def < 0 {
				return nil, fmt.Errorf("sim: job %d: queue %q, partition %q: no partition of the cluster takes it (%s): list it under a partition's queues, or mark one partition default", j.ID, j.Queue, j.Partition, c.describeQueues())
			}
			k = def
		}
		out[i] = k
	}
	return out, nil
}

// describeQueues lists each partition's queues, for errors.
func (c Cluster) describeQueues() string {
	parts := make([]string, len(c.Partitions))
	for k, p := range c.Partitions {
		parts[k] = fmt.Sprintf("%s takes %s", p.Name, strings.Join(p.queues(), ", "))
	}
	return strings.Join(parts, "; ")
}

// A Partitioned replays a trace on a cluster with partitions (or none:
// then it is a Simulator). Partitions are disjoint, independent
// scheduling domains: each replays its jobs, first come first served
// among them under the Options' scheduler, on its own nodes under its own
// policy instance, which sees its partition alone (its queue, nodes and
// demand). All run over the whole trace's window [TIni, TEnd] — the first
// submission and the last end of any job — so a partition's nodes exist,
// powered or not as its policy decides, before its first job and after
// its last, and decision cycles fall at the same times in every
// partition. Partition k's boot failures are drawn from Options.Seed as
// a replay of its own would draw them.
//
// The Result is the partitions' results put together: every job's record
// (and placement) in trace order, node indices and names those of the
// whole cluster (groups in the cluster's order), and the accounting
// summed: powered and off node-seconds, reconfigurations, boots,
// shutdowns, state seconds, energy. PeakPoweredNodes is the sum of the
// partitions' peaks, which is the peak of the sum: every node is powered
// at TIni. Timelines are merged in time order (at equal times, in
// partition order). Result.Partitions has each partition's share.
//
// A Partitioned keeps its buffers between runs; it must not run two
// policies at once.
type Partitioned struct {
	single  *Simulator // the cluster has no partitions
	parts   []part
	jobPart []int32 // per job of the trace: its partition
	tIni    int64
	nodes   int
	slots   int
	names   []string // the whole cluster's node names
	nslots  []int32  // and slots
}

// part is one partition's replay.
type part struct {
	name string
	sim  *Simulator
	jobs []int32 // the trace index of each of its jobs
	node []int32 // the cluster index of each of its nodes
	res  Result
}

// NewPartitioned prepares a replay of tr on c, one partition at a time
// (see Partitioned). Besides New's checks it fails when a job's queue
// maps to no partition or a job needs more slots than its partition has.
func NewPartitioned(tr *datasets.Trace, c Cluster, opt Options) (*Partitioned, error) {
	if len(c.Partitions) == 0 {
		s, err := New(tr, c, opt)
		if err != nil {
			return nil, err
		}
		return &Partitioned{single: s}, nil
	}
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("sim: cluster: %w", err)
	}
	if err := checkReplayJobs(tr, c.Slots()); err != nil {
		return nil, err
	}
	jobPart, err := c.JobPartitions(tr)
	if err != nil {
		return nil, err
	}
	ps := &Partitioned{jobPart: jobPart, tIni: tr.Jobs[0].Submit, nodes: c.Nodes(), slots: c.Slots()}
	groupOf := map[string]int{}
	first := make([]int32, len(c.Groups)) // cluster index of each group's first node
	n := int32(0)
	for i, g := range c.Groups {
		groupOf[g.Name] = i
		first[i] = n
		n += int32(g.Count)
	}
	ps.names, ps.nslots = make([]string, n), make([]int32, n)
	ps.parts = make([]part, len(c.Partitions))
	for k := range c.Partitions {
		if err := ps.newPart(k, tr, c, opt, groupOf, first); err != nil {
			return nil, err
		}
	}
	return ps, nil
}

// newPart prepares partition k of c: its nodes (of the groups starting at
// cluster index first), its jobs of tr and its simulator. groupOf indexes
// c's groups by name.
func (ps *Partitioned) newPart(k int, tr *datasets.Trace, c Cluster, opt Options, groupOf map[string]int, first []int32) error {
	p := c.Partitions[k]
	pt := &ps.parts[k]
	pt.name = p.Name
	idx := make([]int, len(p.Groups))
	for gi, name := range p.Groups {
		idx[gi] = groupOf[name]
	}
	sort.Ints(idx) // the cluster's order
	sub := Cluster{Name: c.Name}
	for _, i := range idx {
		sub.Groups = append(sub.Groups, c.Groups[i])
		for x := range int32(c.Groups[i].Count) {
			pt.node = append(pt.node, first[i]+x)
		}
	}
	subTr, err := ps.partJobs(k, tr, p.Name, sub.Slots())
	if err != nil {
		return err
	}
	subOpt := opt
	subOpt.LeanJobs = false // combine reads each partition's records
	s, err := newSimulator(subTr, sub, subOpt, true)
	if err != nil {
		return err
	}
	s.tIni = ps.tIni // the whole trace's window
	pt.sim = s
	for x, i := range pt.node {
		ps.names[i], ps.nslots[i] = s.names[x], s.nodeSlots[x]
	}
	return nil
}

// partJobs is the trace of the jobs of tr in partition k, named name, of
// slots slots, recording their trace indices; a job needing more slots
// is an error.
func (ps *Partitioned) partJobs(k int, tr *datasets.Trace, name string, slots int) (*datasets.Trace, error) {
	pt := &ps.parts[k]
	subTr := &datasets.Trace{Meta: tr.Meta}
	for i, jk := range ps.jobPart {
		if jk != int32(k) {
			continue
		}
		j := &tr.Jobs[i]
		if int(j.Procs) > slots {
			return nil, fmt.Errorf("sim: job %d (queue %q) needs %d slots, its partition %q has %d", j.ID, j.Queue, j.Procs, name, slots)
		}
		pt.jobs = append(pt.jobs, int32(i))
		subTr.Jobs = append(subTr.Jobs, *j)
	}
	return subTr, nil
}

// Partitions names the partitions, in the cluster's order (none when
// the cluster declares none).
func (ps *Partitioned) Partitions() []string {
	out := make([]string, len(ps.parts))
	for k := range ps.parts {
		out[k] = ps.parts[k].name
	}
	return out
}

// Run replays the trace, each partition under a policy mk makes.
func (ps *Partitioned) Run(mk PolicyMaker) (*Result, error) {
	r := new(Result)
	if err := ps.RunInto(mk, r); err != nil {
		return nil, err
	}
	return r, nil
}

// RunInto is Run writing into r, which it overwrites whole, reusing the
// backing arrays of r.Jobs and r.JobPartition (see Simulator.RunInto).
func (ps *Partitioned) RunInto(mk PolicyMaker, r *Result) error {
	if ps.single != nil {
		p, err := mk()
		if err != nil {
			return err
		}
		return ps.single.RunInto(p, r)
	}
	pols := make([]policy.Policy, len(ps.parts))
	tEnd := ps.tIni
	for k := range ps.parts {
		pt := &ps.parts[k]
		p, err := mk()
		if err != nil {
			return err
		}
		pols[k] = p
		if len(pt.jobs) == 0 {
			err = pt.sim.runEmpty(p, &pt.res)
		} else {
			err = pt.sim.RunInto(p, &pt.res)
			tEnd = max(tEnd, pt.res.TEnd)
		}
		if err != nil {
			return fmt.Errorf("sim: partition %s: %w", pt.name, err)
		}
	}
	for k := range ps.parts {
		pt := &ps.parts[k]
		if err := pt.sim.extend(pols[k], &pt.res, tEnd); err != nil {
			return fmt.Errorf("sim: partition %s: policy %s: %w", pt.name, pols[k].Name(), err)
		}
	}
	ps.combine(r)
	return nil
}

// RunPartitioned is NewPartitioned followed by one Run.
func RunPartitioned(tr *datasets.Trace, c Cluster, mk PolicyMaker, opt Options) (*Result, error) {
	ps, err := NewPartitioned(tr, c, opt)
	if err != nil {
		return nil, err
	}
	return ps.Run(mk)
}

// runEmpty starts a run of a partition without jobs: its nodes as the
// event loop leaves them at TIni when no job is left (finished there).
func (s *Simulator) runEmpty(p policy.Policy, r *Result) error {
	if err := s.prepare(p, r); err != nil {
		return err
	}
	s.reset(p, r)
	s.finish(r, s.tIni)
	if r.Timeline != nil {
		s.recordStep()
	}
	return nil
}

// extend carries a run that the event loop finished at r.TEnd, when its
// last job ended, on to tEnd: from the rest of the loop's work at r.TEnd
// (boots and shutdowns ending then, local midnight, the policy's
// decision) through every transition, midnight and decision cycle before
// tEnd, as the loop would have gone on had another partition's job still
// been running; then it accounts the run over [TIni, tEnd]. With no job
// left no job event, submission or estimate expiry can come.
func (s *Simulator) extend(p policy.Policy, r *Result, tEnd int64) error {
	t := r.TEnd
	if t >= tEnd {
		return nil
	}
	st := &s.st
	for {
		if st.nextTrans <= t {
			s.transitions(t)
		}
		if t >= st.nextRoll {
			s.roll(t)
		}
		if s.due(t) {
			if err := s.consult(p); err != nil {
				return err
			}
		}
		if r.Timeline != nil {
			s.recordStep()
		}
		dec := st.wakeTick // the next decision, as the loop finds it
		if st.changed && s.period > 0 {
			dec = st.tick
			if from := max(st.now, st.last+1); uint64(dec-from) >= uint64(s.period) {
				dec = s.tickAtOrAfter(from)
			}
		}
		t = min(st.nextRoll, st.nextTrans, dec, tEnd)
		s.advance(t)
		if t == tEnd {
			break
		}
	}
	// finish sums these; the run's first finish counted them up to its last job's end
	r.StateSeconds, r.BusySlotSeconds, r.EnergyByState, r.EnergyWh = StateSeconds{}, 0, [5]float64{}, 0
	s.finish(r, tEnd)
	if r.Timeline != nil {
		s.recordStep()
	}
	return nil
}

// combine puts the partitions' results together into r.
func (ps *Partitioned) combine(r *Result) {
	n := len(ps.jobPart)
	jobs, jp := r.Jobs[:0], r.JobPartition[:0]
	if cap(jobs) < n {
		jobs = make([]JobRecord, n)
	}
	if cap(jp) < n {
		jp = make([]int32, n)
	}
	jobs, jp = jobs[:n], jp[:n]
	copy(jp, ps.jobPart)
	first := &ps.parts[0].res
	*r = Result{Jobs: jobs, JobPartition: jp, TIni: first.TIni, TEnd: first.TEnd, Nodes: ps.nodes, Slots: ps.slots,
		Partitions: make([]PartitionResult, len(ps.parts))}
	if first.Placements != nil {
		r.Placements = make([]Placement, n)
		r.NodeNames = slices.Clone(ps.names)
		r.NodeSlots = slices.Clone(ps.nslots)
	}
	for k := range ps.parts {
		pt := &ps.parts[k]
		x := &pt.res
		for i, g := range pt.jobs {
			jobs[g] = x.Jobs[i]
			if r.Placements != nil {
				pl := x.Placements[i]
				for a, local := range pl.Nodes {
					pl.Nodes[a] = pt.node[local]
				}
				r.Placements[g] = pl
			}
		}
		r.PoweredNodeSeconds += x.PoweredNodeSeconds
		r.OffNodeSeconds += x.OffNodeSeconds
		r.Reconfigurations += x.Reconfigurations
		r.Boots += x.Boots
		r.Shutdowns += x.Shutdowns
		r.BootFailures += x.BootFailures
		r.BusySlotSeconds += x.BusySlotSeconds
		r.IgnoredCommands += x.IgnoredCommands
		r.PeakPoweredNodes += x.PeakPoweredNodes
		for st := range r.StateSeconds {
			r.StateSeconds[st] += x.StateSeconds[st]
			r.EnergyByState[st] += x.EnergyByState[st]
		}
		r.Partitions[k] = PartitionResult{
			Name: pt.name, Nodes: x.Nodes, Slots: x.Slots, Jobs: len(pt.jobs),
			PoweredNodeSeconds: x.PoweredNodeSeconds, OffNodeSeconds: x.OffNodeSeconds,
			Reconfigurations: x.Reconfigurations, Boots: x.Boots, Shutdowns: x.Shutdowns, EnergyWh: x.EnergyWh,
		}
	}
	for _, v := range r.EnergyByState {
		r.EnergyWh += v
	}
	if first.Timeline != nil {
		r.Timeline = ps.mergeTimelines()
	}
}

// mergeTimelines merges the partitions' timelines: node changes in time
// order (at equal times, partition order) with the cluster's node
// indices, and the requested, powered and busy slots summed over the
// partitions at every time one of them changes (a partition counts as
// all powered and idle before its first step; a sum may repeat the one
// before it when changes cancel out).
func (ps *Partitioned) mergeTimelines() *Timeline {
	tl := &Timeline{NodeNames: slices.Clone(ps.names)}
	pos := make([]int, len(ps.parts))
	for {
		k := -1
		for q := range ps.parts {
			ch := ps.parts[q].res.Timeline.Changes
			if pos[q] < len(ch) && (k < 0 || ch[pos[q]].Time < ps.parts[k].res.Timeline.Changes[pos[k]].Time) {
				k = q
			}
		}
		if k < 0 {
			break
		}
		c := ps.parts[k].res.Timeline.Changes[pos[k]]
		pos[k]++
		c.Node = ps.parts[k].node[c.Node]
		tl.Changes = append(tl.Changes, c)
	}
	cur := make([]Step, len(ps.parts))
	for k := range ps.parts {
		cur[k] = Step{Powered: ps.parts[k].res.Slots}
		pos[k] = 0
	}
	for {
		t := never
		for k := range ps.parts {
			if s := ps.parts[k].res.Timeline.Steps; pos[k] < len(s) {
				t = min(t, s[pos[k]].Time)
			}
		}
		if t == never {
			break
		}
		sum := Step{Time: t}
		for k := range ps.parts {
			if s := ps.parts[k].res.Timeline.Steps; pos[k] < len(s) && s[pos[k]].Time == t {
				cur[k] = s[pos[k]]
				pos[k]++
			}
			sum.Requested += cur[k].Requested
			sum.Powered += cur[k].Powered
			sum.Busy += cur[k].Busy
		}
		tl.Steps = append(tl.Steps, sum)
	}
	return tl
}
