package datasets

// PBS/TORQUE and PBS Pro accounting logs: one record per line,
//
//	MM/DD/YYYY HH:MM:SS;TYPE;JOBID;key=value key=value ...
//
// Only E (job end) records make jobs; the other record types (Q, S, D, A,
// R, ...) are counted in a note. The prefix time is local time in an
// unknown zone and is only checked; the job's times come from the epoch
// seconds of the message:
//
//	Submit   qtime, or ctime when qtime is missing
//	Wait     start − Submit
//	Run      end − start, or resources_used.walltime when end is missing
//	Procs    cores allocated: the ncpus of exec_vnode (PBS Pro), else the
//	         cores of exec_host ("n/7+n/6" two, "c1/0*13" 13, "n/0-27" 28),
//	         else resources_used.ncpus, else the request
//	ReqProcs Resource_List.nodes ("4:ppn=8" 32, "n1+n2:ppn=2" 3), else
//	         Resource_List.ncpus, else Resource_List.select ("5:ncpus=13" 65)
//	ReqTime  Resource_List.walltime
//	Status   Exit_status 0 → 1 (completed); any other → 0 (failed: PBS
//	         records walltime kills and qdel the same way, as 256+signal)
//	ID       the leading number of the job id ("6.edge.ccr.buffalo.edu" 6,
//	         "123[4].server" 123)
//
// An E record without a start time (a job deleted before it ran) is
// skipped as "not_ended". Malformed values of these keys are errors naming
// the key; keys the reader does not use are not checked.

import (
	"bytes"
	"fmt"
	"io"
	"slices"
)

type pbsReader struct {
	acctLineReader
	intern acctInterner
	others int64 // records of other types
	layout layoutObserver
	hosts  []pbsHostUse // of the current exec_host
}

func newPBSReader(r io.Reader, file string, opt ReadOptions) (Reader, error) {
	return &pbsReader{acctLineReader: acctNewLineReader(r, "pbs", file, opt), intern: acctInterner{}}, nil
}

// detectPBS accepts lines "MM/DD/YYYY HH:MM:SS;X;jobid;...".
func detectPBS(head []byte) bool {
	lines := acctFirstLines(head, 3, "")
	for _, l := range lines {
		if _, ok := pbsStamp(l); !ok || len(l) < 23 || l[19] != ';' || l[21] != ';' {
			return false
		}
	}
	return len(lines) > 0
}

// pbsStamp checks the "MM/DD/YYYY HH:MM:SS" prefix of a record.
func pbsStamp(l []byte) (int64, bool) {
	if len(l) < 19 || l[2] != '/' || l[5] != '/' || l[10] != ' ' || l[13] != ':' || l[16] != ':' {
		return 0, false
	}
	var v [6]int64
	for k, span := range [6][2]int{{6, 10}, {0, 2}, {3, 5}, {11, 13}, {14, 16}, {17, 19}} {
		n, ok := acctDigits(l[span[0]:span[1]])
		if !ok {
			return 0, false
		}
		v[k] = n
	}
	return acctDateTime(v[0], v[1], v[2], v[3], v[4], v[5])
}

func (r *pbsReader) Meta() Meta {
	m := acctWithCount(r.meta, r.others, "accounting records other than E (job end) ignored")
	m.Notes = slices.Clone(m.Notes)
	r.layout.fill(&m)
	return m
}

func (r *pbsReader) Next() (Job, error) {
	for {
		line, err := r.nextLine()
		if err != nil {
			return Job{}, err
		}
		job, keep, perr := r.parse(line)
		if done, err := r.take(perr, keep); done {
			return job, err
		}
	}
}

// pbsRecord holds the values of one E record's keys.
type pbsRecord struct {
	user, group, queue                []byte
	ctime, qtime, start, end          []byte
	execHost, execVnode               []byte
	reqNodes, reqNcpus, reqSelect     []byte
	reqWalltime, usedWalltime, usedNc []byte
	exit                              []byte
}

