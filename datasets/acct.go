package datasets

// Helpers shared by the accounting-log readers (GWF, Slurm, PBS, SGE/UGE,
// LSF, OAR, Argonne). Every identifier here starts with "acct" so that it
// cannot collide with the SWF reader's helpers in the same package.
//
// Skip keys these readers add to Meta.Skipped (each reader's file says
// which it uses and when):
//
//	not_ended              job did not run to an end (pending, running)    both modes
//	never_started          job ended without ever starting (cancelled)     both modes
//	duplicate              the same run listed again (Slurm)               both modes
//	orphan_step            job step without its allocation row (Slurm)     both modes
//	truncated              record cut short (Slurm)                        lenient
//	unreadable_<field>     record with a bad value in <field>              lenient
//	unreadable_field_count record with a wrong number of fields            lenient
//	unreadable_record      other unreadable record                         lenient

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// acctBufSize is the bufio buffer of every line-oriented reader: large
// enough that ordinary records are returned without copying.
const acctBufSize = 1 << 20

// acctMaxLine bounds one physical line; a longer one is a syntax error, so
// a corrupt file without newlines cannot exhaust memory.
const acctMaxLine = 64 << 20

// acctLines reads physical lines. The slice returned by next is valid until
// the following call.
type acctLines struct {
	br   *bufio.Reader
	long []byte // assembles lines longer than the bufio buffer
	line int    // 1-based number of the line last returned
}

func acctNewLines(r io.Reader) *acctLines {
	size := acctBufSize
	if l, ok := r.(interface{ Len() int }); ok {
		// An input in memory (bytes.Reader, strings.Reader) smaller than
		// the buffer needs no more than itself: reading many small ones
		// (the tests, the fuzz targets) then allocates kilobytes, not a
		// megabyte, each.
		size = min(size, max(l.Len()+1, 4096))
	}
	return &acctLines{br: bufio.NewReaderSize(r, size)}
}

// next returns the next line without its "\n" or "\r\n", or io.EOF.
func (l *acctLines) next() ([]byte, error) {
	b, err := l.br.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		l.long = append(l.long[:0], b...)
		for errors.Is(err, bufio.ErrBufferFull) {
			if len(l.long) > acctMaxLine {
				l.line++
				return nil, fmt.Errorf("line %d longer than %d bytes: %w", l.line, acctMaxLine, ErrSyntax)
			}
			b, err = l.br.ReadSlice('\n')
			l.long = append(l.long, b...)
		}
		b = l.long
	}
	if err != nil && err != io.EOF {
		return nil, err
	}
	if len(b) == 0 && err == io.EOF {
		return nil, io.EOF
	}
	l.line++
	b = bytes.TrimSuffix(b, []byte{'\n'})
	b = bytes.TrimSuffix(b, []byte{'\r'})
	return b, nil
}

// acctInterner returns one shared string per distinct user, group or queue
// name, so that steady-state reading does not allocate for them. It stops
// growing at acctInternMax entries (then it allocates like string(b)).
type acctInterner map[string]string

const acctInternMax = 1 << 16

