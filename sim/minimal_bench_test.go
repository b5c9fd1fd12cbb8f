package sim_test

import (
	"math"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
)

// The yardstick of the simulator's speed is a minimal slot-level FCFS
// replay: no nodes, no power model, no accounting, no policy — the
// machine is a count of free slots, the queue the trace's jobs between
// the first not started and the first not submitted, and the running
// jobs a binary heap of (end, slots). It shares nothing with package sim,
// so it is a yardstick, not a copy; TestMinimalLoopMatchesFCFS checks
// that it starts every job when the simulator's always-on FCFS does.

// minJob is what the minimal loop reads of a trace job.
type minJob struct {
	submit, run int64
	slots       int64
}

// minEnd is a running job of the minimal loop: when it ends, and its slots.
type minEnd struct {
	t, slots int64
}

// minLoop replays jobs on total interchangeable slots. Its buffers are
// kept between replays, so a replay allocates nothing.
type minLoop struct {
	jobs  []minJob
	total int64
	start []int64  // per job: its start time, written by replay
	heap  []minEnd // running jobs, soonest end first
}

func newMinLoop(tr *datasets.Trace, total int) *minLoop {
	m := &minLoop{jobs: make([]minJob, len(tr.Jobs)), total: int64(total), start: make([]int64, len(tr.Jobs))}
	for i := range tr.Jobs {
		j := &tr.Jobs[i]
		m.jobs[i] = minJob{submit: j.Submit, run: j.Run, slots: int64(j.Procs)}
	}
	m.heap = make([]minEnd, 0, 64)
	return m
}

// replay runs the trace FCFS: at each time the jobs ending then free
// their slots, the jobs submitted then queue, and queued jobs start in
// submit order until the head does not fit. It returns the makespan's end.
func (m *minLoop) replay() int64 {
	jobs, start, h := m.jobs, m.start, m.heap[:0]
	free := m.total
	next, head := 0, 0 // jobs[head:next] wait
	t := int64(0)
	for head < len(jobs) || len(h) > 0 {
		t = math.MaxInt64
		if next < len(jobs) {
			t = jobs[next].submit
		}
		if len(h) > 0 && h[0].t < t {
			t = h[0].t
		}
		for len(h) > 0 && h[0].t == t { // pop the soonest end
			free += h[0].slots
			last := len(h) - 1
			e := h[last]
			h = h[:last]
			i := 0
			for {
				c := 2*i + 1
				if c >= last {
					break
				}
				if c+1 < last && h[c+1].t < h[c].t {
					c++
				}
				if e.t <= h[c].t {
					break
				}
				h[i] = h[c]
				i = c
			}
			if last > 0 {
				h[i] = e
			}
		}
		for next < len(jobs) && jobs[next].submit == t {
			next++
		}
		for head < next && jobs[head].slots <= free {
			j := &jobs[head]
			free -= j.slots
			start[head] = t
			e := minEnd{t: t + j.run, slots: j.slots} // push
			h = append(h, e)
			i := len(h) - 1
			for i > 0 {
				p := (i - 1) / 2
				if h[p].t <= e.t {
					break
				}
				h[i] = h[p]
				i = p
			}
			h[i] = e
			head++
		}
	}
	m.heap = h
	return t
}

// TestMinimalLoopMatchesFCFS checks the yardstick: on NASA-iPSC (the
// embedded default trace) and SDSC-SP2 the minimal loop starts every job
// when the simulator's always-on FCFS does, and ends when it does.
func TestMinimalLoopMatchesFCFS(t *testing.T) {
	for _, name := range []string{"NASA-iPSC (embedded)", "SDSC-SP2-1998-4.2-cln.swf.gz"} {
		t.Run(name, func(t *testing.T) {
			var tr *datasets.Trace
			if name == "NASA-iPSC (embedded)" {
				var err error
				if tr, err = datasets.Default(); err != nil {
					t.Fatal(err)
				}
			} else {
				tr = openTrace(t, name)
			}
			c, err := sim.ClusterFromTrace(tr.Meta)
			if err != nil {
				t.Fatal(err)
			}
			r, err := sim.Run(tr, c, alwaysOn(t), sim.Options{Scheduler: sim.FCFS})
			if err != nil {
				t.Fatal(err)
			}
			m := newMinLoop(tr, c.Slots())
			end := m.replay()
			waited := 0
			for i, j := range r.Jobs {
				if m.start[i] != j.Start {
					t.Fatalf("job %d (ID %d): minimal loop starts it at %d, the simulator at %d", i, j.ID, m.start[i], j.Start)
				}
				if j.Start > j.Submit {
					waited++
				}
			}
			if end != r.TEnd {
				t.Errorf("minimal loop ends at %d, the simulator at %d", end, r.TEnd)
			}
			if waited == 0 { // the comparison would not test the queue
				t.Errorf("no job waited on %s", name)
			}
		})
	}
}

// learnedRules is a learned hgfs rule base for NASA-iPSC: the qos0.1
// pick of the default `ecotune tune` (testdata/README.md says how it was
// made).
const learnedRules = "nasa-hgfs-rules.json"