// parse reads one record; keep is false for records that are not jobs.
func (r *pbsReader) parse(line []byte) (job Job, keep bool, perr *ParseError) {
	if _, ok := pbsStamp(line); !ok || len(line) < 20 || line[19] != ';' {
		return Job{}, false, r.errAt("datetime", line[:min(len(line), 19)], ErrSyntax)
	}
	rest := line[20:]
	semi := bytes.IndexByte(rest, ';')
	if semi < 0 {
		return Job{}, false, r.errAt("record_type", rest, fmt.Errorf("no ';' after the record type: %w", ErrSyntax))
	}
	typ := rest[:semi]
	rest = rest[semi+1:]
	if string(typ) != "E" {
		if len(typ) == 0 {
			return Job{}, false, r.errAt("record_type", typ, ErrSyntax)
		}
		r.others++
		return Job{}, false, nil
	}
	semi = bytes.IndexByte(rest, ';')
	if semi < 0 {
		return Job{}, false, r.errAt("job_id", rest, fmt.Errorf("no ';' after the job id: %w", ErrSyntax))
	}
	idText, msg := rest[:semi], rest[semi+1:]
	end := 0
	for end < len(idText) && idText[end] >= '0' && idText[end] <= '9' {
		end++
	}
	id, ok := acctInt(idText[:end])
	if !ok {
		return Job{}, false, r.errAt("job_id", idText, ErrSyntax)
	}
	var rec pbsRecord
	pbsScan(msg, &rec)
	return r.job(id, &rec)
}

// pbsScan collects the values of the keys the reader uses.
func pbsScan(msg []byte, rec *pbsRecord) {
	for len(msg) > 0 {
		var tok []byte
		if sp := bytes.IndexByte(msg, ' '); sp >= 0 {
			tok, msg = msg[:sp], msg[sp+1:]
		} else {
			tok, msg = msg, nil
		}
		eq := bytes.IndexByte(tok, '=')
		if eq < 0 {
			continue
		}
		rec.set(tok[:eq], tok[eq+1:])
	}
}

// set keeps v as the value of key if the reader uses that key.
func (rec *pbsRecord) set(key, v []byte) {
	switch string(key) {
	case "user":
		rec.user = v
	case "group":
		rec.group = v
	case "queue":
		rec.queue = v
	case "ctime":
		rec.ctime = v
	case "qtime":
		rec.qtime = v
	case "start":
		rec.start = v
	case "end":
		rec.end = v
	case "exec_host":
		rec.execHost = v
	case "exec_vnode":
		rec.execVnode = v
	case "Exit_status":
		rec.exit = v
	default:
		rec.setResource(key, v)
	}
}

// setResource keeps v as the value of key if it is one of the
// Resource_List or resources_used keys the reader uses.
func (rec *pbsRecord) setResource(key, v []byte) {
	switch string(key) {
	case "Resource_List.nodes":
		rec.reqNodes = v
	case "Resource_List.ncpus":
		rec.reqNcpus = v
	case "Resource_List.select":
		rec.reqSelect = v
	case "Resource_List.walltime":
		rec.reqWalltime = v
	case "resources_used.walltime":
		rec.usedWalltime = v
	case "resources_used.ncpus":
		rec.usedNc = v
	}
}

// epoch reads an epoch-seconds key; absent or 0 is Unknown.
func (r *pbsReader) epoch(key string, v []byte) (int64, *ParseError) {
	if len(v) == 0 {
		return Unknown, nil
	}
	n, ok := acctInt(v)
	if !ok {
		return 0, r.errAt(key, v, numberError(v, limitName(0)))
	}
	if n < 0 {
		return 0, r.errAt(key, v, ErrSyntax)
	}
	if n == 0 {
		return Unknown, nil
	}
	return n, nil
}

func (r *pbsReader) clock(key string, v []byte) (int64, *ParseError) {
	if len(v) == 0 {
		return Unknown, nil
	}
	n, ok := acctClock(v)
	if !ok {
		return 0, r.errAt(key, v, ErrSyntax)
	}
	return n, nil
}

func (r *pbsReader) job(id int64, rec *pbsRecord) (Job, bool, *ParseError) {
	submit, start, end, perr := r.times(rec)
	if perr != nil || start == Unknown {
		return Job{}, false, perr
	}
	used, perr := r.clock("resources_used.walltime", rec.usedWalltime)
	if perr != nil {
		return Job{}, false, perr
	}
	reqTime, perr := r.clock("Resource_List.walltime", rec.reqWalltime)
	if perr != nil {
		return Job{}, false, perr
	}
	run := used
	if end != Unknown {
		if end < start {
			return Job{}, false, r.errAt("end", rec.end, fmt.Errorf("before start: %w", ErrRange))
		}
		run = end - start
	}
	reqProcs, perr := r.requested(rec)
	if perr != nil {
		return Job{}, false, perr
	}
	procs, perr := r.allocated(rec, reqProcs)
	if perr != nil {
		return Job{}, false, perr
	}
	if len(rec.execHost) > 0 {
		r.observeExecHost(rec.execHost, id, start, start+max(run, 0))
	}
	status, perr := r.status(rec.exit)
	if perr != nil {
		return Job{}, false, perr
	}
	return Job{
		ID: id, Submit: submit, Wait: start - submit, Run: run,
		Procs: procs, ReqProcs: reqProcs, ReqTime: reqTime, Status: status,
		User: r.intern.get(rec.user), Group: r.intern.get(rec.group), Queue: r.intern.get(rec.queue),
	}, true, nil
}