func (in acctInterner) get(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if s, ok := in[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(in) < acctInternMax {
		in[s] = s
	}
	return s
}

// acctInt parses a base-10 integer without allocating.
func acctInt(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 19 {
		return 0, false
	}
	neg := false
	if b[0] == '-' || b[0] == '+' {
		neg = b[0] == '-'
		b = b[1:]
		if len(b) == 0 {
			return 0, false
		}
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		d := int64(c - '0')
		if n > (math.MaxInt64-d)/10 {
			return 0, false // overflow
		}
		n = n*10 + d
	}
	if neg {
		n = -n
	}
	return n, true
}

// acctNumber parses an integer or a decimal number (as logs write "60.0"
// in integer columns) and rounds it to the nearest integer.
func acctNumber(b []byte) (int64, bool) {
	if n, ok := acctInt(b); ok {
		return n, true
	}
	if len(b) == 0 || bytes.IndexByte(b, '.') < 0 {
		return 0, false
	}
	for _, c := range b {
		if (c < '0' || c > '9') && c != '.' && c != '-' && c != '+' {
			return 0, false // no exponents, NaN or Inf
		}
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil || f > 9e18 || f < -9e18 {
		return 0, false
	}
	if f < 0 {
		return int64(f - 0.5), true
	}
	return int64(f + 0.5), true
}

// acctClock parses a duration "[D-]HH:MM:SS", "HH:MM:SS", "MM:SS" or plain
// seconds, with an optional fraction of a second (dropped). Hours may
// exceed 23 (PBS writes "144:00:00").
func acctClock(b []byte) (int64, bool) {
	if i := bytes.IndexByte(b, '.'); i >= 0 {
		if _, ok := acctInt(b[i+1:]); !ok {
			return 0, false
		}
		b = b[:i]
	}
	var days int64
	if i := bytes.IndexByte(b, '-'); i >= 0 {
		d, ok := acctInt(b[:i])
		if !ok || d < 0 {
			return 0, false
		}
		days, b = d, b[i+1:]
	}
	total, parts, ok := acctClockParts(b)
	if !ok || parts > 3 || (days > 0 && parts != 3) {
		return 0, false
	}
	return days*86400 + total, true
}

// acctClockParts reads the ':'-separated parts of a clock such as "HH:MM:SS"
// as seconds (every part after the first below 60) and counts them.
func acctClockParts(b []byte) (total int64, parts int, ok bool) {
	for len(b) > 0 || parts == 0 {
		i := bytes.IndexByte(b, ':')
		part := b
		if i >= 0 {
			part, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		v, ok := acctInt(part)
		if !ok || v < 0 || part[0] == '+' || part[0] == '-' {
			return 0, 0, false
		}
		if parts > 0 && v > 59 {
			return 0, 0, false
		}
		total = total*60 + v
		parts++
		if i >= 0 && len(b) == 0 {
			return 0, 0, false // trailing colon
		}
	}
	return total, parts, true
}

// acctDaysFromCivil returns the days since 1970-01-01 of a proleptic
// Gregorian date (Howard Hinnant's algorithm), for allocation-free parsing.
func acctDaysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era--
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// acctDigits reads a run of decimal digits (no sign).
func acctDigits(b []byte) (int64, bool) {
	if len(b) == 0 || b[0] == '-' || b[0] == '+' {
		return 0, false
	}
	return acctInt(b)
}

var acctMonthDays = [13]int64{0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}

// acctDateTime turns a validated calendar date and clock time into Unix
// seconds, reporting false for impossible dates.
func acctDateTime(y, mo, d, h, mi, s int64) (int64, bool) {
	if mo < 1 || mo > 12 || d < 1 || d > acctMonthDays[mo] || h > 23 || mi > 59 || s > 60 {
		return 0, false
	}
	if mo == 2 && d == 29 && !(y%4 == 0 && (y%100 != 0 || y%400 == 0)) {
		return 0, false
	}
	return acctDaysFromCivil(y, mo, d)*86400 + h*3600 + mi*60 + s, true
}

// acctSkip counts a skipped record under reason.
func acctSkip(m *Meta, reason string) {
	if m.Skipped == nil {
		m.Skipped = make(map[string]int64)
	}
	m.Skipped[reason]++
}

// acctReason is the Skipped key of a record rejected in lenient mode, as
// the SWF reader counts them: "unreadable_" and the field's name as the
// error names it, "unreadable_field_count" for a wrong number of fields,
// "unreadable_record" for other errors not tied to one field.
func acctReason(pe *ParseError) string {
	switch {
	case pe.Field != "":
		return "unreadable_" + pe.Field
	case errors.Is(pe.Err, ErrFieldCount):
		return "unreadable_field_count"
	}
	return "unreadable_record"
}

// acctValue shortens a field value quoted in an error message.
func acctValue(b []byte) string {
	const max = 80
	if len(b) > max {
		return string(b[:max]) + "…"
	}
	return string(b)
}

// acctMeta returns the metadata every reader starts from: nothing known.
func acctMeta(format, file string) Meta {
	return Meta{
		Name:         acctBaseName(file),
		Format:       format,
		Nodes:        Unknown,
		Procs:        Unknown,
		ProcsPerNode: Unknown,
		UnixStart:    Unknown,
	}
}

func acctBaseName(file string) string {
	if i := strings.LastIndexAny(file, `/\`); i >= 0 {
		file = file[i+1:]
	}
	for _, ext := range []string{".gz", ".log", ".json", ".swf", ".gwf", ".txt", ".csv"} {
		file = strings.TrimSuffix(file, ext)
	}
	return file
}

// acctHeadSize is the most Detect is given (see Format.Detect).
const acctHeadSize = 64 << 10

// acctFirstLines returns up to n non-empty lines of head that do not start
// with one of the comment prefixes, dropping a last line that may have been
// cut by the 64 KiB head limit.
func acctFirstLines(head []byte, n int, comments string) [][]byte {
	whole := len(head) < acctHeadSize
	var out [][]byte
	for len(head) > 0 && len(out) < n {
		i := bytes.IndexByte(head, '\n')
		if i < 0 {
			if whole {
				i = len(head)
			} else {
				break // possibly cut: never judge a partial line
			}
		}
		line := bytes.TrimRight(head[:i], "\r")
		head = head[min(i+1, len(head)):]
		t := bytes.TrimSpace(line)
		if len(t) == 0 || strings.IndexByte(comments, t[0]) >= 0 {
			continue
		}
		out = append(out, line)
	}
	return out
}

// acctFields splits line at runs of spaces and tabs into dst[:0].
func acctFields(dst [][]byte, line []byte) [][]byte {
	dst = dst[:0]
	i := 0
	for i < len(line) {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		j := i
		for j < len(line) && line[j] != ' ' && line[j] != '\t' {
			j++
		}
		if j > i {
			dst = append(dst, line[i:j])
		}
		i = j
	}
	return dst
}

// acctHeaderInt reads the leading integer of a header value such as
// "338 (batch partition; 512 total)".
func acctHeaderInt(v []byte) (int, bool) {
	v = bytes.TrimSpace(v)
	end := 0
	for end < len(v) && v[end] >= '0' && v[end] <= '9' {
		end++
	}
	n, ok := acctInt(v[:end])
	if !ok || n > 1<<40 {
		return 0, false
	}
	return int(n), true
}

// acctHeaderKey splits a comment line "; Key: value" (any of the comment
// characters, any spacing) into key and value.
func acctHeaderKey(line []byte, comments string) (key string, value []byte, ok bool) {
	t := bytes.TrimSpace(line)
	if len(t) == 0 || strings.IndexByte(comments, t[0]) < 0 {
		return "", nil, false
	}
	t = bytes.TrimSpace(t[1:])
	i := bytes.IndexByte(t, ':')
	if i <= 0 {
		return "", nil, false
	}
	return string(bytes.TrimSpace(t[:i])), t[i+1:], true
}

// acctMachineHeader applies the MaxNodes and MaxProcs header keys of
// SWF-like logs to m.
func acctMachineHeader(m *Meta, key string, value []byte) {
	switch strings.ToLower(key) {
	case "maxnodes":
		if n, ok := acctHeaderInt(value); ok {
			m.Nodes = n
		}
	case "maxprocs":
		if n, ok := acctHeaderInt(value); ok {
			m.Procs = n
		}
	default:
		return
	}
	if m.Nodes > 0 && m.Procs > 0 && m.Procs%m.Nodes == 0 {
		m.ProcsPerNode = m.Procs / m.Nodes
	}
}

// acctLineReader is what the line-per-record readers (GWF, Argonne, PBS,
// SGE/UGE, LSF) share: the line source, file, options, meta and sticky
// error, with the skipping of blank and comment lines and the strict or
// lenient handling of bad records. Each reader embeds it; its Next is
//
//	for {
//		line, err := r.nextLine()
//		if err != nil {
//			return Job{}, err
//		}
//		job, keep, perr := r.parse(line)
//		if done, err := r.take(perr, keep); done {
//			return job, err
//		}
//	}
//
// (the reader's own parse is called directly: through a func value or an
// interface the loop was slower, measured in docs/performance.md).
type acctLineReader struct {
	lines *acctLines
	file  string
	opt   ReadOptions
	meta  Meta
	// comments holds the characters that start a comment line; such lines
	// are skipped, and read for MaxNodes/MaxProcs when machineHeader is set.
	comments      string
	machineHeader bool
	err           error // sticky: returned again by every later call
}

// acctNewLineReader reads r, named file, as a log of the given format; the
// caller sets comments and machineHeader.
func acctNewLineReader(r io.Reader, format, file string, opt ReadOptions) acctLineReader {
	return acctLineReader{lines: acctNewLines(r), file: file, opt: opt, meta: acctMeta(format, file)}
}

func (a *acctLineReader) Meta() Meta { return a.meta }

// recordLine is the line of the record last read (one line a record).
func (a *acctLineReader) recordLine() int { return a.lines.line }

// nextLine returns the next line that is neither blank nor a comment, as
// read (not trimmed). At the end it returns io.EOF, on a read error the
// error wrapped with the file name; from then on it returns that error
// again, as it does a ParseError take returned.
func (a *acctLineReader) nextLine() ([]byte, error) {
	line, _, err := a.nextRecord()
	return line, err
}

// nextRecord is nextLine returning the line both as read and trimmed.
func (a *acctLineReader) nextRecord() (line, trimmed []byte, err error) {
	if a.err != nil {
		return nil, nil, a.err
	}
	for {
		line, err := a.lines.next()
		if err != nil {
			if err != io.EOF {
				err = fmt.Errorf("%s: %w", a.file, err)
			}
			a.err = err
			return nil, nil, err
		}
		t := bytes.TrimSpace(line)
		if len(t) == 0 {
			continue
		}
		if a.isComment(t[0]) {
			if a.machineHeader {
				if perr := a.machineLine(t); perr != nil {
					a.err = perr
					return nil, nil, perr
				}
			}
			continue
		}
		return line, t, nil
	}
}

// machineLine reads a header comment for the machine size; a size
// beyond the limits is a ParseError naming the line and the header field
// in a strict read, and in a lenient one leaves the size unknown (taken
// from the jobs) and is counted.
func (a *acctLineReader) machineLine(t []byte) *ParseError {
	key, value, ok := acctHeaderKey(t, a.comments)
	if !ok {
		return nil
	}
	acctMachineHeader(&a.meta, key, value)
	err := CheckMachine(int64(a.meta.Nodes), int64(a.meta.Procs))
	if err == nil {
		return nil
	}
	if !a.opt.Lenient {
		return &ParseError{File: a.file, Line: a.lines.line, Field: key, Value: acctValue(bytes.TrimSpace(value)), Err: err}
	}
	a.meta.Nodes, a.meta.Procs, a.meta.ProcsPerNode = Unknown, Unknown, Unknown
	acctSkip(&a.meta, "unreadable_machine_size")
	return nil
}

// isComment reports whether a line starting with c is a comment: a loop
// over the one or two comment characters, cheaper than strings.IndexByte.
func (a *acctLineReader) isComment(c byte) bool {
	for i := 0; i < len(a.comments); i++ {
		if a.comments[i] == c {
			return true
		}
	}
	return false
}

// take judges what a reader's parse made of a line: a ParseError ends Next
// with the error in strict mode (done, and sticky), and in lenient mode is
// counted in Meta.Skipped; otherwise Next is done when the record is a job
// to keep.
func (a *acctLineReader) take(perr *ParseError, keep bool) (done bool, err error) {
	if perr == nil {
		return keep, nil
	}
	if !a.opt.Lenient {
		a.err = perr
		return true, perr
	}
	acctSkip(&a.meta, acctReason(perr))
	return false, nil
}

// errAt is the ParseError of the line last read, for field (empty when the
// error is not tied to one) with the offending value.
func (a *acctLineReader) errAt(field string, value []byte, err error) *ParseError {
	return &ParseError{File: a.file, Line: a.lines.line, Field: field, Value: acctValue(value), Err: err}
}

// acctWithCount returns m with the note "<n> <what>" added when n > 0,
// without writing into the array behind m.Notes.
func acctWithCount(m Meta, n int64, what string) Meta {
	if n > 0 {
		m.Notes = append(m.Notes[:len(m.Notes):len(m.Notes)], fmt.Sprintf("%d %s", n, what))
	}
	return m
}

// acctColumnReader is an acctLineReader for logs of one job a line in a
// fixed number of columns separated by white space (GWF, Argonne).
type acctColumnReader struct {
	acctLineReader
	columns []string // the columns' names, for errors
	fields  [][]byte // the columns of the line last read
	names   acctInterner
}

// acctNewColumnReader is acctNewLineReader for a log whose columns are
// named columns.
func acctNewColumnReader(r io.Reader, format, file string, opt ReadOptions, columns []string) acctColumnReader {
	return acctColumnReader{acctLineReader: acctNewLineReader(r, format, file, opt), columns: columns, names: acctInterner{}}
}

// nextColumns returns the columns of the next record line, trimmed and
// split at white space: a line with the wrong number of columns goes to
// take as a ParseError. Errors are those of nextLine and take.
func (r *acctColumnReader) nextColumns() ([][]byte, error) {
	for {
		_, line, err := r.nextRecord()
		if err != nil {
			return nil, err
		}
		r.fields = acctFields(r.fields, line)
		if len(r.fields) == len(r.columns) {
			return r.fields, nil
		}
		perr := r.errAt("", line, fmt.Errorf("%d fields, want %d: %w", len(r.fields), len(r.columns), ErrFieldCount))
		if _, err := r.take(perr, false); err != nil {
			return nil, err
		}
	}
}

// fieldErr is the ParseError of column i of the line last read.
func (r *acctColumnReader) fieldErr(i int, err error) *ParseError {
	return r.errAt(r.columns[i], r.fields[i], err)
}
