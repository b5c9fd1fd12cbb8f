package datasets

import (
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/parquet-go/parquet-go"
)

// ImportOptions control Import.
type ImportOptions struct {
	ReadOptions
	Force bool // replace an existing output
	// RunJobs bounds the jobs held in memory: longer inputs are sorted in
	// runs of this many jobs, spilled to temporary files and merged.
	// 0 means DefaultRunJobs.
	RunJobs int
	// TempDir holds the spilled runs; "" means the output's directory.
	TempDir string
}

// DefaultRunJobs is the default ImportOptions.RunJobs: about 100 MB of jobs.
const DefaultRunJobs = 1 << 20

// Import reads raw logs and writes them as one canonical Parquet trace at
// out, the same trace ReadLogs would return, in memory bounded by
// opt.RunJobs whatever the logs' length. The output is written atomically;
// on any error (a strict-mode ParseError included) no output is left.
func Import(paths []string, out string, opt ImportOptions) (Meta, error) {
	if err := checkOutput(out, opt.Force); err != nil {
		return Meta{}, err
	}
	dir := opt.TempDir
	if dir == "" {
		dir = filepath.Dir(out)
	}
	runs := newRunSorter(opt.RunJobs, dir)
	defer runs.cleanup()
	metas := make([]Meta, 0, len(paths))
	for _, path := range paths {
		m, err := readLogFile(path, opt.ReadOptions, runs.add)
		if err != nil {
			return Meta{}, err
		}
		metas = append(metas, m)
	}
	meta := mergeMetas(metas)
	file, err := CreateAtomic(out, opt.Force)
	if err != nil {
		return Meta{}, err
	}
	v := newValidator(meta.Procs)
	sink := newJobSink(newParquetJobWriter(file, &parquet.Zstd))
	err = runs.each(func(j Job) error {
		if !v.keep(&j) {
			return nil
		}
		return sink.add(j)
	})
	if err == nil {
		v.finish(&meta)
		err = sink.close(meta)
	}
	if err != nil {
		file.Abort()
		return Meta{}, fmt.Errorf("%s: %w", out, err)
	}
	return meta, file.Commit()
}

// A jobSink batches jobs into a Parquet writer.
type jobSink struct {
	w     *parquet.GenericWriter[Job]
	batch []Job
}

func newJobSink(w *parquet.GenericWriter[Job]) *jobSink {
	return &jobSink{w: w, batch: make([]Job, 0, parquetBatch)}
}

func (s *jobSink) add(j Job) error {
	s.batch = append(s.batch, j)
	if len(s.batch) == cap(s.batch) {
		return s.flush()
	}
	return nil
}

func (s *jobSink) flush() error {
	if _, err := s.w.Write(s.batch); err != nil {
		return fmt.Errorf("parquet: %w", err)
	}
	s.batch = s.batch[:0]
	return nil
}

// close writes the last batch and the footer with meta.
func (s *jobSink) close(meta Meta) error {
	if err := s.flush(); err != nil {
		return err
	}
	return closeParquetJobWriter(s.w, meta)
}

// A runSorter sorts a stream of jobs in bounded memory: it holds up to max
// jobs, spilling each full buffer, sorted, to a temporary Parquet file;
// each then yields all jobs in order, merging the runs.
type runSorter struct {
	max  int
	buf  []Job
	dir  string // parent of the runs' directory
	tmp  string // the runs' directory, made at the first spill
	runs []string
}

func newRunSorter(maxJobs int, dir string) *runSorter {
	if maxJobs <= 0 {
		maxJobs = DefaultRunJobs
	}
	return &runSorter{max: maxJobs, dir: dir}
}

func (s *runSorter) add(j Job) error {
	if s.buf == nil {
		s.buf = make([]Job, 0, min(s.max, 1<<16))
	}
	s.buf = append(s.buf, j)
	if len(s.buf) >= s.max {
		return s.spill()
	}
	return nil
}