func loadLearned(tb testing.TB) policy.Policy {
	tb.Helper()
	rs, err := policy.LoadRuleSet(filepath.Join("testdata", learnedRules))
	if err != nil {
		tb.Fatal(err)
	}
	p, err := rs.NewPolicy()
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// simReplay is one simulator set-up replayed again and again.
type simReplay struct {
	s *sim.Simulator
	p policy.Policy
	r sim.Result
}

func newSimReplay(tb testing.TB, tr *datasets.Trace, p policy.Policy, opt sim.Options) *simReplay {
	tb.Helper()
	c, err := sim.ClusterFromTrace(tr.Meta)
	if err != nil {
		tb.Fatal(err)
	}
	s, err := sim.New(tr, c, opt)
	if err != nil {
		tb.Fatal(err)
	}
	x := &simReplay{s: s, p: p}
	x.replay(tb) // warm the buffers
	return x
}

func (x *simReplay) replay(tb testing.TB) {
	if err := x.s.RunInto(x.p, &x.r); err != nil {
		tb.Fatal(err)
	}
}

// benchCase is a replay measured against a reference replay of the same
// trace in the same process.
type benchCase struct {
	name      string
	ref, subj func(testing.TB) func() // set up, then return one replay
}

func minimalCase(file string) func(testing.TB) func() {
	return func(tb testing.TB) func() {
		tr := openTrace(tb, file)
		c, err := sim.ClusterFromTrace(tr.Meta)
		if err != nil {
			tb.Fatal(err)
		}
		m := newMinLoop(tr, c.Slots())
		return func() { m.replay() }
	}
}

func simCase(file string, pol func(testing.TB) policy.Policy, opt sim.Options) func(testing.TB) func() {
	return func(tb testing.TB) func() {
		x := newSimReplay(tb, openTrace(tb, file), pol(tb), opt)
		return func() { x.replay(tb) }
	}
}

const (
	sdscFile = "SDSC-SP2-1998-4.2-cln.swf.gz"
	nasaFile = "NASA-iPSC-1993-3.1-cln.swf.gz"
)

var benchCases = []benchCase{
	{"SDSC-SP2/FCFS-always-on", minimalCase(sdscFile), simCase(sdscFile, alwaysOn, sim.Options{Scheduler: sim.FCFS})},
	{"SDSC-SP2/EASY-idle-timeout", minimalCase(sdscFile), simCase(sdscFile, idleTimeout, sim.Options{Scheduler: sim.EASY, Period: 60})},
	{"NASA-iPSC/EASY-hgfs-learned", simCase(nasaFile, idleTimeout, sim.Options{Scheduler: sim.EASY, Period: 60}),
		simCase(nasaFile, loadLearned, sim.Options{Scheduler: sim.EASY, Period: 60})},
}

// BenchmarkVsMinimal measures each case's replay against its reference in
// one loop, alternating the two, by the CPU time of the benchmark's
// thread: the metric "ratio" is the subject's time over the reference's
// (SDSC-SP2 cases: the simulator over the minimal FCFS loop; the NASA
// case: hgfs with a learned rule base over idle-timeout, both EASY);
// "ref-ms" and "subj-ms" are the two times per replay. ns/op counts both.
// Run it as
//
//	go test ./sim -run '^$' -bench VsMinimal -cpu 1 -count 10 | benchstat -
func BenchmarkVsMinimal(b *testing.B) {
	for _, c := range benchCases {
		b.Run(c.name, func(b *testing.B) {
			ref, subj := c.ref(b), c.subj(b)
			ref()
			subj()
			runtime.GC()
			defer lockThread()()
			b.ReportAllocs()
			var refCPU, subjCPU time.Duration
			for b.Loop() {
				t0 := threadCPU()
				ref()
				t1 := threadCPU()
				subj()
				t2 := threadCPU()
				refCPU += t1 - t0
				subjCPU += t2 - t1
			}
			n := float64(b.N)
			b.ReportMetric(float64(subjCPU)/float64(refCPU), "ratio")
			b.ReportMetric(float64(refCPU.Nanoseconds())/n/1e6, "ref-ms")
			b.ReportMetric(float64(subjCPU.Nanoseconds())/n/1e6, "subj-ms")
		})
	}
}

// BenchmarkReplay measures each replay of BenchmarkVsMinimal on its own
// (the minimal loops under "minimal"), for benchstat to compare ns/op
// before and after a change.
func BenchmarkReplay(b *testing.B) {
	one := func(b *testing.B, setup func(testing.TB) func()) {
		run := setup(b)
		runtime.GC()
		b.ReportAllocs()
		for b.Loop() {
			run()
		}
	}
	b.Run("minimal/SDSC-SP2", func(b *testing.B) { one(b, minimalCase(sdscFile)) })
	b.Run("minimal/NASA-iPSC", func(b *testing.B) { one(b, minimalCase(nasaFile)) })
	for _, c := range benchCases {
		b.Run(c.name, func(b *testing.B) { one(b, c.subj) })
	}
	b.Run("NASA-iPSC/EASY-idle-timeout", func(b *testing.B) { one(b, benchCases[2].ref) })
}
