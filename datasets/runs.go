package datasets

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

// A runSorter sorts a stream of jobs in bounded memory: it holds up to max
// jobs, spilling each full buffer, sorted, to a temporary run file; each
// then yields all jobs in order, merging the runs. Merging reads every run
// through a 64 KiB buffer, so memory grows by that much per run only.
type runSorter struct {
	max    int
	buf    []Job
	dir    string // parent of the runs' directory
	tmp    string // the runs' directory, made at the first spill
	runs   []string
	enc    []byte // scratch for encoding one job
	lenBuf [binary.MaxVarintLen64]byte
}

const runBufferSize = 64 << 10

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
		tmp, err := os.MkdirTemp(s.dir, runsDirPattern())
		if err != nil {
			return fmt.Errorf("import: %w", err)
		}
		s.tmp = tmp
	}
	sortJobs(s.buf)
	f, err := os.CreateTemp(s.tmp, "run-*")
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	s.runs = append(s.runs, f.Name())
	w := bufio.NewWriterSize(f, runBufferSize)
	for i := range s.buf {
		s.enc = appendRunJob(s.enc[:0], &s.buf[i])
		if _, err = w.Write(binary.AppendUvarint(s.lenBuf[:0], uint64(len(s.enc)))); err == nil {
			_, err = w.Write(s.enc)
		}
		if err != nil {
			break
		}
	}
	if err == nil {
		err = w.Flush()
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

// appendRunJob encodes j for a run file: the numbers as varints, the
// strings as length-prefixed bytes. In the file each record is preceded
// by its length.
func appendRunJob(b []byte, j *Job) []byte {
	for _, v := range [...]int64{j.ID, j.Submit, j.Wait, j.Run, int64(j.Procs), int64(j.ReqProcs), j.ReqTime, int64(j.Status)} {
		b = binary.AppendVarint(b, v)
	}
	for _, s := range [...]string{j.User, j.Group, j.Queue, j.Partition} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return b
}

// A runCursor reads one sorted run.
type runCursor struct {
	f     *os.File
	r     *bufio.Reader
	job   Job
	index int               // the run's place in spill order, which breaks ties
	texts map[string]string // interned strings
	last  [4]string         // the strings of the previous record
	rec   []byte            // the record being decoded
}

func openRun(path string, index int) (*runCursor, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return &runCursor{f: f, r: bufio.NewReaderSize(f, runBufferSize), index: index, texts: map[string]string{}}, nil
}

// advance reads the next job; it reports false at the end of the run.
func (c *runCursor) advance() (bool, error) {
	n, err := binary.ReadUvarint(c.r)
	if err == io.EOF {
		return false, nil
	}
	if err != nil {
		return false, c.corrupt(err)
	}
	if n > 1<<20 {
		return false, c.corrupt(errors.New("record too long"))
	}
	if cap(c.rec) < int(n) {
		c.rec = make([]byte, n)
	}
	c.rec = c.rec[:n]
	if _, err := io.ReadFull(c.r, c.rec); err != nil {
		return false, c.corrupt(err)
	}
	if err := c.decode(c.rec); err != nil {
		return false, c.corrupt(err)
	}
	return true, nil
}

var errRunRecord = errors.New("malformed record")

// decode reads the job encoded by appendRunJob in b.
func (c *runCursor) decode(b []byte) error {
	var v [8]int64
	for i := range v {
		x, k := binary.Varint(b)
		if k <= 0 {
			return errRunRecord
		}
		v[i], b = x, b[k:]
	}
	var s [4]string
	for i := range s {
		n, k := binary.Uvarint(b)
		if k <= 0 || n > uint64(len(b)-k) {
			return errRunRecord
		}
		s[i], b = c.intern(i, b[k:k+int(n)]), b[k+int(n):]
	}
	c.job = Job{ID: v[0], Submit: v[1], Wait: v[2], Run: v[3], Procs: int32(v[4]), ReqProcs: int32(v[5]),
		ReqTime: v[6], Status: int32(v[7]), User: s[0], Group: s[1], Queue: s[2], Partition: s[3]}
	return nil
}

// intern returns b, the text of string field i, as a string shared with
// earlier equal strings: the field's previous text when it is the same
// (as it often is in a sorted run), else the one in texts.
func (c *runCursor) intern(i int, b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if last := c.last[i]; string(b) == last {
		return last
	}
	s, ok := c.texts[string(b)]
	if !ok {
		s = string(b)
		if len(c.texts) < 1<<16 {
			c.texts[s] = s
		}
	}
	c.last[i] = s
	return s
}

func (c *runCursor) corrupt(err error) error {
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return fmt.Errorf("import: run %s: %w", c.f.Name(), err)
}

func (c *runCursor) close() { c.f.Close() }

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
		ok, err := c.advance()
		if err != nil || !ok {
			c.close()
			if err != nil {
				return err
			}
			continue
		}
		heap = append(heap, c)
		runHeapUp(heap, len(heap)-1)
	}
	for len(heap) > 0 {
		top := heap[0]
		if err := fn(top.job); err != nil {
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
	if c := compareJobs(a.job, b.job); c != 0 {
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