// times reads the record's submit time (qtime, else ctime), start and end;
// start is Unknown, and the job counted as skipped, if it has not started.
func (r *pbsReader) times(rec *pbsRecord) (submit, start, end int64, perr *ParseError) {
	var t [4]int64
	for k, kv := range [4]struct {
		key string
		v   []byte
	}{{"ctime", rec.ctime}, {"qtime", rec.qtime}, {"start", rec.start}, {"end", rec.end}} {
		if t[k], perr = r.epoch(kv.key, kv.v); perr != nil {
			return 0, 0, 0, perr
		}
	}
	ctime, qtime, start, end := t[0], t[1], t[2], t[3]
	submit = qtime
	if submit == Unknown {
		submit = ctime
	}
	if submit == Unknown {
		return 0, 0, 0, r.errAt("qtime", nil, fmt.Errorf("neither qtime nor ctime: %w", ErrSyntax))
	}
	if start == Unknown {
		acctSkip(&r.meta, "not_ended")
	}
	return submit, start, end, nil
}

// status reads Exit_status: 1 for 0 (success), 0 for any other code,
// Unknown when absent.
func (r *pbsReader) status(exit []byte) (int32, *ParseError) {
	if len(exit) == 0 {
		return Unknown, nil
	}
	code, ok := acctInt(exit)
	if !ok {
		return 0, r.errAt("Exit_status", exit, ErrSyntax)
	}
	if code == 0 {
		return 1, nil
	}
	return 0, nil
}

// requested returns the processors the job asked for, or Unknown.
func (r *pbsReader) requested(rec *pbsRecord) (int32, *ParseError) {
	if len(rec.reqNodes) > 0 {
		n, ok := pbsChunks(rec.reqNodes, "ppn=", true)
		if !ok {
			return 0, r.errAt("Resource_List.nodes", rec.reqNodes, ErrSyntax)
		}
		return n, nil
	}
	if len(rec.reqNcpus) > 0 {
		n, err := pbsCount(rec.reqNcpus)
		if err != nil {
			return 0, r.errAt("Resource_List.ncpus", rec.reqNcpus, err)
		}
		return int32(n), nil
	}
	if len(rec.reqSelect) > 0 {
		n, ok := pbsChunks(rec.reqSelect, "ncpus=", false)
		if !ok {
			return 0, r.errAt("Resource_List.select", rec.reqSelect, ErrSyntax)
		}
		return n, nil
	}
	return Unknown, nil
}

// pbsCount reads a processor count: out of range beyond MaxProcs.
func pbsCount(b []byte) (int64, error) {
	n, ok := acctInt(b)
	switch {
	case !ok:
		return 0, numberError(b, countLimit(true))
	case n < 0:
		return 0, ErrSyntax
	case n > MaxProcs:
		return 0, procsError(n)
	}
	return n, nil
}

// allocated returns the cores the job ran on.
func (r *pbsReader) allocated(rec *pbsRecord, reqProcs int32) (int32, *ParseError) {
	if len(rec.execVnode) > 0 {
		n, ok := pbsSumKey(rec.execVnode, "ncpus=")
		if !ok {
			return 0, r.errAt("exec_vnode", rec.execVnode, ErrSyntax)
		}
		if n > 0 {
			return n, nil
		}
	}
	if len(rec.execHost) > 0 {
		n, ok := pbsExecHost(rec.execHost)
		if !ok {
			return 0, r.errAt("exec_host", rec.execHost, ErrSyntax)
		}
		if n > 0 {
			return n, nil
		}
	}
	if len(rec.usedNc) > 0 {
		n, err := pbsCount(rec.usedNc)
		if err != nil {
			return 0, r.errAt("resources_used.ncpus", rec.usedNc, err)
		}
		return int32(n), nil
	}
	return reqProcs, nil
}

// pbsExecHost counts the cores of "host/0+host/1", "host/0*13",
// "host/0-27" or "host/0-3,5".
func pbsExecHost(v []byte) (int32, bool) {
	var total int64
	for rest, more := v, true; more; {
		var part []byte
		part, rest, more = bytes.Cut(rest, []byte{'+'})
		slash := bytes.LastIndexByte(part, '/')
		if slash <= 0 {
			return 0, false
		}
		for specs, again := part[slash+1:], true; again; {
			var spec []byte
			spec, specs, again = bytes.Cut(specs, []byte{','})
			n, ok := pbsCores(spec)
			if !ok {
				return 0, false
			}
			total += n
			if total > 1<<31-1 {
				return 0, false
			}
		}
	}
	return int32(total), true
}

