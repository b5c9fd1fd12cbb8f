package datasets

// Slurm accounting as printed by `sacct --parsable2` ('|'-separated, one
// record per job, job array task or job step).
//
// Columns. A first line naming the columns (all its fields are words, one
// of them a sacct column name) is a header; the reader needs JobID, Submit
// and State, and uses JobIDRaw, Partition, User/UID, Group/GID, Start, End,
// Elapsed, NCPUS/AllocCPUS, ReqCPUS, Timelimit and NodeList when present. Without a header the
// columns are those XDMoD asks for (slurmXDMoDColumns):
//
//	TZ=UTC sacct --parsable2 --noheader --allocations --duplicates --format \
//	  jobid,jobidraw,cluster,partition,qos,account,group,gid,user,uid,submit,\
//	  eligible,start,end,elapsed,exitcode,state,nnodes,ncpus,reqcpus,reqmem,\
//	  reqtres,alloctres,timelimit,nodelist,jobname
//
// Output of sacct --parsable (every line ends with '|') is read too.
//
// Times "YYYY-MM-DDTHH:MM:SS" are read as UTC (the time zone is not in
// the log; export with TZ=UTC as XDMoD does); "Unknown", "None" and empty
// mean unknown. Durations are "[D-]HH:MM:SS", "MM:SS" or seconds;
// "UNLIMITED" and "Partition_Limit" time limits are unknown.
//
// Unescaped separators. sacct does not escape '|' or newlines inside text
// (JobName, SubmitLine, Comment, Constraints, ...). A record with fewer
// fields than the header continues on the next physical line (joined with
// "\n") until it is complete, unless that next line is a whole record by
// itself: then the short record is truncated (an error). A record with more
// fields than the header is resolved by anchoring: every column of a known
// format (times, durations, counts, job id, state, exit code) must take
// exactly one field that matches its format, and only the free-text
// columns (slurmText in slurmColumnKinds) may take several; each of these,
// from the first, takes as few fields as still lets every later column
// match (a small dynamic program over the extra separators). Which text
// column holds a '|' can stay ambiguous; in the layouts of the samples the
// columns the reader uses are always placed right (slurm_test.go).
//
// Records. The job id "J" is an allocation, "J_I" a started array task
// (sacct gives it its own JobIDRaw), "J_[1-3,7,9-11%2]" the not yet
// started rest of an array: such a record stands for one job per index
// (all with the record's ID, as the log gives no per-task id). Steps
// ("J.batch", "J.extern", "J.0") are folded into the allocation row just
// before them: they only fill in a start, end or processor count the
// allocation lacks; a step without its allocation is skipped as
// "orphan_step". Job.ID is JobIDRaw when it is a plain number, else J.
//
// States. COMPLETED is status 1; CANCELLED (also "CANCELLED by N") 5;
// FAILED, TIMEOUT, NODE_FAIL, OUT_OF_MEMORY, BOOT_FAIL, DEADLINE,
// PREEMPTED, REQUEUED and SPECIAL_EXIT 0. Records of jobs that have not
// ended (PENDING, RUNNING, SUSPENDED, REQUEUE_HOLD, ... ) are skipped as
// "not_ended"; a CANCELLED job that never got nodes (NodeList "None
// assigned", or no start time) as "never_started"; an allocation row equal
// to one of the last slurmRecentRuns emitted in job id, submit, start and
// end (the same run listed twice, as when sacct dumps of overlapping
// windows are concatenated) as "duplicate"; requeued runs of one job
// differ in start and end and are all kept. These skips happen in strict
// mode too: they are not errors. Any other state is an error naming the
// State column.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// slurmXDMoDColumns is the column list of header-less logs.
var slurmXDMoDColumns = []string{
	"jobid", "jobidraw", "cluster", "partition", "qos", "account", "group", "gid",
	"user", "uid", "submit", "eligible", "start", "end", "elapsed", "exitcode",
	"state", "nnodes", "ncpus", "reqcpus", "reqmem", "reqtres", "alloctres",
	"timelimit", "nodelist", "jobname",
}

// slurmKind is what a column may hold, for anchoring records that have
// unescaped '|' characters.
type slurmKind uint8

