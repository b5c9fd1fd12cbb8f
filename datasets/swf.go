package datasets

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
)

// The SWF fields in file order (Parallel Workloads Archive, SWF v2.2); the
// names appear in ParseError.Field.
var swfFieldNames = [swfFields]string{
	"job_number", "submit_time", "wait_time", "run_time", "allocated_procs",
	"avg_cpu_time", "used_memory", "requested_procs", "requested_time",
	"requested_memory", "status", "user_id", "group_id", "executable",
	"queue", "partition", "preceding_job", "think_time",
}

const swfFields = 18

// Indices of the SWF fields the canonical Job keeps.
const (
	swfJob       = 0
	swfSubmit    = 1
	swfWait      = 2
	swfRun       = 3
	swfProcs     = 4
	swfReqProcs  = 7
	swfReqTime   = 8
	swfStatus    = 10
	swfUser      = 11
	swfGroup     = 12
	swfQueue     = 14
	swfPartition = 15
)

// swfKept marks the fields that reach the Job: a fraction in one of them is
// rounded and counted as "fraction_rounded"; the others (CPU time, memory,
// executable, dependencies) must be numbers but are not kept.
var swfKept = [swfFields]bool{
	swfJob: true, swfSubmit: true, swfWait: true, swfRun: true, swfProcs: true,
	swfReqProcs: true, swfReqTime: true, swfStatus: true, swfUser: true,
	swfGroup: true, swfQueue: true, swfPartition: true,
}

// detectSWF reports whether head looks like SWF: its first record line has
// 18 numeric whitespace-separated fields, or it has only ';' comments.
func detectSWF(head []byte) bool {
	sawComment := false
	for len(head) > 0 {
		line := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		line = bytes.TrimSpace(line)
		switch {
		case len(line) == 0:
		case line[0] == ';':
			sawComment = true
		default:
			return swfNumericFields(line) == swfFields
		}
	}
	return sawComment
}

// swfNumericFields counts the fields of line, or returns -1 if one is not
// a number.
func swfNumericFields(line []byte) int {
	n := 0
	for s, e := lexField(line, 0); s < e; s, e = lexField(line, e) {
		if _, _, ok := lexNumber(line[s:e]); !ok {
			return -1
		}
		n++
	}
	return n
}

// swfHeader is what the ';' comment lines of an SWF log said.
type swfHeader struct {
	maxNodes, maxProcs int64
	unixStart          int64
	timeZone           int64 // TimeZone: seconds east of UTC
	hasTimeZone        bool
	timeZoneString     string
	startTime, endTime string
	notes              []string
	queues, partitions map[int64]string
	lastKey            string // key of the previous comment line, for continuations
}

// swfReader streams the jobs of an SWF log.
type swfReader struct {
	in       *bufio.Reader
	file     string
	lenient  bool
	line     int
	long     []byte // a line longer than in's buffer
	hdr      swfHeader
	texts    map[int64]string // interned decimal texts of user, group, queue numbers
	small    []string         // the same for numbers below swfSmallTexts, by number
	skipped  map[string]int64
	adjusted map[string]int64
	err      error // the error that stopped the read, returned again by Next
}

func newSWFReader(r io.Reader, file string, opt ReadOptions) (Reader, error) {
	return &swfReader{
		in:      bufio.NewReaderSize(r, 64<<10),
		file:    file,
		lenient: opt.Lenient,
		hdr: swfHeader{
			maxNodes: Unknown, maxProcs: Unknown, unixStart: Unknown,
			queues: map[int64]string{}, partitions: map[int64]string{},
		},
		texts:    map[int64]string{},
		skipped:  map[string]int64{},
		adjusted: map[string]int64{},
	}, nil
}

// swfMaxLine bounds a line: a longer one is an error, not a reason to
// hold a whole damaged file in memory.
const swfMaxLine = 1 << 20

var errSWFLineTooLong = fmt.Errorf("%w: line longer than %d bytes", ErrRange, swfMaxLine)

// readLine returns the next line without its newline; the slice is valid
// until the next call. A line longer than swfMaxLine is skipped with
// errSWFLineTooLong.
func (r *swfReader) readLine() ([]byte, error) {
	line, err := r.in.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		r.long = append(r.long[:0], line...)
		for errors.Is(err, bufio.ErrBufferFull) {
			line, err = r.in.ReadSlice('\n')
			if len(r.long) <= swfMaxLine {
				r.long = append(r.long, line...)
			}
		}
		line = r.long
	}
	if err == io.EOF && len(line) > 0 {
		err = nil
	}
	if err != nil {
		return nil, err
	}
	r.line++
	if len(line) > swfMaxLine {
		return nil, errSWFLineTooLong
	}
	return bytes.TrimSuffix(line, []byte{'\n'}), nil
}

