package datasets

// OAR job tables as JSON: an object whose "jobs" member maps job ids to
// job objects (an array of job objects is accepted too). Two layouts are
// read, both from OAR 2 (traces/samples/oar):
//
//	gantt dump       submission_time start_time stop_time walltime
//	                 resources[] queue_name user state
//	oarstat -f -J    submissionTime startTime stopTime walltime
//	                 assigned_resources[] queue owner/job_user state
//	                 exit_code message ("R=2,W=0:14:51,...")
//
// Mapping: ID is the job's key (or Job_Id); Procs the number of resources
// assigned (OAR's unit of allocation: cores or nodes, as the server was
// configured); ReqProcs the R= of message when present; ReqTime walltime;
// Run stop − start; Wait start − submission. Status: Terminated → 1, or 0
// when exit_code is non-zero; Error → 0. Jobs in any other state (Waiting,
// Hold, Running, ...) are skipped as "not_ended", ended jobs without a start
// time as "never_started". A top-level "resources" array (gantt dump) gives
// Meta.Procs (resources of type default) and Meta.Nodes (distinct
// network_address).
//
// Advance reservations: a job whose reservation field is "Scheduled" ran
// in a window reserved ahead, from its start_time for its walltime (its
// run time when it has none). It enters Meta.Reservations (job, start,
// end, resources) and the trace as submitted at its reserved start, so
// it is not counted as having waited (Meta.Adjusted
// "reservation_submitted_at_start"): a replay holds its resources
// powered for the window instead (sim).
//
// The file is read as a token stream (one job object in memory at a time).
// A job whose values have the wrong JSON type is an error at the line where
// the job starts (skipped in lenient mode); broken JSON syntax ends the
// read in both modes, as nothing after it can be trusted.

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

type oarJob struct {
	JobID string `json:"Job_Id"`
	State string `json:"state"`
	// gantt layout
	SubmissionTime *int64  `json:"submission_time"`
	StartTime      *int64  `json:"start_time"`
	StopTime       *int64  `json:"stop_time"`
	QueueName      string  `json:"queue_name"`
	User           string  `json:"user"`
	Resources      []int64 `json:"resources"`
	// oarstat layout
	SubmissionTime2   *int64  `json:"submissionTime"`
	StartTime2        *int64  `json:"startTime"`
	StopTime2         *int64  `json:"stopTime"`
	Queue             string  `json:"queue"`
	Owner             string  `json:"owner"`
	JobUser           string  `json:"job_user"`
	AssignedResources []int64 `json:"assigned_resources"`
	ExitCode          *int64  `json:"exit_code"`
	Message           string  `json:"message"`
	// both
	Walltime    *int64 `json:"walltime"`
	Reservation string `json:"reservation"` // None, toSchedule, Scheduled
}

type oarResource struct {
	Type           string `json:"type"`
	NetworkAddress string `json:"network_address"`
}

type oarReader struct {
	dec    *json.Decoder
	lines  *oarLineTracker
	file   string
	opt    ReadOptions
	meta   Meta
	intern acctInterner
	hosts  map[string]struct{}
	procs  int

	depth  int  // 0 top level, 1 inside "jobs"
	inMap  bool // "jobs" is an object (keys are ids), not an array
	closed bool // top-level object finished
	err    error

	jobLine int // line where the job last returned starts
}

func newOARReader(r io.Reader, file string, opt ReadOptions) (Reader, error) {
	t := &oarLineTracker{r: r, line: 1}
	dec := json.NewDecoder(t)
	rd := &oarReader{dec: dec, lines: t, file: file, opt: opt, meta: acctMeta("oar", file),
		intern: acctInterner{}, hosts: map[string]struct{}{}}
	if err := rd.expectDelim('{'); err != nil {
		return nil, err
	}
	return rd, nil
}

// detectOAR accepts a JSON object with a "jobs" member and OAR's
// submission time key.
func detectOAR(head []byte) bool {
	t := bytes.TrimLeft(head, " \t\r\n")
	return len(t) > 0 && t[0] == '{' && bytes.Contains(head, []byte(`"jobs"`)) &&
		(bytes.Contains(head, []byte(`"submission_time"`)) || bytes.Contains(head, []byte(`"submissionTime"`)))
}

func (r *oarReader) Meta() Meta {
	m := r.meta
	if len(m.Reservations) > 0 {
		m.Reservations = slices.Clone(m.Reservations)
		slices.SortStableFunc(m.Reservations, func(a, b Reservation) int { return cmp.Compare(a.Start, b.Start) })
	}
	if r.procs > 0 {
		m.Procs = r.procs
		m.Nodes = len(r.hosts)
		if m.Nodes > 0 && m.Procs%m.Nodes == 0 {
			m.ProcsPerNode = m.Procs / m.Nodes
		}
	}
	return m
}