const (
	slurmAny   slurmKind = iota // one field, any content
	slurmText                   // free text: may span several fields
	slurmTime                   // date-time, Unknown, None or empty
	slurmDur                    // duration, a limit word or empty
	slurmCount                  // a count or empty
	slurmJobID                  // a job id
	slurmState                  // a job state
	slurmExit                   // exit code "N:N" or empty
)

var slurmColumnKinds = map[string]slurmKind{
	"jobname": slurmText, "submitline": slurmText, "comment": slurmText,
	"admincomment": slurmText, "systemcomment": slurmText, "constraints": slurmText,
	"workdir": slurmText, "container": slurmText, "extra": slurmText,
	"submit": slurmTime, "eligible": slurmTime, "start": slurmTime, "end": slurmTime,
	"elapsed": slurmDur, "timelimit": slurmDur, "cputime": slurmDur, "suspended": slurmDur,
	"totalcpu": slurmDur, "usercpu": slurmDur, "systemcpu": slurmDur, "reserved": slurmDur,
	"resvcpu": slurmDur, "avecpu": slurmDur, "mincpu": slurmDur,
	"ncpus": slurmCount, "alloccpus": slurmCount, "reqcpus": slurmCount, "nnodes": slurmCount,
	"allocnodes": slurmCount, "reqnodes": slurmCount, "uid": slurmCount, "gid": slurmCount,
	"elapsedraw": slurmCount, "cputimeraw": slurmCount, "timelimitraw": slurmCount,
	"priority": slurmCount, "dbindex": slurmCount, "associd": slurmCount, "qosraw": slurmCount,
	"jobid": slurmJobID, "jobidraw": slurmJobID,
	"state":    slurmState,
	"exitcode": slurmExit, "derivedexitcode": slurmExit,
}

// slurmColumns holds the index of every column the reader uses (-1 when
// the log does not have it).
type slurmColumns struct {
	jobID, jobIDRaw, partition, user, uid, group, gid                   int
	submit, start, end, elapsed, state, ncpus, reqCPUs, limit, nodeList int
}

func slurmFindColumns(names []string) (slurmColumns, error) {
	idx := func(alts ...string) int {
		for _, a := range alts {
			for i, n := range names {
				if n == a {
					return i
				}
			}
		}
		return -1
	}
	c := slurmColumns{
		jobID: idx("jobid"), jobIDRaw: idx("jobidraw"), partition: idx("partition"),
		user: idx("user"), uid: idx("uid"), group: idx("group"), gid: idx("gid"),
		submit: idx("submit"), start: idx("start"), end: idx("end"), elapsed: idx("elapsed"),
		state: idx("state"), ncpus: idx("ncpus", "alloccpus"), reqCPUs: idx("reqcpus"),
		limit: idx("timelimit"), nodeList: idx("nodelist"),
	}
	for _, need := range []struct {
		name string
		i    int
	}{{"JobID", c.jobID}, {"Submit", c.submit}, {"State", c.state}} {
		if need.i < 0 {
			return c, fmt.Errorf("header has no %s column: %w", need.name, ErrSyntax)
		}
	}
	if c.elapsed < 0 && (c.start < 0 || c.end < 0) {
		return c, fmt.Errorf("header has neither Elapsed nor Start and End: %w", ErrSyntax)
	}
	return c, nil
}

// slurmAlloc is an allocation row waiting for its steps.
type slurmAlloc struct {
	job        Job
	start, end int64 // Unknown when the log has none
	elapsed    int64
	idText     []byte // JobID as written, for matching steps
	nodeList   []byte // NodeList as written, for the layout
	tasks      int64  // jobs it stands for (array ranges), 0 = skip
	reason     string // skip reason when tasks == 0
	line       int
	valid      bool
}

type slurmReader struct {
	lines *acctLines
	file  string
	opt   ReadOptions
	meta  Meta

	names  []string // lower-case column names
	header []string // column names as the log writes them
	kinds  []slurmKind
	col    slurmColumns

	rec      []byte // current record (physical lines joined by '\n')
	recLine  int    // line where it starts
	stash    []byte // a line read ahead that starts the next record
	stashed  bool
	stashNo  int
	bounds   []int // field i is rec[bounds[2i]:bounds[2i+1]]
	pipes    []int // positions of '|' in rec
	feasible []bool

	pending slurmAlloc
	scratch slurmAlloc  // the row being parsed, swapped with pending
	recent  slurmRecent // runs emitted lately, for "duplicate"

	out      Job // job being repeated for array ranges
	outLine  int // line where out's record starts
	outCount int64
	intern   acctInterner
	layout   layoutObserver
	eof      bool
	err      error
}