// observeExecHost records the cores exec_host gives each host over
// [start, end): "n/7+n/6" two cores on n, which has at least 8 (TORQUE
// numbers cores); "c1/0*13" 13 cores on c1 (PBS Pro numbers chunks).
func (r *pbsReader) observeExecHost(v []byte, id, start, end int64) {
	r.hosts = r.hosts[:0]
	last := -1
	for rest, more := v, true; more; {
		var part []byte
		part, rest, more = bytes.Cut(rest, []byte{'+'})
		slash := bytes.LastIndexByte(part, '/')
		if slash <= 0 {
			r.layout.unreadable++
			return
		}
		host := part[:slash]
		if last < 0 || !bytes.Equal(r.hosts[last].name, host) {
			last = slices.IndexFunc(r.hosts, func(h pbsHostUse) bool { return bytes.Equal(h.name, host) })
			if last < 0 {
				r.hosts = append(r.hosts, pbsHostUse{name: host})
				last = len(r.hosts) - 1
			}
		}
		h := &r.hosts[last]
		for specs, again := part[slash+1:], true; again; {
			var spec []byte
			spec, specs, again = bytes.Cut(specs, []byte{','})
			n, ok := pbsCores(spec)
			if !ok {
				r.layout.unreadable++
				return
			}
			h.cores += n
			if bytes.IndexByte(spec, '*') < 0 {
				_, hi, found := bytes.Cut(spec, []byte{'-'})
				if !found {
					hi = spec
				}
				idx, _ := acctDigits(hi)
				h.minSlots = max(h.minSlots, idx+1)
			}
		}
	}
	for _, h := range r.hosts {
		r.layout.observe(h.name, id, h.cores, start, end)
		r.layout.atLeast(h.name, h.minSlots)
	}
}

// pbsHostUse is what exec_host says of one host.
type pbsHostUse struct {
	name     []byte
	cores    int64
	minSlots int64 // highest core index + 1 (TORQUE)
}

// pbsCores counts the cores of one exec_host index spec: "3" one, "0-27"
// 28, "0*13" 13.
func pbsCores(spec []byte) (int64, bool) {
	if first, count, ok := bytes.Cut(spec, []byte{'*'}); ok {
		n, ok1 := acctDigits(count)
		_, ok2 := acctDigits(first)
		return n, ok1 && ok2
	}
	if lo, hi, ok := bytes.Cut(spec, []byte{'-'}); ok {
		a, ok1 := acctDigits(lo)
		b, ok2 := acctDigits(hi)
		return b - a + 1, ok1 && ok2 && b >= a
	}
	_, ok := acctDigits(spec)
	return 1, ok
}

// pbsSumKey adds up every "key=N" in v (exec_vnode's ncpus).
func pbsSumKey(v []byte, key string) (int32, bool) {
	var total int64
	for {
		i := bytes.Index(v, []byte(key))
		if i < 0 {
			return int32(total), true
		}
		v = v[i+len(key):]
		end := 0
		for end < len(v) && v[end] >= '0' && v[end] <= '9' {
			end++
		}
		n, ok := acctDigits(v[:end])
		if !ok {
			return 0, false
		}
		total += n
		if total > 1<<31-1 {
			return 0, false
		}
	}
}

// pbsChunks sums count × per over the '+' parts of a nodes or select
// specification ("2:ppn=4+node7:ppn=2", "5:ncpus=13"). A part that starts
// with a host name counts once when hostNames is set.
func pbsChunks(v []byte, key string, hostNames bool) (int32, bool) {
	var total int64
	for rest, more := v, true; more; {
		var part []byte
		part, rest, more = bytes.Cut(rest, []byte{'+'})
		first, props, _ := bytes.Cut(part, []byte{':'})
		count, ok := acctDigits(first)
		if !ok {
			if !hostNames && len(first) > 0 && bytes.IndexByte(first, '=') < 0 {
				return 0, false
			}
			count, props = 1, part
		}
		per := int64(1)
		for again := true; again; {
			var p []byte
			p, props, again = bytes.Cut(props, []byte{':'})
			if value, found := bytes.CutPrefix(p, []byte(key)); found {
				if per, ok = acctDigits(value); !ok {
					return 0, false
				}
			}
		}
		total += count * per
		if count > 1<<31-1 || total > 1<<31-1 {
			return 0, false
		}
	}
	return int32(total), true
}