func (r *oarReader) syntaxErr(err error) error {
	line := r.lines.lineAt(r.dec.InputOffset())
	if errors.Is(err, io.EOF) {
		err = fmt.Errorf("unexpected end of JSON: %w", ErrSyntax)
	} else if !errors.Is(err, ErrSyntax) {
		err = fmt.Errorf("%v: %w", err, ErrSyntax)
	}
	return &ParseError{File: r.file, Line: line, Err: err}
}

func (r *oarReader) expectDelim(d json.Delim) error {
	tok, err := r.dec.Token()
	if err != nil {
		return r.syntaxErr(err)
	}
	if got, ok := tok.(json.Delim); !ok || got != d {
		return r.syntaxErr(fmt.Errorf("expected %q, found %v", d, tok))
	}
	return nil
}

func (r *oarReader) Next() (Job, error) {
	for r.err == nil {
		job, ok, err := r.advance()
		switch {
		case err != nil:
			var pe *ParseError
			if r.opt.Lenient && errors.As(err, &pe) && pe.Field != "" {
				acctSkip(&r.meta, acctReason(pe))
				continue
			}
			r.err = err
		case ok:
			return job, nil
		}
	}
	return Job{}, r.err
}

// advance moves through the document: it returns a job, nothing (a skipped
// job or a top-level member) or an error; io.EOF at the end.
func (r *oarReader) advance() (Job, bool, error) {
	if r.depth == 0 {
		return Job{}, false, r.topLevel()
	}
	if !r.dec.More() {
		if _, err := r.dec.Token(); err != nil { // closing } or ]
			return Job{}, false, r.syntaxErr(err)
		}
		r.depth = 0
		return Job{}, false, nil
	}
	key := ""
	if r.inMap {
		tok, err := r.dec.Token()
		if err != nil {
			return Job{}, false, r.syntaxErr(err)
		}
		key, _ = tok.(string)
	}
	line := r.lines.lineAt(r.dec.InputOffset())
	var j oarJob
	if err := r.dec.Decode(&j); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			err := fmt.Errorf("JSON %s where %s expected: %w", te.Value, te.Type, ErrSyntax)
			if n, ok := strings.CutPrefix(te.Value, "number "); ok && tooLarge([]byte(n)) {
				err = fmt.Errorf("JSON %s: %w: beyond %s", te.Value, ErrRange, int64Limit)
			}
			return Job{}, false, &ParseError{File: r.file, Line: line, Field: te.Field, Value: te.Value, Err: err}
		}
		return Job{}, false, r.syntaxErr(err)
	}
	r.jobLine = line
	return r.job(key, &j, line)
}

func (r *oarReader) recordLine() int { return r.jobLine }

// topLevel reads one member of the top-level object.
func (r *oarReader) topLevel() error {
	if r.closed {
		return io.EOF
	}
	if !r.dec.More() {
		if _, err := r.dec.Token(); err != nil {
			return r.syntaxErr(err)
		}
		r.closed = true
		if _, err := r.dec.Token(); err != io.EOF {
			return r.syntaxErr(errors.New("data after the JSON object"))
		}
		return io.EOF
	}
	tok, err := r.dec.Token()
	if err != nil {
		return r.syntaxErr(err)
	}
	switch key, _ := tok.(string); key {
	case "jobs":
		tok, err := r.dec.Token()
		if err != nil {
			return r.syntaxErr(err)
		}
		d, _ := tok.(json.Delim)
		if d != '{' && d != '[' {
			return r.syntaxErr(fmt.Errorf(`"jobs" is %v, not an object or array`, tok))
		}
		r.depth, r.inMap = 1, d == '{'
	case "resources":
		return r.resources()
	default:
		var skip json.RawMessage
		if err := r.dec.Decode(&skip); err != nil {
			return r.syntaxErr(err)
		}
	}
	return nil
}