func newSlurmReader(r io.Reader, file string, opt ReadOptions) (Reader, error) {
	m := acctMeta("slurm", file)
	m.TimeZone = "UTC"
	m.Notes = append(m.Notes, "sacct times read as UTC (the log does not say its time zone)")
	return &slurmReader{lines: acctNewLines(r), file: file, opt: opt, meta: m, intern: acctInterner{}}, nil
}

// detectSlurm accepts a sacct --parsable2 header (at least 3 '|'-separated
// column names, JobID among them) or a header-less record with at least 10
// fields, one of them a "YYYY-MM-DDTHH:MM:SS" time and the first a job id.
func detectSlurm(head []byte) bool {
	lines := acctFirstLines(head, 1, "")
	if len(lines) == 0 {
		return false
	}
	l := bytes.TrimSuffix(lines[0], []byte{'|'}) // sacct --parsable
	fields := bytes.Split(l, []byte{'|'})
	if len(fields) >= 3 && slurmIsHeader(strings.Split(string(l), "|")) {
		return slices.ContainsFunc(fields, func(f []byte) bool { return strings.EqualFold(string(f), "jobid") })
	}
	if len(fields) < 10 || !slurmMatches(slurmJobID, fields[0]) || len(fields[0]) == 0 {
		return false
	}
	for _, f := range fields {
		if len(f) == 19 && slurmMatches(slurmTime, f) {
			return true
		}
	}
	return false
}

// Meta returns the metadata with the node layout the node lists show.
func (r *slurmReader) Meta() Meta {
	m := r.meta
	m.Notes = slices.Clone(m.Notes)
	r.layout.fill(&m)
	return m
}

func (r *slurmReader) recordLine() int { return r.outLine }

func (r *slurmReader) Next() (Job, error) {
	for {
		if r.outCount > 0 {
			r.outCount--
			return r.out, nil
		}
		if r.err != nil {
			return Job{}, r.err
		}
		if r.eof {
			r.err = io.EOF
			r.emit()
			continue
		}
		if err := r.step(); err != nil {
			var pe *ParseError
			if r.opt.Lenient && errors.As(err, &pe) && !errors.Is(err, errSlurmHeader) {
				acctSkip(&r.meta, slurmReasonOf(pe))
				continue
			}
			r.err = err
		}
	}
}

// errSlurmHeader marks a header the reader cannot use: fatal in lenient
// mode too.
var errSlurmHeader = errors.New("unusable header")

// errSlurmTruncated marks a record cut short (by the end of the log or by
// a line that is a whole record by itself).
var errSlurmTruncated = fmt.Errorf("truncated record: %w", ErrFieldCount)

func slurmReasonOf(pe *ParseError) string {
	if errors.Is(pe.Err, errSlurmTruncated) {
		return "truncated"
	}
	return acctReason(pe)
}

// step reads one record and folds it into the pending allocation or makes
// it the pending one (emitting the previous). It sets r.eof at the end.
func (r *slurmReader) step() error {
	ok, err := r.readRecord()
	if err != nil {
		return err
	}
	if !ok {
		r.eof = true
		return nil
	}
	if err := r.resolve(); err != nil {
		return err
	}
	return r.take()
}

// readHeader consumes the header line if there is one and sets the columns.
func (r *slurmReader) readHeader(first []byte) (isHeader bool, err error) {
	text := string(first)
	trailing := strings.HasSuffix(text, "|") // sacct --parsable ends lines with '|'
	fields := strings.Split(strings.TrimSuffix(text, "|"), "|")
	isHeader = slurmIsHeader(fields)
	if isHeader {
		r.header = fields
	} else {
		r.header = slices.Clone(slurmXDMoDColumns)
		r.meta.Notes = append(r.meta.Notes, "no header line: columns are XDMoD's sacct --format "+strings.Join(slurmXDMoDColumns, ","))
	}
	if trailing {
		r.header = append(r.header, "") // the empty field after the last '|'
	}
	r.names = make([]string, len(r.header))
	r.kinds = make([]slurmKind, len(r.header))
	for i, h := range r.header {
		r.names[i] = strings.ToLower(strings.TrimSpace(h))
		r.kinds[i] = slurmColumnKinds[r.names[i]]
	}
	r.col, err = slurmFindColumns(r.names)
	if err != nil {
		return isHeader, &ParseError{File: r.file, Line: r.lines.line, Err: fmt.Errorf("%w: %w", errSlurmHeader, err)}
	}
	return isHeader, nil
}

