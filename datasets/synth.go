package datasets

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"

	"github.com/parquet-go/parquet-go"
	"gonum.org/v1/gonum/mathext"
)

// The Lublin–Feitelson workload model (U. Lublin and D. G. Feitelson, "The
// workload on parallel supercomputers: modeling the characteristics of
// rigid jobs", JPDC 63(11), 2003), with the published parameters for
// batch and interactive jobs. Each job type has its own arrival process
// (inter-arrival times from a gamma distribution in log seconds, stretched
// through a daily cycle of 48 half-hour buckets weighted by a gamma
// density); the next job is of the type that arrives first. A job is
// serial, or parallel with log2(size) drawn from a two-stage uniform
// distribution (rounded for power-of-two jobs); its log run time is
// hyper-gamma with a mixing probability linear in its size.
//
// The published size parameters are for a machine of 128 nodes; for N
// nodes the upper ends of the size distribution (UMed, UHi) are shifted
// by log2(N/128), as the model's authors advise, and sizes are capped at N.

// lublinParams are the model parameters of one job type.
type lublinParams struct {
	serialProb, pow2Prob   float64 // shares of serial and power-of-two jobs
	uLow, uMed, uHi, uProb float64 // two-stage uniform of log2(size)
	a1, b1, a2, b2, pa, pb float64 // hyper-gamma of log(run time); p = pa·size + pb
	aArr, bArr, aNum, bNum float64 // gamma of log(inter-arrival); gamma of arrivals by hour
	arrRushToAll           float64 // ARAR: scales aArr from rush hours to the whole day
	queue                  string  // the reference output's queue: 0 interactive, 1 batch
}

var (
	lublinInteractive = lublinParams{
		serialProb: 0.1541, pow2Prob: 0.625, uLow: 1, uMed: 3, uHi: 5.5, uProb: 0.705,
		a1: 3.8351, b1: 0.6605, a2: 7.073, b2: 0.6856, pa: -0.0118, pb: 0.9156,
		aArr: 6.5510, bArr: 0.6621, aNum: 8.9186, bNum: 3.6680, arrRushToAll: 0.9797,
		queue: "0",
	}
	lublinBatch = lublinParams{
		serialProb: 0.2927, pow2Prob: 0.6686, uLow: 1.2, uMed: 5, uHi: 7, uProb: 0.875,
		a1: 6.57, b1: 0.823, a2: 639.1, b2: 0.0156, pa: -0.003, pb: 0.6986,
		aArr: 6.0415, bArr: 0.8531, aNum: 6.1271, bNum: 5.2740, arrRushToAll: 1.0519,
		queue: "1",
	}
	// lublinTypeless are the parameters fitted to all jobs together, used
	// with SynthOptions.Typeless (the reference program's
	// INCLUDE_JOBS_TYPE = 0; the PWA's lublin_256 file was made so).
	lublinTypeless = lublinParams{
		serialProb: 0.244, pow2Prob: 0.576, uLow: 0.8, uMed: 4.5, uHi: 7, uProb: 0.86,
		a1: 4.2, b1: 0.94, a2: 312, b2: 0.03, pa: -0.0054, pb: 0.78,
		aArr: 10.2303, bArr: 0.4871, aNum: 8.1737, bNum: 3.9631, arrRushToAll: 1.0225,
		queue: "0",
	}
)

const (
	lublinBuckets        = 48   // half hours in a day
	lublinBucketSeconds  = 1800 // seconds in a bucket
	lublinDayStart       = 11   // the day of the arrival-cycle fit runs from bucket 11
	lublinMaxLogRun      = 12   // run times above e^12 s (≈ 45 h) are drawn again
	lublinMaxLogInterArr = 13   // inter-arrivals above e^13 s (≈ 5 days) are drawn again
	lublinRefLog2Nodes   = 7    // the published sizes are for 2^7 = 128 nodes
)

// SynthOptions control the synthetic workload.
type SynthOptions struct {
	Jobs  int    // number of jobs
	Nodes int    // machine size (nodes of one processor each)
	Seed  uint64 // the same seed gives the same jobs
	// Typeless draws every job from the parameters fitted to all jobs
	// together instead of separate batch and interactive processes.
	Typeless bool
}

// A lublinType is the state of one job type's arrival process.
type lublinType struct {
	lublinParams
	weights  [lublinBuckets]float64
	bucket   int
	points   float64
	reminder float64
	next     float64 // next arrival, seconds from the start
}

// Synth generates a Lublin–Feitelson workload job by job, in submit
// order; it is a Reader, so it streams into any writer of traces.
type Synth struct {
	opt   SynthOptions
	rng   *rand.Rand
	types []*lublinType // the job types, each with its arrival process
	n     int
	maxN  int32
}

