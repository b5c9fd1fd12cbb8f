package datasets

// Grid Engine accounting files (accounting(5)): one job or array task per
// line, fields separated by ':', comment lines starting with '#'. Sun,
// Son of and Open Grid Engine ("sge") write times in epoch seconds; Univa
// Grid Engine ("uge") uses the same layout with epoch milliseconds (and
// more fields at the end). The two are told apart by the magnitude of
// submission_time: 1e11 is year 5138 in seconds but 1973 in milliseconds.
//
// Fields used (1-based): 1 qname → Queue, 3 group → Group, 4 owner → User,
// 6 job_number → ID, 9 submission_time, 10 start_time, 11 end_time,
// 12 failed, 13 exit_status, 35 slots → Procs, 36 task_number,
// 40 category (the request: "-l h_rt=N" → ReqTime, "-pe name N" →
// ReqProcs; a job without -pe asked for 1 slot). Each task of an array job
// has its own line and is its own job (sharing job_number as ID).
//
// Status: failed = 0 and exit_status = 0 → 1; otherwise 0 (Grid Engine
// does not record cancellation apart from other kills). A record with
// start_time or end_time 0 (the job never ran) is skipped as "not_ended".
// Fields are split at every ':' (a record needs at least 40); a time with
// colons inside the category ("h_rt=01:30:00") is joined back together.

import (
	"bytes"
	"fmt"
	"io"
	"slices"
)

var sgeFieldNames = [...]string{
	"qname", "hostname", "group", "owner", "job_name", "job_number", "account",
	"priority", "submission_time", "start_time", "end_time", "failed",
	"exit_status", "ru_wallclock", "ru_utime", "ru_stime", "ru_maxrss", "ru_ixrss",
	"ru_ismrss", "ru_idrss", "ru_isrss", "ru_minflt", "ru_majflt", "ru_nswap",
	"ru_inblock", "ru_oublock", "ru_msgsnd", "ru_msgrcv", "ru_nsignals",
	"ru_nvcsw", "ru_nivcsw", "project", "department", "granted_pe", "slots",
	"task_number", "cpu", "mem", "io", "category",
}

const (
	sgeQname    = 0
	sgeHostname = 1
	sgeGroup    = 2
	sgeOwner    = 3
	sgeJob      = 5
	sgeSubmit   = 8
	sgeStart    = 9
	sgeEnd      = 10
	sgeFailed   = 11
	sgeExit     = 12
	sgeSlots    = 34
	sgeTask     = 35
	sgeCategory = 39
	sgeMinField = 40
)

// sgeMilliEpoch is the smallest millisecond submission time (1973) and
// the largest plausible one in seconds.
const sgeMilliEpoch = 100_000_000_000

type sgeReader struct {
	acctLineReader
	milli  bool
	fields [][]byte
	words  [][]byte
	intern acctInterner
	layout layoutObserver
}

// Meta returns the metadata with the node layout the hostnames show.
func (r *sgeReader) Meta() Meta {
	m := r.meta
	m.Notes = slices.Clone(m.Notes)
	r.layout.fill(&m)
	return m
}

func newSGEReader(r io.Reader, file string, opt ReadOptions) (Reader, error) {
	return sgeNewReader(r, "sge", file, opt, false), nil
}

func newUGEReader(r io.Reader, file string, opt ReadOptions) (Reader, error) {
	return sgeNewReader(r, "uge", file, opt, true), nil
}

func sgeNewReader(r io.Reader, format, file string, opt ReadOptions, milli bool) *sgeReader {
	a := acctNewLineReader(r, format, file, opt)
	a.comments = "#"
	return &sgeReader{acctLineReader: a, milli: milli, intern: acctInterner{}}
}

func detectSGE(head []byte) bool { return sgeDetect(head, false) }
func detectUGE(head []byte) bool { return sgeDetect(head, true) }