// slurmIsHeader reports whether a first line names columns: every field
// is a word starting with a letter and one of them is a column sacct knows.
func slurmIsHeader(fields []string) bool {
	known := false
	for _, f := range fields {
		name := strings.ToLower(strings.TrimSpace(f))
		if name == "" || name[0] < 'a' || name[0] > 'z' {
			return false
		}
		for _, c := range name {
			if (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' {
				return false
			}
		}
		if _, ok := slurmColumnKinds[name]; ok {
			known = true
		}
		if slices.Contains(slurmXDMoDColumns, name) {
			known = true
		}
	}
	return known
}

// nextLine returns the stashed line or reads one.
func (r *slurmReader) nextLine() ([]byte, int, error) {
	if r.stashed {
		r.stashed = false
		return r.stash, r.stashNo, nil
	}
	b, err := r.lines.next()
	return b, r.lines.line, err
}

// readRecord assembles the next logical record in r.rec. It returns false
// at the end of the log.
func (r *slurmReader) readRecord() (bool, error) {
	var line []byte
	var no int
	for {
		var err error
		line, no, err = r.nextLine()
		if err == io.EOF {
			return false, nil
		}
		if err != nil {
			return false, fmt.Errorf("%s: %w", r.file, err)
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if r.names == nil {
			isHeader, err := r.readHeader(line)
			if err != nil {
				return false, err
			}
			if isHeader {
				continue
			}
		}
		break
	}
	r.rec = append(r.rec[:0], line...)
	r.recLine = no
	n := len(r.names)
	fields := bytes.Count(r.rec, []byte{'|'}) + 1
	for fields < n {
		next, nextNo, err := r.nextLine()
		if err != nil && err != io.EOF {
			return false, fmt.Errorf("%s: %w", r.file, err)
		}
		if err == io.EOF || bytes.Count(next, []byte{'|'})+1 >= n {
			if err == nil {
				r.stash = append(r.stash[:0], next...)
				r.stashNo, r.stashed = nextNo, true
			}
			return true, &ParseError{File: r.file, Line: r.recLine, Value: acctValue(r.rec),
				Err: fmt.Errorf("%d of %d fields: %w", fields, n, errSlurmTruncated)}
		}
		r.rec = append(r.rec, '\n')
		r.rec = append(r.rec, next...)
		fields += bytes.Count(next, []byte{'|'})
	}
	return true, nil
}

// resolve sets r.bounds, assigning the record's fields to columns.
func (r *slurmReader) resolve() error {
	r.splitPipes()
	n := len(r.names)
	m := len(r.pipes) + 1
	r.bounds = r.bounds[:0]
	if m == n {
		for t := 0; t < m; t++ {
			r.bounds = append(r.bounds, r.tokStart(t), r.tokEnd(t))
		}
		return nil
	}
	return r.placeExtra(n, m)
}

// splitPipes sets r.pipes to the offsets of the '|' of the record.
func (r *slurmReader) splitPipes() {
	r.pipes = r.pipes[:0]
	for off := 0; ; {
		i := bytes.IndexByte(r.rec[off:], '|')
		if i < 0 {
			break
		}
		r.pipes = append(r.pipes, off+i)
		off += i + 1
	}
}

// tokStart returns the offset where token t of the record starts.
func (r *slurmReader) tokStart(t int) int {
	if t == 0 {
		return 0
	}
	return r.pipes[t-1] + 1
}

// tokEnd returns the offset where token t of the record ends.
func (r *slurmReader) tokEnd(t int) int {
	if t == len(r.pipes) {
		return len(r.rec)
	}
	return r.pipes[t]
}

// placeExtra sets r.bounds for a record of m tokens for n < m columns:
// the m−n extra '|' belong to text columns, placed where every other
// column's token fits its kind.
func (r *slurmReader) placeExtra(n, m int) error {
	extra := m - n
	w := extra + 1
	feas := r.feasibility(n, extra)
	if !feas[0] {
		return &ParseError{File: r.file, Line: r.recLine, Value: acctValue(r.rec),
			Err: fmt.Errorf("%d fields for %d columns and no way to place the %d extra '|' in text columns: %w", m, n, extra, ErrFieldCount)}
	}
	k := 0
	for i := 0; i < n; i++ {
		d := 0
		if r.kinds[i] == slurmText {
			for !feas[(i+1)*w+k+d] {
				d++
			}
		}
		r.bounds = append(r.bounds, r.tokStart(i+k), r.tokEnd(i+k+d))
		k += d
	}
	return nil
}

// feasibility fills and returns r.feasible for n columns and extra extra
// tokens: with w = extra+1, feasible[i*w+k] reports whether columns i..
// can take tokens i+k.. exactly.
func (r *slurmReader) feasibility(n, extra int) []bool {
	w := extra + 1
	if cap(r.feasible) < (n+1)*w {
		r.feasible = make([]bool, (n+1)*w)
	}
	feas := r.feasible[:(n+1)*w]
	for k := 0; k < w; k++ {
		feas[n*w+k] = k == extra
	}
	for i := n - 1; i >= 0; i-- {
		for k := 0; k < w; k++ {
			ok := false
			if r.kinds[i] == slurmText {
				for d := 0; k+d < w && !ok; d++ {
					ok = feas[(i+1)*w+k+d]
				}
			} else {
				t := i + k
				ok = feas[(i+1)*w+k] && slurmMatches(r.kinds[i], r.rec[r.tokStart(t):r.tokEnd(t)])
			}
			feas[i*w+k] = ok
		}
	}
	return feas
}

// field returns column i of the current record (nil when absent).
func (r *slurmReader) field(i int) []byte {
	if i < 0 {
		return nil
	}
	return r.rec[r.bounds[2*i]:r.bounds[2*i+1]]
}

func (r *slurmReader) fieldErr(i int, err error) *ParseError {
	return &ParseError{File: r.file, Line: r.recLine, Field: r.header[i], Value: acctValue(r.field(i)), Err: err}
}

// take interprets the resolved record.
func (r *slurmReader) take() error {
	c := &r.col
	idText := r.field(c.jobID)
	id, step, ok := slurmSplitID(idText)
	if !ok {
		return r.fieldErr(c.jobID, ErrSyntax)
	}
	if step >= 0 {
		r.foldStep(idText[:step])
		return nil
	}
	if err := r.parseAlloc(&r.scratch, idText, id); err != nil {
		return err
	}
	r.emit()
	r.pending, r.scratch = r.scratch, r.pending
	return nil
}

// parseAlloc reads an allocation row into a, reusing a's buffer.
func (r *slurmReader) parseAlloc(a *slurmAlloc, idText []byte, id int64) error {
	c := &r.col
	*a = slurmAlloc{idText: append(a.idText[:0], idText...), nodeList: append(a.nodeList[:0], r.field(c.nodeList)...), line: r.recLine, valid: true}
	status, ended, ok := slurmStatus(r.field(c.state))
	if !ok {
		return r.fieldErr(c.state, fmt.Errorf("unknown job state: %w", ErrSyntax))
	}
	tasks, ok := slurmArrayTasks(idText)
	if !ok {
		return r.fieldErr(c.jobID, fmt.Errorf("bad array index list: %w", ErrSyntax))
	}
	if raw, ok := acctInt(r.field(c.jobIDRaw)); ok && c.jobIDRaw >= 0 {
		id = raw
	}
	if err := r.allocTimes(a); err != nil {
		return err
	}
	if err := r.checkCounts(); err != nil {
		return err
	}
	var err error
	if a.elapsed, err = r.duration(c.elapsed); err != nil {
		return err
	}
	if a.job.ReqTime, err = r.duration(c.limit); err != nil {
		return err
	}
	procs, err := r.count(c.ncpus)
	if err != nil {
		return err
	}
	reqProcs, err := r.count(c.reqCPUs)
	if err != nil {
		return err
	}
	a.job.ID, a.job.Status = id, status
	a.job.Procs, a.job.ReqProcs = procs, reqProcs
	a.job.Queue = r.intern.get(r.field(c.partition))
	a.job.User = r.nameOrNumber(c.user, c.uid)
	a.job.Group = r.nameOrNumber(c.group, c.gid)
	a.tasks = tasks
	switch {
	case !ended:
		a.tasks, a.reason = 0, "not_ended"
	case status == 5 && (a.start == Unknown || string(r.field(c.nodeList)) == "None assigned"):
		a.tasks, a.reason = 0, "never_started"
	}
	return nil
}

// allocTimes reads the submit, start and end times of an allocation row
// into a; the submit time must be known.
func (r *slurmReader) allocTimes(a *slurmAlloc) error {
	c := &r.col
	var err error
	times := [3]*int64{&a.job.Submit, &a.start, &a.end}
	for k, i := range [3]int{c.submit, c.start, c.end} {
		if *times[k], err = r.time(i); err != nil {
			return err
		}
	}
	if a.job.Submit == Unknown {
		return r.fieldErr(c.submit, fmt.Errorf("no submit time: %w", ErrSyntax))
	}
	return nil
}

func (r *slurmReader) nameOrNumber(name, number int) string {
	if b := r.field(name); len(b) > 0 {
		return r.intern.get(b)
	}
	return r.intern.get(r.field(number))
}

// foldStep lets a step row fill in what its allocation lacks.
func (r *slurmReader) foldStep(alloc []byte) {
	p := &r.pending
	if !p.valid || !bytes.Equal(p.idText, alloc) {
		acctSkip(&r.meta, "orphan_step")
		return
	}
	c := &r.col
	if p.start == Unknown {
		if t, err := r.time(c.start); err == nil {
			p.start = t
		}
	}
	if p.end == Unknown {
		if t, err := r.time(c.end); err == nil {
			p.end = t
		}
	}
	if p.job.Procs == Unknown {
		if n, err := r.count(c.ncpus); err == nil {
			p.job.Procs = n
		}
	}
}

// emit finishes the pending allocation: it becomes r.out repeated
// r.outCount times, or a counted skip.
func (r *slurmReader) emit() {
	p := &r.pending
	if !p.valid {
		return
	}
	p.valid = false
	if p.tasks == 0 {
		acctSkip(&r.meta, p.reason)
		return
	}
	if r.recent.seen(slurmRunKey{slurmHash(p.idText), p.job.Submit, p.start, p.end}) {
		acctSkip(&r.meta, "duplicate")
		return
	}
	j := p.job
	j.Wait, j.Run = Unknown, p.elapsed
	if p.start != Unknown {
		j.Wait = p.start - j.Submit
	}
	if p.start != Unknown && p.end != Unknown && p.end >= p.start {
		j.Run = p.end - p.start
	}
	r.out, r.outCount, r.outLine = j, p.tasks, p.line
	r.layout.observeList(p.nodeList, j.ID, int64(j.Procs), p.start, p.end)
}

func (r *slurmReader) time(i int) (int64, error) {
	b := r.field(i)
	t, ok := slurmTimeValue(b)
	if !ok {
		return 0, r.fieldErr(i, ErrSyntax)
	}
	if t > MaxTime {
		return 0, r.fieldErr(i, fmt.Errorf("%w: beyond MaxTime (2200-01-01 00:00 UTC)", ErrRange))
	}
	return t, nil
}

func (r *slurmReader) duration(i int) (int64, error) {
	b := r.field(i)
	switch string(b) {
	case "", "Unknown", "UNLIMITED", "Partition_Limit", "INVALID", "NONE":
		return Unknown, nil
	}
	d, ok := acctClock(b)
	if !ok {
		return 0, r.fieldErr(i, ErrSyntax)
	}
	return d, nil
}

// checkCounts refuses a negative number in any count column of the
// record (NNodes, ReqNodes, AllocNodes, UID, ...), even one the reader
// does not use: sacct never writes one, so the record is damaged.
func (r *slurmReader) checkCounts() error {
	for i, k := range r.kinds {
		if k != slurmCount {
			continue
		}
		if b := r.field(i); len(b) > 0 && b[0] == '-' {
			return r.fieldErr(i, fmt.Errorf("negative count: %w", ErrSyntax))
		}
	}
	return nil
}

func (r *slurmReader) count(i int) (int32, error) {
	b := r.field(i)
	if len(b) == 0 {
		return Unknown, nil
	}
	n, ok := acctInt(b)
	switch {
	case !ok:
		return 0, r.fieldErr(i, numberError(b, countLimit(true)))
	case n < 0:
		return 0, r.fieldErr(i, ErrSyntax)
	case n > MaxProcs:
		return 0, r.fieldErr(i, procsError(n))
	}
	return int32(n), nil
}

// slurmTimeValue reads "YYYY-MM-DDTHH:MM:SS" as UTC; "Unknown", "None"
// and empty are Unknown.
func slurmTimeValue(b []byte) (int64, bool) {
	switch string(b) {
	case "", "Unknown", "None":
		return Unknown, true
	}
	if len(b) != 19 || b[4] != '-' || b[7] != '-' || b[10] != 'T' || b[13] != ':' || b[16] != ':' {
		return 0, false
	}
	var v [6]int64
	for k, span := range [6][2]int{{0, 4}, {5, 7}, {8, 10}, {11, 13}, {14, 16}, {17, 19}} {
		n, ok := acctDigits(b[span[0]:span[1]])
		if !ok {
			return 0, false
		}
		v[k] = n
	}
	return acctDateTime(v[0], v[1], v[2], v[3], v[4], v[5])
}

// slurmSplitID checks a job id "J", "J_I", "J_[list]", "J+K" with an
// optional ".step", returning J and the index of the '.' (-1 if none).
func slurmSplitID(b []byte) (id int64, step int, ok bool) {
	step = bytes.IndexByte(b, '.')
	base := b
	if step >= 0 {
		base = b[:step]
		if step == len(b)-1 {
			return 0, 0, false
		}
	}
	end := 0
	for end < len(base) && base[end] >= '0' && base[end] <= '9' {
		end++
	}
	id, ok = acctInt(base[:end])
	if !ok {
		return 0, 0, false
	}
	rest := base[end:]
	if len(rest) > 0 && rest[0] != '_' && rest[0] != '+' {
		return 0, 0, false
	}
	return id, step, true
}

// slurmArrayTasks returns how many jobs a record stands for: 1, or the
// number of indices of a "J_[1-3,7%2]" range list.
func slurmArrayTasks(id []byte) (int64, bool) {
	i := bytes.IndexByte(id, '_')
	if i < 0 {
		return 1, true
	}
	list := id[i+1:]
	if len(list) == 0 {
		return 0, false
	}
	if list[0] != '[' {
		_, ok := acctInt(list)
		return 1, ok
	}
	if list[len(list)-1] != ']' {
		return 0, false
	}
	list = list[1 : len(list)-1]
	if p := bytes.IndexByte(list, '%'); p >= 0 { // throttle: "%N"
		if _, ok := acctInt(list[p+1:]); !ok {
			return 0, false
		}
		list = list[:p]
	}
	var total int64
	for len(list) > 0 {
		part := list
		if c := bytes.IndexByte(list, ','); c >= 0 {
			part, list = list[:c], list[c+1:]
			if len(list) == 0 {
				return 0, false
			}
		} else {
			list = nil
		}
		n, ok := slurmRangeSize(part)
		if !ok {
			return 0, false
		}
		total += n
		if total > slurmMaxTasks {
			return 0, false
		}
	}
	return total, total > 0
}

// slurmRangeSize returns how many indices an array range "a-b" or a single
// index "a" holds.
func slurmRangeSize(part []byte) (int64, bool) {
	lo, hi := part, part
	if d := bytes.IndexByte(part, '-'); d >= 0 {
		lo, hi = part[:d], part[d+1:]
	}
	a, ok1 := acctInt(lo)
	b, ok2 := acctInt(hi)
	if !ok1 || !ok2 || a < 0 || b < a || lo[0] == '-' || hi[0] == '+' {
		return 0, false
	}
	return b - a + 1, true
}

// slurmMaxTasks bounds the jobs one array record may stand for (Slurm's
// own MaxArraySize limit is 4,000,001).
const slurmMaxTasks = 4_000_001

// slurmStatus maps a State value to the SWF status and whether the job
// has ended; ok is false for a state Slurm does not have.
func slurmStatus(b []byte) (status int32, ended, ok bool) {
	if i := bytes.IndexAny(b, " +"); i >= 0 {
		b = b[:i] // "CANCELLED by 123", "CANCELLED+"
	}
	switch string(b) {
	case "COMPLETED":
		return 1, true, true
	case "CANCELLED":
		return 5, true, true
	case "FAILED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY", "BOOT_FAIL", "DEADLINE",
		"PREEMPTED", "REQUEUED", "SPECIAL_EXIT":
		return 0, true, true
	case "PENDING", "RUNNING", "SUSPENDED", "REQUEUE_HOLD", "REQUEUE_FED", "RESIZING",
		"REVOKED", "COMPLETING", "CONFIGURING", "STOPPED", "SIGNALING", "STAGE_OUT",
		"RESV_DEL_HOLD", "POWER_UP_NODE", "UPDATE_DB":
		return Unknown, false, true
	}
	return 0, false, false
}

// slurmMatches reports whether a field fits a column kind.
func slurmMatches(k slurmKind, b []byte) bool {
	switch k {
	case slurmTime:
		_, ok := slurmTimeValue(b)
		return ok
	case slurmDur:
		return slurmIsDuration(b)
	case slurmCount:
		return slurmIsCount(b)
	case slurmJobID:
		_, _, ok := slurmSplitID(b)
		return ok && bytes.IndexByte(b, '\n') < 0
	case slurmState: // any upper-case word; parseAlloc checks the name
		return slurmIsStateWord(b)
	case slurmExit:
		return slurmIsExitCode(b)
	case slurmAny:
		return bytes.IndexByte(b, '\n') < 0
	}
	return true
}

// slurmIsDuration reports whether b is a duration or one of the words
// Slurm writes for none.
func slurmIsDuration(b []byte) bool {
	switch string(b) {
	case "", "Unknown", "UNLIMITED", "Partition_Limit", "INVALID", "NONE":
		return true
	}
	_, ok := acctClock(b)
	return ok
}

// slurmIsCount reports whether b is a count or one of the words Slurm
// writes for none.
func slurmIsCount(b []byte) bool {
	switch string(b) {
	case "", "Unknown", "Partition_Limit", "UNLIMITED":
		return true
	}
	_, ok := acctInt(b)
	return ok
}

// slurmIsStateWord reports whether b starts with an upper-case word, up to
// a space or '+'.
func slurmIsStateWord(b []byte) bool {
	if i := bytes.IndexAny(b, " +"); i >= 0 {
		b = b[:i]
	}
	for _, c := range b {
		if (c < 'A' || c > 'Z') && c != '_' {
			return false
		}
	}
	return len(b) > 0
}

// slurmIsExitCode reports whether b is empty or an exit code "code:signal".
func slurmIsExitCode(b []byte) bool {
	if len(b) == 0 {
		return true
	}
	i := bytes.IndexByte(b, ':')
	if i < 0 {
		return false
	}
	_, ok1 := acctDigits(b[:i])
	_, ok2 := acctDigits(b[i+1:])
	return ok1 && ok2
}

// slurmRunKey identifies one run of a job.
type slurmRunKey struct {
	id                 uint64 // FNV-1a of the JobID text
	submit, start, end int64
}

// slurmRecentRuns bounds the duplicate check's memory.
const slurmRecentRuns = 1 << 16

// slurmRecent remembers the last slurmRecentRuns runs (a set plus a ring
// for eviction).
type slurmRecent struct {
	set  map[slurmRunKey]struct{}
	ring []slurmRunKey
	next int
}

// seen reports whether k is among the remembered runs, remembering it.
func (s *slurmRecent) seen(k slurmRunKey) bool {
	if s.set == nil {
		s.set = make(map[slurmRunKey]struct{})
	}
	if _, ok := s.set[k]; ok {
		return true
	}
	if len(s.ring) < slurmRecentRuns {
		s.ring = append(s.ring, k)
	} else {
		delete(s.set, s.ring[s.next])
		s.ring[s.next] = k
		s.next = (s.next + 1) % slurmRecentRuns
	}
	s.set[k] = struct{}{}
	return false
}

func slurmHash(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}
