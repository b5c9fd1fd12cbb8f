package datasets

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// headSize is how much of a log's (decompressed) start format detection sees.
const headSize = 64 << 10

// ReadLogs reads one or more raw logs into one trace in memory: the jobs of
// all logs, validated (see the rules in validate.go) and sorted by submit
// time, ties by ID, then by input order. Each log's format is detected
// from its content unless opt.Format names it; gzip files are read
// directly. In strict mode the first unreadable record stops the read with
// a *ParseError naming file, line and field.
func ReadLogs(paths []string, opt ReadOptions) (*Trace, error) {
	var jobs []Job
	metas := make([]Meta, 0, len(paths))
	for _, path := range paths {
		m, err := readLogFile(path, opt, func(j Job) error {
			jobs = append(jobs, j)
			return nil
		})
		if err != nil {
			return nil, err
		}
		metas = append(metas, m)
	}
	return finishTrace(mergeMetas(metas), jobs), nil
}

// finishTrace validates and sorts jobs (in place) into a trace of meta.
func finishTrace(meta Meta, jobs []Job) *Trace {
	v := newValidator(meta.Procs)
	kept := jobs[:0]
	for i := range jobs {
		if v.keep(&jobs[i]) {
			kept = append(kept, jobs[i])
		}
	}
	v.finish(&meta)
	sortJobs(kept)
	return &Trace{Meta: meta, Jobs: slices.Clip(kept)}
}

// sortJobs sorts jobs by submit time, ties by ID, keeping input order
// among equal keys.
func sortJobs(jobs []Job) {
	slices.SortStableFunc(jobs, compareJobs)
}

func compareJobs(a, b Job) int {
	if c := cmp.Compare(a.Submit, b.Submit); c != 0 {
		return c
	}
	return cmp.Compare(a.ID, b.ID)
}

// readLogFile streams the jobs of the log at path to emit and returns its
// metadata, with the file's SHA-256 in Sources.
func readLogFile(path string, opt ReadOptions, emit func(Job) error) (Meta, error) {
	f, err := os.Open(path)
	if err != nil {
		return Meta{}, err
	}
	defer f.Close()
	return readLog(f, path, opt, emit)
}

// readLog streams the jobs of the log read from r (named file in errors
// and metadata) to emit and returns its metadata.
func readLog(r io.Reader, file string, opt ReadOptions, emit func(Job) error) (Meta, error) {
	hash := sha256.New()
	raw := bufio.NewReaderSize(io.TeeReader(r, hash), headSize)
	in, err := decompressed(raw)
	if err != nil {
		return Meta{}, fmt.Errorf("%s: %w", file, err)
	}
	var ahead *readAhead // decompression beside parsing, on another core
	if zr, ok := in.(*gzip.Reader); ok {
		ahead = newReadAhead(zr)
		defer ahead.stop()
		in = ahead
	}
	buf := bufio.NewReaderSize(in, headSize)
	head, err := buf.Peek(headSize)
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return Meta{}, fmt.Errorf("%s: %w", file, err)
	}
	format, err := chooseFormat(opt.Format, head)
	if err != nil {
		if opt.Format == "" {
			return Meta{}, unknownFormatError(file, head)
		}
		return Meta{}, fmt.Errorf("%s: %w", file, err)
	}
	rd, err := format.NewReader(buf, file, opt)
	if err != nil {
		return Meta{}, fmt.Errorf("%s: %w", file, err)
	}
	beyond, err := streamJobs(rd, format.Name, file, opt, emit)
	if err != nil {
		return Meta{}, err
	}
	if ahead != nil {
		ahead.wait() // raw is this goroutine's again
	}
	if _, err := io.Copy(io.Discard, raw); err != nil {
		return Meta{}, fmt.Errorf("%s: %w", file, err)
	}
	return logMeta(rd.Meta(), format.Name, file, opt, beyond, hash.Sum(nil))
}

// streamJobs passes the jobs rd reads to emit and returns, in lenient
// mode, the counts of the jobs skipped as beyond the limits, by reason.
func streamJobs(rd Reader, format, file string, opt ReadOptions, emit func(Job) error) (map[string]int64, error) {
	liner, _ := rd.(recordLiner)
	beyond := map[string]int64{} // lenient: jobs beyond the limits, by field
	for {
		j, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if k, v, err := checkLimits(&j); k >= 0 {
			line := 0
			if liner != nil {
				line = liner.recordLine()
			}
			perr := limitError(format, file, line, k, v, err)
			if !opt.Lenient {
				return nil, perr
			}
			beyond[acctReason(perr)]++
			continue
		}
		if err := emit(j); err != nil {
			return nil, err
		}
	}
	return beyond, nil
}

// logMeta completes m, the metadata a reader of the given format returned
// for file: the machine size checked, the skipped jobs counted, the
// format, name and source (with its SHA-256, sum) filled in.
func logMeta(m Meta, format, file string, opt ReadOptions, beyond map[string]int64, sum []byte) (Meta, error) {
	if err := CheckMachine(int64(m.Nodes), int64(m.Procs)); err != nil {
		if !opt.Lenient {
			return Meta{}, fmt.Errorf("%s: machine size in the header: %w", file, err)
		}
		m.Nodes, m.Procs, m.ProcsPerNode = Unknown, Unknown, Unknown // taken from the jobs
		beyond["unreadable_machine_size"]++
	}
	if len(beyond) > 0 {
		m.Skipped = addCounts(addCounts(nil, m.Skipped), beyond)
	}
	if m.Format == "" {
		m.Format = format
	}
	m.Name = traceName(file)
	m.Sources = []Source{{Path: file, SHA256: hex.EncodeToString(sum)}}
	return m, nil
}