// resources counts the machine's resources and hosts.
func (r *oarReader) resources() error {
	tok, err := r.dec.Token()
	if err != nil {
		return r.syntaxErr(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		if ok && (d == '{') {
			return r.syntaxErr(errors.New(`"resources" is an object, not an array`))
		}
		return nil // a scalar: nothing to count
	}
	for r.dec.More() {
		var res oarResource
		if err := r.dec.Decode(&res); err != nil {
			return r.syntaxErr(err)
		}
		if res.Type == "" || res.Type == "default" {
			r.procs++
			r.hosts[res.NetworkAddress] = struct{}{}
		}
	}
	_, err = r.dec.Token()
	if err != nil {
		return r.syntaxErr(err)
	}
	return nil
}

func oarFirst(a, b *int64) int64 {
	switch {
	case a != nil:
		return *a
	case b != nil:
		return *b
	}
	return Unknown
}

func oarFirstString(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

func (r *oarReader) job(key string, j *oarJob, line int) (Job, bool, error) {
	fail := func(field, value string, err error) (Job, bool, error) {
		return Job{}, false, &ParseError{File: r.file, Line: line, Field: field, Value: value, Err: err}
	}
	idText := oarFirstString(key, j.JobID)
	id, err := strconv.ParseInt(idText, 10, 64)
	if err != nil {
		return fail("Job_Id", idText, ErrSyntax)
	}
	submit := oarFirst(j.SubmissionTime, j.SubmissionTime2)
	start := oarFirst(j.StartTime, j.StartTime2)
	stop := oarFirst(j.StopTime, j.StopTime2)
	if submit <= 0 {
		return fail("submission_time", strconv.FormatInt(submit, 10), fmt.Errorf("no submission time: %w", ErrRange))
	}
	status, ended, known := oarStatus(j)
	if !known {
		return fail("state", j.State, fmt.Errorf("unknown job state: %w", ErrSyntax))
	}
	if !ended {
		acctSkip(&r.meta, "not_ended")
		return Job{}, false, nil
	}
	if start <= 0 || stop <= 0 {
		acctSkip(&r.meta, "never_started")
		return Job{}, false, nil
	}
	if stop < start {
		return fail("stop_time", strconv.FormatInt(stop, 10), fmt.Errorf("before start_time: %w", ErrRange))
	}
	procs, reqTime := oarProcs(j), oarWalltime(j)
	if j.Reservation == "Scheduled" {
		r.reserve(id, start, stop, reqTime, procs)
		submit = start
	}
	return Job{
		ID: id, Submit: submit, Wait: start - submit, Run: stop - start,
		Procs: procs, ReqProcs: oarRequested(j.Message), ReqTime: reqTime, Status: status,
		User:  r.intern.get([]byte(oarFirstString(j.User, j.JobUser, j.Owner))),
		Queue: r.intern.get([]byte(oarFirstString(j.QueueName, j.Queue))),
	}, true, nil
}

// oarStatus maps the job's state to the SWF status (1 for a job that
// terminated with exit code 0), whether the job has ended, and whether
// OAR has that state at all.
func oarStatus(j *oarJob) (status int32, ended, known bool) {
	switch j.State {
	case "Terminated":
		if j.ExitCode != nil && *j.ExitCode != 0 {
			return 0, true, true
		}
		return 1, true, true
	case "Error":
		return 0, true, true
	case "Waiting", "Hold", "toLaunch", "toError", "toAckReservation", "Launching",
		"Running", "Suspended", "Resuming", "Finishing":
		return 0, false, true
	}
	return 0, false, false
}

// oarProcs returns the number of resources the job was given, Unknown
// when the record lists none.
func oarProcs(j *oarJob) int32 {
	res := j.Resources
	if res == nil {
		res = j.AssignedResources
	}
	if res == nil {
		return Unknown
	}
	return int32(len(res))
}

// oarWalltime returns the job's requested wall time, Unknown when absent
// or negative.
func oarWalltime(j *oarJob) int64 {
	if j.Walltime != nil && *j.Walltime >= 0 {
		return *j.Walltime
	}
	return Unknown
}

// reserve records the reservation of job id, from start to the end of its
// wall time (or stop when it has none), and counts its submit time moved
// to its start.
func (r *oarReader) reserve(id, start, stop, reqTime int64, procs int32) {
	end := stop
	if reqTime != Unknown {
		end = start + reqTime
	}
	r.meta.Reservations = append(r.meta.Reservations, Reservation{JobID: id, Start: start, End: end, Procs: procs})
	if r.meta.Adjusted == nil {
		r.meta.Adjusted = make(map[string]int64)
	}
	r.meta.Adjusted["reservation_submitted_at_start"]++
}

// oarRequested reads "R=N" from an oarstat message such as
// "R=2,W=0:14:51,J=B"; Unknown when absent.
func oarRequested(msg string) int32 {
	for len(msg) > 0 {
		part := msg
		if i := strings.IndexByte(msg, ','); i >= 0 {
			part, msg = msg[:i], msg[i+1:]
		} else {
			msg = ""
		}
		if len(part) > 2 && part[:2] == "R=" {
			if n, err := strconv.ParseInt(part[2:], 10, 32); err == nil && n >= 0 {
				return int32(n)
			}
		}
	}
	return Unknown
}

// oarLineTracker counts lines of the bytes the JSON decoder has consumed:
// it keeps the bytes read but not yet counted, and lineAt (called with
// offsets that only grow) counts newlines up to an offset.
type oarLineTracker struct {
	r    io.Reader
	buf  []byte
	base int64 // stream offset of buf[0]
	line int   // line number at base
}

func (t *oarLineTracker) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	t.buf = append(t.buf, p[:n]...)
	return n, err
}

func (t *oarLineTracker) lineAt(off int64) int {
	k := int(off - t.base)
	if k < 0 || k > len(t.buf) {
		return t.line
	}
	t.line += bytes.Count(t.buf[:k], []byte{'\n'})
	t.buf = append(t.buf[:0], t.buf[k:]...)
	t.base = off
	return t.line
}
