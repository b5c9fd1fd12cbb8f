package sim

import (
	"fmt"
	"math"

	"github.com/ecotune/ecotune/datasets"
)

// A Builder makes a Simulator from a trace's jobs handed over one at a
// time, in trace order, so that a trace streamed from a file replays
// without ever being in memory whole: the Simulator keeps about 44 bytes
// a job (see Options.LeanJobs for the records of a replay). New is a
// Builder fed with a Trace's jobs.
type Builder struct {
	s     *Simulator
	meta  datasets.Meta // the trace's (its reservations)
	index map[datasets.JobNames]int32
	span  int64
}

// NewBuilder starts a Simulator of a trace described by meta on c; jobs,
// when known, is how many jobs will come (it sizes the buffers). It fails
// if the cluster or the options are invalid.
func NewBuilder(meta datasets.Meta, c Cluster, opt Options, jobs int) (*Builder, error) {
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("sim: cluster: %w", err)
	}
	if len(c.Partitions) > 0 {
		return nil, fmt.Errorf("sim: cluster %q has %d partitions: replay it with NewPartitioned", c.Name, len(c.Partitions))
	}
	s := &Simulator{opt: opt, tz: int64(meta.TZOffset), name: meta.Name, indexFrom: indexFrom, indexUntil: indexUntil}
	if err := s.setOptions(); err != nil {
		return nil, err
	}
	s.setCluster(c)
	jobs = max(jobs, 0)
	s.jobs = make([]jobInfo, 0, jobs)
	s.ids.room = jobs
	s.jobName.small = make([]uint16, 0, jobs)
	if s.opt.UseRunTime {
		s.reqs = make([]int64, 0, jobs)
	}
	// The first run's records, made now, before reading the trace leaves
	// its garbage in the heap.
	s.st.start = make([]int64, jobs)
	if s.hasFreqs {
		s.st.end = make([]int64, jobs)
	}
	return &Builder{s: s, meta: meta, index: map[datasets.JobNames]int32{}}, nil
}

// Add appends j, the next job of the trace. It fails if the job cannot be
// replayed on the cluster, comes before the job before it in submit
// order, or is beyond the limits (see MaxSpan); then the Builder must not
// be used further.
func (b *Builder) Add(j *datasets.Job) error {
	s := b.s
	n := len(s.jobs)
	var prevID, prevSubmit, first int64
	if n > 0 {
		prevID, prevSubmit, first = s.ids.at(n-1), s.jobs[n-1].submit, s.jobs[0].submit
	} else {
		first = j.Submit
	}
	if err := checkReplayJob(s.name, n, j, prevID, prevSubmit, first, &b.span, s.totalSlots); err != nil {
		return err
	}
	key := datasets.JobNames{User: j.User, Group: j.Group, Queue: j.Queue, Partition: j.Partition}
	k, ok := b.index[key]
	if !ok {
		if len(s.jobNames) == math.MaxInt32 {
			return fmt.Errorf("sim: job %d: more than %d distinct user, group, queue and partition tuples", j.ID, math.MaxInt32)
		}
		k = int32(len(s.jobNames))
		b.index[key] = k
		s.jobNames = append(s.jobNames, key)
	}
	// checkReplayJob has checked that 0 ≤ Run, ReqTime ≤ MaxDuration.
	info := jobInfo{submit: j.Submit, run: uint32(j.Run), est: uint32(j.Run), slots: j.Procs}
	req := j.Run
	if j.ReqTime > 0 {
		req = j.ReqTime
		if !s.opt.UseRunTime {
			info.est = uint32(req)
		}
	}
	if s.reqs != nil {
		s.reqs = append(s.reqs, req)
	}
	s.jobs = append(s.jobs, info)
	s.ids.add(j.ID)
	s.jobName.add(k)
	return nil
}

// Simulator returns the Simulator of the jobs added. It fails if there
// is none.
func (b *Builder) Simulator() (*Simulator, error) {
	return b.build(false)
}

// build is Simulator; allowEmpty lets a partition's simulator have no job.
func (b *Builder) build(allowEmpty bool) (*Simulator, error) {
	s := b.s
	if len(s.jobs) == 0 && !allowEmpty {
		return nil, fmt.Errorf("sim: trace %q has no job", s.name)
	}
	if len(s.jobs) > 0 {
		s.tIni = s.jobs[0].submit
	}
	if len(s.st.start) != len(s.jobs) { // more or fewer jobs than announced
		s.st.start, s.st.end = nil, nil
	}
	if err := s.setReservations(&b.meta); err != nil {
		return nil, err
	}
	s.allocState()
	b.index = nil
	return s, nil
}

// JobNames returns the names of job i (trace order): its user, group,
// queue and partition.
func (s *Simulator) JobNames(i int) *datasets.JobNames {
	return &s.jobNames[s.jobName.at(i)]
}