// Next returns the next job; after an error (or io.EOF) it returns the
// same error again.
func (r *swfReader) Next() (Job, error) {
	if r.err != nil {
		return Job{}, r.err
	}
	j, err := r.next()
	r.err = err
	return j, err
}

func (r *swfReader) next() (Job, error) {
	for {
		line, err := r.readLine()
		if err == errSWFLineTooLong {
			if !r.lenient {
				return Job{}, r.fieldError("line", "", err)
			}
			r.skipped["unreadable_line_length"]++
			continue
		}
		if err != nil {
			if err != io.EOF {
				err = fmt.Errorf("%s:%d: %w", r.file, r.line+1, err)
			}
			return Job{}, err
		}
		s, e := lexField(line, 0)
		if s == e {
			continue
		}
		if line[s] == ';' {
			r.hdr.parseComment(string(line[s+1:]))
			if perr := r.checkHeader(); perr != nil && !r.lenient {
				return Job{}, perr
			}
			continue
		}
		job, perr := r.parseJob(line)
		if perr != nil {
			if !r.lenient {
				return Job{}, perr
			}
			r.skipped[swfSkipReason(perr)]++
			continue
		}
		return job, nil
	}
}

// checkHeader checks the header values that size what a trace needs
// against the limits (limits.go): MaxNodes, MaxProcs, UnixStartTime and
// TimeZone. A value beyond them is an error naming the header line and
// key; in lenient mode the value is dropped (Unknown) and counted as
// "unreadable_<key>".
func (r *swfReader) checkHeader() *ParseError {
	h := &r.hdr
	for _, f := range [...]struct {
		key    string
		v      *int64
		ok     bool
		reason string
	}{
		{"MaxNodes", &h.maxNodes, h.maxNodes <= MaxNodes, fmt.Sprintf("more than MaxNodes (%d)", MaxNodes)},
		{"MaxProcs", &h.maxProcs, h.maxProcs <= MaxProcs, fmt.Sprintf("more than MaxProcs (%d)", MaxProcs)},
		{"UnixStartTime", &h.unixStart, h.unixStart <= MaxTime, "beyond MaxTime (2200-01-01 00:00 UTC)"},
		{"TimeZone", &h.timeZone, h.timeZone >= -86400 && h.timeZone <= 86400, "more than a day from UTC"},
	} {
		if f.ok {
			continue
		}
		perr := r.fieldError(f.key, strconv.FormatInt(*f.v, 10), fmt.Errorf("%w: %s", ErrRange, f.reason))
		if f.key == "TimeZone" {
			*f.v, h.hasTimeZone = 0, false
		} else {
			*f.v = Unknown
		}
		r.skipped["unreadable_"+f.key]++
		return perr
	}
	return nil
}

// swfSkipReason is the Meta.Skipped key of a record skipped in lenient
// mode: "unreadable_field_count" for a record with too few or too many
// fields, else "unreadable_" and the field's name.
func swfSkipReason(perr *ParseError) string {
	if errors.Is(perr, ErrFieldCount) {
		return "unreadable_field_count"
	}
	return "unreadable_" + perr.Field
}

// swfLimit names the limit of SWF field f in out-of-range errors.
func swfLimit(f int) string {
	switch f {
	case swfProcs, swfReqProcs:
		return countLimit(true)
	case swfSubmit:
		return limitName(0)
	case swfWait, swfRun, swfReqTime:
		return limitName(1)
	}
	return int64Limit
}