// NewSynth returns a generator of opt.Jobs jobs for a machine of opt.Nodes
// nodes, starting at Unix time 0 (a midnight).
func NewSynth(opt SynthOptions) (*Synth, error) {
	if opt.Jobs < 0 || opt.Jobs > MaxJobs {
		return nil, fmt.Errorf("synth: %d jobs: want 0..%d (MaxJobs)", opt.Jobs, MaxJobs)
	}
	if opt.Nodes < 1 || opt.Nodes > MaxNodes {
		return nil, fmt.Errorf("synth: %d nodes: want 1..%d (MaxNodes)", opt.Nodes, MaxNodes)
	}
	s := &Synth{opt: opt, rng: rand.New(rand.NewPCG(opt.Seed, 0x6c75626c696e3939)), maxN: int32(opt.Nodes)}
	shift := math.Log2(float64(opt.Nodes)) - lublinRefLog2Nodes
	kinds := []lublinParams{lublinInteractive, lublinBatch}
	if opt.Typeless {
		kinds = []lublinParams{lublinTypeless}
	}
	for _, p := range kinds {
		p.uHi += shift
		p.uMed = max(p.uMed+shift, p.uLow)
		p.uHi = max(p.uHi, p.uMed)
		t := &lublinType{lublinParams: p}
		t.initWeights()
		t.advance(s.rng)
		s.types = append(s.types, t)
	}
	return s, nil
}

// initWeights sets each half-hour bucket's share of the day's arrivals,
// normalised to mean 1.
func (t *lublinType) initWeights() {
	var sum float64
	for i := lublinDayStart; i < lublinDayStart+lublinBuckets; i++ {
		w := gammaCDF(float64(i)+0.5, t.aNum, t.bNum) - gammaCDF(float64(i)-0.5, t.aNum, t.bNum)
		t.weights[(i-1)%lublinBuckets] = w
		sum += w
	}
	mean := sum / lublinBuckets
	for i := range t.weights {
		t.weights[i] /= mean
	}
}

// gammaCDF is the distribution function of gamma(shape a, scale b) at x.
func gammaCDF(x, a, b float64) float64 { return mathext.GammaIncReg(a, x/b) }

// advance draws the type's next arrival: e^gamma seconds at rush hour,
// paid for bucket by bucket with the buckets' weights as prices.
func (t *lublinType) advance(rng *rand.Rand) {
	var g float64
	for {
		g = gammaRand(rng, t.aArr*t.arrRushToAll, t.bArr)
		if g <= lublinMaxLogInterArr {
			break
		}
	}
	t.points += math.Exp(g) / lublinBucketSeconds
	var wait float64
	for t.points > t.weights[t.bucket] {
		t.points -= t.weights[t.bucket]
		t.bucket = (t.bucket + 1) % lublinBuckets
		wait += lublinBucketSeconds
	}
	rem := t.points / t.weights[t.bucket]
	wait += lublinBucketSeconds * (rem - t.reminder)
	t.reminder = rem
	t.next = math.Floor(t.next + wait)
}

// size draws a job's number of nodes.
func (t *lublinType) size(rng *rand.Rand, maxNodes int32) int32 {
	u := rng.Float64()
	if u <= t.serialProb {
		return 1
	}
	lo, hi := t.uMed, t.uHi
	if rng.Float64() <= t.uProb {
		lo, hi = t.uLow, t.uMed
	}
	exp := lo + rng.Float64()*(hi-lo)
	if u <= t.serialProb+t.pow2Prob {
		exp = math.Floor(exp + 0.5)
	}
	return min(int32(math.Pow(2, exp)+0.5), maxNodes)
}

// runTime draws the run time of a job of the given size.
func (t *lublinType) runTime(rng *rand.Rand, size int32) int64 {
	p := min(max(t.pa*float64(size)+t.pb, 0), 1)
	a, b := t.a2, t.b2
	if rng.Float64() <= p {
		a, b = t.a1, t.b1
	}
	for {
		if g := gammaRand(rng, a, b); g <= lublinMaxLogRun {
			return int64(math.Exp(g))
		}
	}
}

// gammaRand draws from gamma(shape a, scale b) by Marsaglia and Tsang's
// method (ACM TOMS 26(3), 2000), boosting shapes below 1.
func gammaRand(rng *rand.Rand, a, b float64) float64 {
	boost := 1.0
	if a < 1 {
		boost = math.Pow(1-rng.Float64(), 1/a)
		a++
	}
	d := a - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := rng.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := 1 - rng.Float64()
		if math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return d * v * b * boost
		}
	}
}