// spill writes the buffer, sorted, as the next run.
func (s *runSorter) spill() error {
	if s.tmp == "" {
		tmp, err := os.MkdirTemp(s.dir, ".ecotune-runs-*")
		if err != nil {
			return fmt.Errorf("import: %w", err)
		}
		s.tmp = tmp
	}
	sortJobs(s.buf)
	f, err := os.CreateTemp(s.tmp, "run-*.parquet")
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	s.runs = append(s.runs, f.Name())
	sink := newJobSink(newParquetJobWriter(f, &parquet.Snappy))
	for _, j := range s.buf {
		if err = sink.add(j); err != nil {
			break
		}
	}
	if err == nil {
		err = sink.close(Meta{})
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	s.buf = s.buf[:0]
	if err != nil {
		return fmt.Errorf("import: spill run: %w", err)
	}
	return nil
}

// each calls fn with every job added, in order (submit, ID, then order of
// addition).
func (s *runSorter) each(fn func(Job) error) error {
	if len(s.runs) == 0 {
		sortJobs(s.buf)
		for _, j := range s.buf {
			if err := fn(j); err != nil {
				return err
			}
		}
		return nil
	}
	if len(s.buf) > 0 {
		if err := s.spill(); err != nil {
			return err
		}
	}
	s.buf = nil
	return mergeRuns(s.runs, fn)
}

func (s *runSorter) cleanup() {
	if s.tmp != "" {
		os.RemoveAll(s.tmp)
	}
}

// A runCursor reads one sorted run in batches.
type runCursor struct {
	f     *os.File
	r     *parquet.GenericReader[Job]
	batch []Job
	pos   int
	index int // the run's place in spill order, which breaks ties
}

func openRun(path string, index int) (*runCursor, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	c := &runCursor{f: f, r: parquet.NewGenericReader[Job](f), batch: make([]Job, 0, parquetBatch), index: index}
	return c, nil
}

// advance moves to the next job; it reports false at the end of the run.
func (c *runCursor) advance() (bool, error) {
	c.pos++
	if c.pos < len(c.batch) {
		return true, nil
	}
	n, err := c.r.Read(c.batch[:cap(c.batch)])
	c.batch, c.pos = c.batch[:n], 0
	if err != nil && err != io.EOF {
		return false, fmt.Errorf("import: read run: %w", err)
	}
	return n > 0, nil
}

func (c *runCursor) head() Job { return c.batch[c.pos] }

func (c *runCursor) close() {
	c.r.Close()
	c.f.Close()
}

// mergeRuns calls fn with the jobs of the sorted runs in order, ties going
// to the earlier run, keeping a binary min-heap of the runs' heads.
func mergeRuns(paths []string, fn func(Job) error) error {
	heap := make([]*runCursor, 0, len(paths))
	defer func() {
		for _, c := range heap {
			c.close()
		}
	}()
	for i, p := range paths {
		c, err := openRun(p, i)
		if err != nil {
			return err
		}
		c.pos = -1
		ok, err := c.advance()
		if err != nil {
			c.close()
			return err
		}
		if !ok {
			c.close()
			continue
		}
		heap = append(heap, c)
		runHeapUp(heap, len(heap)-1)
	}
	for len(heap) > 0 {
		top := heap[0]
		if err := fn(top.head()); err != nil {
			return err
		}
		ok, err := top.advance()
		if err != nil {
			return err
		}
		if !ok {
			top.close()
			last := len(heap) - 1
			heap[0] = heap[last]
			heap = heap[:last]
		}
		runHeapDown(heap, 0)
	}
	return nil
}

func runLess(a, b *runCursor) bool {
	if c := compareJobs(a.head(), b.head()); c != 0 {
		return c < 0
	}
	return a.index < b.index
}

func runHeapUp(h []*runCursor, i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if !runLess(h[i], h[parent]) {
			return
		}
		h[i], h[parent] = h[parent], h[i]
		i = parent
	}
}

func runHeapDown(h []*runCursor, i int) {
	for {
		least, l, r := i, 2*i+1, 2*i+2
		if l < len(h) && runLess(h[l], h[least]) {
			least = l
		}
		if r < len(h) && runLess(h[r], h[least]) {
			least = r
		}
		if least == i {
			return
		}
		h[i], h[least] = h[least], h[i]
		i = least
	}
}

// Summary is a one-line account of an import: source format, machine size
// and the records skipped and adjusted, by reason.
func Summary(m Meta) string {
	s := fmt.Sprintf("%s trace %q from %d log(s), machine %s", m.Format, m.Name, len(m.Sources), machineSize(m))
	if n := countTotal(m.Skipped); n > 0 {
		s += fmt.Sprintf("; skipped %d %s", n, formatCounts(m.Skipped))
	}
	if n := countTotal(m.Adjusted); n > 0 {
		s += fmt.Sprintf("; adjusted %d %s", n, formatCounts(m.Adjusted))
	}
	return s
}

// machineSize is "128 nodes × 8 = 1024 procs", "1024 procs" or "unknown".
func machineSize(m Meta) string {
	switch {
	case m.Nodes > 0 && m.Procs > 0:
		return fmt.Sprintf("%d nodes, %d procs", m.Nodes, m.Procs)
	case m.Procs > 0:
		return fmt.Sprintf("%d procs", m.Procs)
	case m.Nodes > 0:
		return fmt.Sprintf("%d nodes", m.Nodes)
	}
	return "unknown"
}

func countTotal(m map[string]int64) int64 {
	var n int64
	for _, v := range m {
		n += v
	}
	return n
}

// formatCounts is "(a 3, b 1)" in key order.
func formatCounts(m map[string]int64) string {
	keys := slices.Sorted(maps.Keys(m))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