// parseJob reads the 18 fields of one record line.
func (r *swfReader) parseJob(line []byte) (Job, *ParseError) {
	var v [swfFields]int64
	e := 0
	for f := range swfFields {
		var s int
		var n int64
		var ok bool
		s, e, n, ok = lexIntField(line, e)
		if s == e {
			return Job{}, r.fieldError(swfFieldNames[f], "", fmt.Errorf("%w: %d fields, want %d", ErrFieldCount, f, swfFields))
		}
		if !ok { // not a plain integer: lexNumber decides
			var frac bool
			n, frac, ok = lexNumber(line[s:e])
			if !ok {
				return Job{}, r.fieldError(swfFieldNames[f], string(line[s:e]), numberError(line[s:e], swfLimit(f)))
			}
			if frac && swfKept[f] {
				r.adjusted["fraction_rounded"]++
			}
		}
		v[f] = n
	}
	if s, e := lexField(line, e); s < e {
		return Job{}, r.fieldError("field_count", string(line[s:e]), fmt.Errorf("%w: more than %d fields", ErrFieldCount, swfFields))
	}
	for _, f := range [...]int{swfProcs, swfReqProcs} {
		if v[f] > MaxProcs {
			return Job{}, r.fieldError(swfFieldNames[f], strconv.FormatInt(v[f], 10), procsError(v[f]))
		}
	}
	for _, f := range [...]int{swfProcs, swfReqProcs, swfStatus} {
		if v[f] > math.MaxInt32 || v[f] < math.MinInt32 {
			return Job{}, r.fieldError(swfFieldNames[f], strconv.FormatInt(v[f], 10), fmt.Errorf("%w: beyond int32", ErrRange))
		}
	}
	return Job{
		ID:        v[swfJob],
		Submit:    r.submit(v[swfSubmit]),
		Wait:      v[swfWait],
		Run:       v[swfRun],
		Procs:     int32(v[swfProcs]),
		ReqProcs:  int32(v[swfReqProcs]),
		ReqTime:   v[swfReqTime],
		Status:    int32(v[swfStatus]),
		User:      r.text(v[swfUser]),
		Group:     r.text(v[swfGroup]),
		Queue:     r.named(r.hdr.queues, v[swfQueue]),
		Partition: r.named(r.hdr.partitions, v[swfPartition]),
	}, nil
}

func (r *swfReader) recordLine() int { return r.line }

func (r *swfReader) fieldError(field, value string, err error) *ParseError {
	if len(value) > 40 {
		value = value[:40] + "…"
	}
	return &ParseError{File: r.file, Line: r.line, Field: field, Value: value, Err: err}
}

// submit turns SWF field 2 (seconds since UnixStartTime) into Unix seconds;
// a negative value means the log did not record it.
func (r *swfReader) submit(rel int64) int64 {
	switch {
	case rel < 0:
		return Unknown
	case r.hdr.unixStart == Unknown || rel > MaxTime: // beyond MaxTime, refused as is
		return rel
	default:
		return r.hdr.unixStart + rel
	}
}

// swfSmallTexts bounds the numbers whose texts swfReader.small holds.
const swfSmallTexts = 1 << 16

// text returns the decimal text of a user, group or queue number, interned
// (small numbers in a slice, the others in a map); negative numbers
// (unknown) give "".
func (r *swfReader) text(n int64) string {
	if n < 0 {
		return ""
	}
	if n < swfSmallTexts {
		if n < int64(len(r.small)) && r.small[n] != "" {
			return r.small[n]
		}
		if n >= int64(len(r.small)) {
			r.small = append(r.small, make([]string, max(int(n)+1, 2*len(r.small))-len(r.small))...)
		}
		r.small[n] = strconv.FormatInt(n, 10)
		return r.small[n]
	}
	s, ok := r.texts[n]
	if !ok {
		s = strconv.FormatInt(n, 10)
		r.texts[n] = s
	}
	return s
}

// named returns the name the header gave to queue or partition n, else its
// number as text.
func (r *swfReader) named(names map[int64]string, n int64) string {
	if len(names) > 0 {
		if name, ok := names[n]; ok && name != "" {
			return name
		}
	}
	return r.text(n)
}

// parseComment reads one header comment (the text after ';'). Keys are
// matched without regard to case or spaces; values keep only what a trace
// needs. An indented line after a Note continues it.
func (h *swfHeader) parseComment(text string) {
	if h.continueNote(text) {
		return
	}
	colon := strings.IndexByte(text, ':')
	if colon < 0 {
		h.lastKey = ""
		return
	}
	key := strings.ToLower(strings.ReplaceAll(strings.TrimSpace(text[:colon]), " ", ""))
	value := strings.TrimSpace(text[colon+1:])
	h.lastKey = key
	h.set(key, text[:colon], value)
}

// continueNote appends text to the last Note if text is an indented line
// right after one, and reports whether it did.
func (h *swfHeader) continueNote(text string) bool {
	if !(strings.HasPrefix(text, "\t") || strings.HasPrefix(text, "  ")) || h.lastKey != "note" || len(h.notes) == 0 {
		return false
	}
	if more := strings.TrimSpace(text); more != "" {
		h.notes[len(h.notes)-1] += " " + more
	}
	return true
}