// recordLiner is implemented by the readers that know the line where the
// record of the job Next returned last starts, for the errors of the
// limits (see limits.go) that readLog checks on every job.
type recordLiner interface {
	recordLine() int
}

// decompressed returns r itself, or a gzip reader over it when it starts
// with the gzip magic bytes.
func decompressed(r *bufio.Reader) (io.Reader, error) {
	magic, _ := r.Peek(2)
	if !bytes.Equal(magic, []byte{0x1f, 0x8b}) {
		return r, nil
	}
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	return zr, nil
}

// chooseFormat returns the format called name, or the one detected from
// head when name is empty.
func chooseFormat(name string, head []byte) (Format, error) {
	if name == "" {
		return Detect(head)
	}
	for _, f := range Formats() {
		if f.Name == name {
			return f, nil
		}
	}
	return Format{}, fmt.Errorf("%w %q", ErrUnknownFmt, name)
}

// traceName is a log's base name without compression and format
// extensions: "x/NASA-iPSC-1993-3.1-cln.swf.gz" → "NASA-iPSC-1993-3.1-cln".
func traceName(path string) string {
	name := filepath.Base(path)
	name = strings.TrimSuffix(name, ".gz")
	switch ext := filepath.Ext(name); ext {
	case ".swf", ".gwf", ".log", ".txt", ".json", ".csv", ".acct", ".parquet":
		name = strings.TrimSuffix(name, ext)
	}
	return name
}

// mergeMetas combines the metadata of the logs of one trace: the first
// log's name and time zone, every source, the largest machine size (with a
// note when they differ), the earliest UnixStart, and summed counts.
func mergeMetas(ms []Meta) Meta {
	out := normalizedMeta(ms[0])
	for _, m := range ms[1:] {
		out.merge(normalizedMeta(m))
	}
	if len(out.Reservations) > 0 && len(ms) > 1 {
		out.Reservations = slices.Clone(out.Reservations)
		slices.SortStableFunc(out.Reservations, func(a, b Reservation) int { return cmp.Compare(a.Start, b.Start) })
	}
	if len(ms) > 1 {
		mergeMetaLayouts(&out, ms)
	}
	return out
}

// merge adds the metadata m of one more log to out (see mergeMetas); m is
// normalized.
func (out *Meta) merge(m Meta) {
	out.Sources = append(out.Sources, m.Sources...)
	if m.Format != out.Format {
		out.Format = "mixed"
	}
	if (m.Nodes != out.Nodes || m.Procs != out.Procs) && (len(m.Layout) == 0 || len(out.Layout) == 0) {
		out.Notes = append(out.Notes, fmt.Sprintf("logs disagree on machine size (%d nodes, %d procs vs %d, %d): the larger is kept", out.Nodes, out.Procs, m.Nodes, m.Procs))
		out.Nodes, out.Procs = max(out.Nodes, m.Nodes), max(out.Procs, m.Procs)
		out.ProcsPerNode = max(out.ProcsPerNode, m.ProcsPerNode)
	}
	if m.UnixStart != Unknown && (out.UnixStart == Unknown || m.UnixStart < out.UnixStart) {
		out.UnixStart = m.UnixStart
	}
	if m.EndTime != "" {
		out.EndTime = m.EndTime
	}
	for _, n := range m.Notes {
		if !slices.Contains(out.Notes, n) {
			out.Notes = append(out.Notes, n)
		}
	}
	out.Skipped = addCounts(out.Skipped, m.Skipped)
	out.Adjusted = addCounts(out.Adjusted, m.Adjusted)
	out.Reservations = append(out.Reservations, m.Reservations...)
}

// mergeMetaLayouts gives out the union of the logs' node layouts (each
// host with the most slots a log shows), or none, with a note, unless
// every log has one.
func mergeMetaLayouts(out *Meta, ms []Meta) {
	ls := make([][]LayoutGroup, len(ms))
	some := false
	for i, m := range ms {
		ls[i] = m.Layout
		some = some || len(m.Layout) > 0
	}
	if !some {
		return
	}
	merged, err := mergeLayouts(ls)
	if err != nil || merged == nil {
		out.Layout = nil
		out.Notes = append(out.Notes, "node layout dropped: not every log names the hosts its jobs ran on")
		return
	}
	setLayout(out, merged)
	out.Notes = append(out.Notes, fmt.Sprintf("node layout: the hosts of %d logs, each with the most slots a log shows", len(ms)))
}

// normalizedMeta makes a reader's metadata canonical: sizes ≤ 0 are Unknown
// and the count maps are never nil.
func normalizedMeta(m Meta) Meta {
	for _, p := range []*int{&m.Nodes, &m.Procs, &m.ProcsPerNode} {
		if *p <= 0 {
			*p = Unknown
		}
	}
	m.Skipped = addCounts(nil, m.Skipped)
	m.Adjusted = addCounts(nil, m.Adjusted)
	return m
}