// Next returns the next job, or io.EOF after opt.Jobs jobs.
func (s *Synth) Next() (Job, error) {
	if s.n == s.opt.Jobs {
		return Job{}, io.EOF
	}
	t := s.types[0]
	for _, u := range s.types[1:] {
		if u.next < t.next {
			t = u
		}
	}
	if t.next > float64(MaxTime) {
		return Job{}, fmt.Errorf("synth: job %d would be submitted %.0f s after the start, beyond MaxTime (%d s): ask for fewer jobs", s.n+1, t.next, MaxTime)
	}
	submit := int64(t.next)
	t.advance(s.rng)
	size := t.size(s.rng, s.maxN)
	s.n++
	return Job{
		ID: int64(s.n), Submit: submit, Wait: Unknown, Run: t.runTime(s.rng, size),
		Procs: size, ReqProcs: Unknown, ReqTime: Unknown, Status: 1, Queue: t.queue,
	}, nil
}

// Meta describes the synthetic trace.
func (s *Synth) Meta() Meta {
	params := "published batch and interactive parameters"
	if s.opt.Typeless {
		params = "published parameters for all jobs together"
	}
	return Meta{
		Name:   fmt.Sprintf("lublin-%dn-%dj-seed%d", s.opt.Nodes, s.opt.Jobs, s.opt.Seed),
		Format: "synth",
		Nodes:  s.opt.Nodes, Procs: s.opt.Nodes, ProcsPerNode: 1,
		UnixStart: 0, TimeZone: "UTC",
		Notes: []string{fmt.Sprintf("synthetic: Lublin–Feitelson model (JPDC 2003), %s, %d nodes, seed %d", params, s.opt.Nodes, s.opt.Seed),
			"queue 0: interactive jobs; queue 1: batch jobs"},
		Skipped: map[string]int64{}, Adjusted: map[string]int64{},
	}
}

// SynthTrace generates a whole synthetic trace in memory.
func SynthTrace(opt SynthOptions) (*Trace, error) {
	s, err := NewSynth(opt)
	if err != nil {
		return nil, err
	}
	jobs := make([]Job, 0, min(opt.Jobs, 1<<20))
	for {
		j, err := s.Next()
		if err == io.EOF {
			return &Trace{Meta: s.Meta(), Jobs: jobs}, nil
		}
		if err != nil {
			return nil, err
		}
		jobs = append(jobs, j)
	}
}

// WriteSynth streams a synthetic workload to path, atomically and in
// constant memory: SWF when the name ends in .swf (gzip-compressed for
// .swf.gz), else a canonical Parquet trace.
func WriteSynth(path string, opt SynthOptions, force bool) (Meta, error) {
	return WriteSynthContext(context.Background(), path, opt, force)
}

// WriteSynthContext is WriteSynth stopped by ctx: once ctx is done it stops
// within a few thousand jobs, removes its temporary output and returns
// ctx's error. It first removes the stale temporary outputs of the same
// name that earlier runs killed outright left (see tempfiles.go).
func WriteSynthContext(ctx context.Context, path string, opt SynthOptions, force bool) (Meta, error) {
	s, err := NewSynth(opt)
	if err != nil {
		return Meta{}, err
	}
	removeStaleTemps(filepath.Dir(path), filepath.Base(path))
	out, err := CreateAtomic(path, force)
	if err != nil {
		return Meta{}, err
	}
	r := &cancelReader{Reader: s, cancel: canceller{ctx: ctx}}
	switch {
	case strings.HasSuffix(path, ".swf.gz"):
		zw := gzip.NewWriter(out)
		err = copySWF(zw, r)
		if cerr := zw.Close(); err == nil {
			err = cerr
		}
	case strings.HasSuffix(path, ".swf"):
		err = copySWF(out, r)
	default:
		err = copyParquet(out, r)
	}
	if err != nil {
		out.Abort()
		return Meta{}, fmt.Errorf("%s: %w", path, err)
	}
	return s.Meta(), out.Commit()
}

// A cancelReader is a Reader that fails with its context's error once the
// context is done.
type cancelReader struct {
	Reader
	cancel canceller
}

func (r *cancelReader) Next() (Job, error) {
	if err := r.cancel.err(); err != nil {
		return Job{}, err
	}
	return r.Reader.Next()
}

// copySWF writes the jobs of r, whose metadata is complete from the start,
// as SWF.
func copySWF(w io.Writer, r Reader) error {
	sw, err := NewSWFWriter(w, r.Meta())
	if err != nil {
		return err
	}
	for {
		j, err := r.Next()
		if err == io.EOF {
			return sw.Flush()
		}
		if err != nil {
			return err
		}
		if err := sw.Write(j); err != nil {
			return err
		}
	}
}

// copyParquet writes the jobs of r, already sorted and valid, as a
// canonical Parquet trace.
func copyParquet(w io.Writer, r Reader) error {
	sink := newJobSink(newParquetJobWriter(w, &parquet.Zstd, parquetRowGroup))
	for {
		j, err := r.Next()
		if err == io.EOF {
			return sink.close(r.Meta())
		}
		if err != nil {
			return err
		}
		if err := sink.add(j); err != nil {
			return err
		}
	}
}