// set keeps what a trace needs of the header field with the normalized key
// key, written as rawKey, and value value.
func (h *swfHeader) set(key, rawKey, value string) {
	switch key {
	case "maxnodes":
		h.maxNodes = leadingIntOr(value, h.maxNodes)
	case "maxprocs":
		h.maxProcs = leadingIntOr(value, h.maxProcs)
	case "unixstarttime":
		h.unixStart = leadingIntOr(value, h.unixStart)
	case "timezone":
		if v, ok := lexLeadingInt(value); ok {
			h.timeZone, h.hasTimeZone = v, true
		}
	case "timezonestring":
		h.timeZoneString = value
	case "starttime":
		h.startTime = value
	case "endtime":
		h.endTime = value
	case "note":
		h.notes = append(h.notes, value)
	case "computer", "installation":
		h.notes = append(h.notes, strings.TrimSpace(rawKey)+": "+value)
	case "queue":
		swfParseName(h.queues, value)
	case "partition":
		swfParseName(h.partitions, value)
	}
}

func leadingIntOr(s string, def int64) int64 {
	if v, ok := lexLeadingInt(s); ok {
		return v
	}
	return def
}

// swfParseName reads "3  normal  (comment)" into names[3] = "normal".
func swfParseName(names map[int64]string, value string) {
	fields := strings.Fields(value)
	if len(fields) < 2 {
		return
	}
	if n, err := strconv.ParseInt(fields[0], 10, 64); err == nil {
		names[n] = fields[1]
	}
}

// Meta returns the log's metadata: machine size from MaxNodes/MaxProcs
// (MaxProcs = MaxNodes when only MaxNodes is given), the time zone from
// TimeZoneString when Go knows it (its offset at UnixStartTime), else from
// TimeZone, and the counts of skipped and adjusted records.
func (r *swfReader) Meta() Meta {
	h := &r.hdr
	m := Meta{
		Format:       "swf",
		Nodes:        int(h.maxNodes),
		Procs:        int(h.maxProcs),
		ProcsPerNode: Unknown,
		UnixStart:    h.unixStart,
		StartTime:    h.startTime,
		EndTime:      h.endTime,
		Notes:        append([]string(nil), h.notes...),
		Skipped:      cloneCounts(r.skipped),
		Adjusted:     cloneCounts(r.adjusted),
	}
	if m.Procs == Unknown && m.Nodes > 0 {
		m.Procs = m.Nodes
		m.Notes = append(m.Notes, "MaxProcs absent: taken equal to MaxNodes")
	}
	m.ProcsPerNode = procsPerNode(m.Nodes, m.Procs, &m.Notes)
	m.TimeZone, m.TZOffset = h.zone()
	return m
}

// zone returns the time zone's name and its offset in seconds east of UTC
// at the log's start.
func (h *swfHeader) zone() (string, int) {
	if h.timeZoneString != "" {
		if loc, err := time.LoadLocation(h.timeZoneString); err == nil {
			at := h.unixStart
			if at == Unknown {
				at = 0
			}
			_, off := time.Unix(at, 0).In(loc).Zone()
			return h.timeZoneString, off
		}
	}
	if h.hasTimeZone {
		name := h.timeZoneString
		if name == "" {
			name = fixedZoneName(int(h.timeZone))
		}
		return name, int(h.timeZone)
	}
	return h.timeZoneString, 0
}

// fixedZoneName formats an offset as "UTC-08:00".
func fixedZoneName(off int) string {
	sign := '+'
	if off < 0 {
		sign, off = '-', -off
	}
	return fmt.Sprintf("UTC%c%02d:%02d", sign, off/3600, off%3600/60)
}

// procsPerNode is procs/nodes when both are known (rounded down, with a
// note when nodes are not all alike), else Unknown.
func procsPerNode(nodes, procs int, notes *[]string) int {
	if nodes <= 0 || procs <= 0 {
		return Unknown
	}
	if procs%nodes != 0 {
		*notes = append(*notes, fmt.Sprintf("%d processors on %d nodes: ProcsPerNode rounded down to %d", procs, nodes, procs/nodes))
	}
	return procs / nodes
}

func cloneCounts(m map[string]int64) map[string]int64 {
	out := make(map[string]int64, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