// sgeDetect accepts accounting lines: at least 40 ':'-separated fields
// with numeric job number and times, in seconds or milliseconds.
func sgeDetect(head []byte, milli bool) bool {
	lines := acctFirstLines(head, 3, "#")
	var f [][]byte
	for _, l := range lines {
		f = sgeSplit(f, l)
		if len(f) < sgeMinField {
			return false
		}
		for _, i := range []int{sgeJob, sgeSubmit, sgeStart, sgeEnd, sgeFailed, sgeSlots, sgeTask} {
			if _, ok := acctInt(f[i]); !ok {
				return false
			}
		}
		submit, _ := acctInt(f[sgeSubmit])
		if submit <= 0 || (submit >= sgeMilliEpoch) != milli {
			return false
		}
	}
	return len(lines) > 0
}

// sgeSplit splits line at every ':' into dst[:0].
func sgeSplit(dst [][]byte, line []byte) [][]byte {
	dst = dst[:0]
	for {
		i := bytes.IndexByte(line, ':')
		if i < 0 {
			return append(dst, line)
		}
		dst = append(dst, line[:i])
		line = line[i+1:]
	}
}

func (r *sgeReader) Next() (Job, error) {
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

func (r *sgeReader) fieldErr(i int, err error) *ParseError {
	return r.errAt(sgeFieldNames[i], r.fields[i], err)
}

func (r *sgeReader) parse(line []byte) (Job, bool, *ParseError) {
	r.fields = sgeSplit(r.fields, line)
	f := r.fields
	if len(f) < sgeMinField {
		return Job{}, false, r.errAt("", line, fmt.Errorf("%d fields, want at least %d: %w", len(f), sgeMinField, ErrFieldCount))
	}
	var v [sgeMinField]int64
	if perr := r.numbers(f, &v); perr != nil {
		return Job{}, false, perr
	}
	if v[sgeSubmit] <= 0 {
		return Job{}, false, r.fieldErr(sgeSubmit, fmt.Errorf("no submission time: %w", ErrRange))
	}
	if v[sgeStart] <= 0 || v[sgeEnd] <= 0 {
		acctSkip(&r.meta, "not_ended")
		return Job{}, false, nil
	}
	if v[sgeEnd] < v[sgeStart] {
		return Job{}, false, r.fieldErr(sgeEnd, fmt.Errorf("before start_time: %w", ErrRange))
	}
	if v[sgeSlots] < 0 {
		return Job{}, false, r.fieldErr(sgeSlots, fmt.Errorf("negative: %w", ErrRange))
	}
	if v[sgeSlots] > MaxProcs {
		return Job{}, false, r.fieldErr(sgeSlots, procsError(v[sgeSlots]))
	}
	reqProcs, reqTime, ok := sgeRequest(sgeCategoryField(line, f), &r.words)
	if !ok {
		return Job{}, false, r.fieldErr(sgeCategory, ErrSyntax)
	}
	if host := f[sgeHostname]; len(host) > 0 && string(host) != "NONE" {
		r.layout.observe(host, v[sgeJob]<<20^v[sgeTask], v[sgeSlots], v[sgeStart], v[sgeEnd])
	}
	status := int32(0)
	if sgeSucceeded(v[sgeFailed], v[sgeExit]) {
		status = 1
	}
	return Job{
		ID:       v[sgeJob],
		Submit:   v[sgeSubmit],
		Wait:     v[sgeStart] - v[sgeSubmit],
		Run:      v[sgeEnd] - v[sgeStart],
		Procs:    int32(v[sgeSlots]),
		ReqProcs: reqProcs,
		ReqTime:  reqTime,
		Status:   status,
		User:     r.intern.get(f[sgeOwner]),
		Group:    r.intern.get(f[sgeGroup]),
		Queue:    r.intern.get(f[sgeQname]),
	}, true, nil
}

// numbers reads the numeric fields of the record f into v, the times in
// seconds.
func (r *sgeReader) numbers(f [][]byte, v *[sgeMinField]int64) *ParseError {
	for _, i := range []int{sgeJob, sgeSubmit, sgeStart, sgeEnd, sgeFailed, sgeExit, sgeSlots, sgeTask} {
		n, ok := acctInt(f[i])
		if !ok {
			return r.fieldErr(i, numberError(f[i], countLimit(i == sgeSlots)))
		}
		v[i] = n
	}
	for _, i := range []int{sgeSubmit, sgeStart, sgeEnd} {
		if err := r.checkUnit(v[i]); err != nil {
			return r.fieldErr(i, err)
		}
		if r.milli {
			v[i] /= 1000
		}
	}
	return nil
}

// sgeSucceeded reports whether a job with the failed and exit_status fields
// given ran to success.
func sgeSucceeded(failed, exit int64) bool { return failed == 0 && exit == 0 }

// sgeCategoryField returns the category, rejoining the fields that a
// time value with colons ("h_rt=01:30:00") was split into: while the last
// value so far is digits (with at most one ':') and the next field is two
// digits ending the value, the next field belongs to the category. The
// fields of line are separated by exactly one ':', which gives their
// offsets.
func sgeCategoryField(line []byte, f [][]byte) []byte {
	start := 0
	for _, field := range f[:sgeCategory] {
		start += len(field) + 1
	}
	end := start + len(f[sgeCategory])
	for _, next := range f[sgeCategory+1:] {
		tail := line[start:end]
		if eq := bytes.LastIndexByte(tail, '='); eq < 0 || !sgeClockPrefix(tail[eq+1:]) {
			break
		}
		if len(next) < 2 || next[0] < '0' || next[0] > '9' || next[1] < '0' || next[1] > '9' ||
			(len(next) > 2 && next[2] != ' ' && next[2] != ',') {
			break
		}
		end += 1 + len(next)
	}
	return line[start:end]
}

// sgeClockPrefix reports digits with at most one ':' (an unfinished
// H:MM:SS).
func sgeClockPrefix(b []byte) bool {
	colons := 0
	for _, c := range b {
		switch {
		case c == ':':
			colons++
		case c < '0' || c > '9':
			return false
		}
	}
	return len(b) > 0 && colons <= 1
}

// checkUnit rejects times of the other variant's unit, so that a UGE log
// read as SGE (or the reverse) fails clearly instead of being 1000× off.
func (r *sgeReader) checkUnit(t int64) error {
	switch {
	case t <= 0:
		return nil
	case r.milli && t < sgeMilliEpoch:
		return fmt.Errorf("time in seconds in a UGE log (milliseconds expected; use format sge): %w", ErrRange)
	case !r.milli && t >= sgeMilliEpoch:
		return fmt.Errorf("time in milliseconds in an SGE log (use format uge): %w", ErrRange)
	}
	return nil
}

// sgeRequest reads the requested slots ("-pe name N") and wall time
// ("-l ...h_rt=N...", seconds or H:MM:SS) of a category. Without -pe the
// job asked for one slot; a slot range or no h_rt is Unknown.
// scratch holds the category's words (reused between calls).
func sgeRequest(cat []byte, scratch *[][]byte) (procs int32, wall int64, ok bool) {
	procs, wall = 1, Unknown
	*scratch = acctFields(*scratch, cat)
	f := *scratch
	for i := 0; i < len(f); i++ {
		switch string(f[i]) {
		case "-pe":
			if i+2 >= len(f) {
				return 0, 0, false
			}
			n, isInt := acctInt(f[i+2])
			switch {
			case isInt && n >= 0 && n <= 1<<31-1:
				procs = int32(n)
			default:
				procs = Unknown // a range such as 2-8
			}
			i += 2
		case "-l":
			if i+1 >= len(f) {
				return 0, 0, false
			}
			for list, more := f[i+1], true; more; {
				var kv []byte
				kv, list, more = bytes.Cut(list, []byte{','})
				if v, found := bytes.CutPrefix(kv, []byte("h_rt=")); found {
					d, isDur := acctClock(v)
					if !isDur {
						return 0, 0, false
					}
					wall = d
				}
			}
			i++
		}
	}
	return procs, wall, true
}
