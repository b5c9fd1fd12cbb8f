package datasets

// IBM Spectrum LSF lsb.acct: one event per line, fields separated by a
// space, strings in double quotes (a quote inside doubled). Only
// JOB_FINISH events make jobs; other event types are counted in a note.
// JOB_FINISH fields used (lsb.acct(5), 0-based):
//
//	 2 Event time (the job's end)     11 userName → User
//	 3 jobId → ID                     12 queue → Queue
//	 6 numProcessors → ReqProcs       22 numAskedHosts, then the asked hosts
//	 7 submitTime → Submit            then numExHosts and the execution hosts
//	10 startTime                      ("16*host1" is 16 slots) → Procs,
//	                                  jStatus, hostFactor, jobName, command,
//	                                  19 rusage values, ..., exitInfo
//
// Wait is startTime − submitTime, Run the event time − startTime. Status:
// jStatus 64 (DONE) → 1; 32 (EXIT) → 0, or 5 when exitInfo says the job
// was killed by its owner or an administrator (TERM_FORCE_OWNER 8,
// TERM_FORCE_ADMIN 9, TERM_OWNER 14, TERM_ADMIN 15; read for LSF 9 and 10,
// whose layout up to exitInfo was checked). A job with startTime
// 0 never ran and is skipped as "not_ended". The requested run limit
// comes after variable-length lists whose layout changes between LSF
// versions, so ReqTime is Unknown; the group is not recorded.

import (
	"bytes"
	"fmt"
	"io"
)

const (
	lsfEventTime  = 2
	lsfJobID      = 3
	lsfNumProcs   = 6
	lsfSubmitTime = 7
	lsfStartTime  = 10
	lsfUserName   = 11
	lsfQueue      = 12
	lsfNumAsked   = 22
)

// lsfExitInfoAfterCommand is exitInfo's offset from the command field:
// 19 rusage values, then mailUser, projectName, exitStatus,
// maxNumProcessors, loginShell, timeEvent, idx, maxRMem, maxRSwap,
// inFileSpool, commandSpool, rsvId, sla, exceptMask, additionalInfo.
const lsfExitInfoAfterCommand = 1 + 19 + 15

var lsfFieldNames = map[int]string{
	lsfEventTime: "eventTime", lsfJobID: "jobId", lsfNumProcs: "numProcessors",
	lsfSubmitTime: "submitTime", lsfStartTime: "startTime", lsfUserName: "userName",
	lsfQueue: "queue", lsfNumAsked: "numAskedHosts",
}

type lsfReader struct {
	acctLineReader
	tokens [][]byte
	intern acctInterner
	others int64
}

func newLSFReader(r io.Reader, file string, opt ReadOptions) (Reader, error) {
	return &lsfReader{acctLineReader: acctNewLineReader(r, "lsf", file, opt), intern: acctInterner{}}, nil
}

// detectLSF accepts lines that start with a quoted lsb.acct event name
// and a quoted version.
func detectLSF(head []byte) bool {
	lines := acctFirstLines(head, 3, "")
	for _, l := range lines {
		if !bytes.HasPrefix(l, []byte(`"JOB_`)) && !bytes.HasPrefix(l, []byte(`"EVENT_ADRSV`)) {
			return false
		}
		var tok [][]byte
		tok, ok := lsfTokens(tok, l)
		if !ok || len(tok) < 3 || !bytes.HasPrefix(tok[1], []byte{'"'}) {
			return false
		}
	}
	return len(lines) > 0
}

// lsfTokens splits a line into fields; quoted fields keep their quotes.
func lsfTokens(dst [][]byte, line []byte) ([][]byte, bool) {
	dst = dst[:0]
	i := 0
	for i < len(line) {
		if line[i] == ' ' {
			i++
			continue
		}
		j := i
		if line[i] == '"' {
			j++
			for {
				if j >= len(line) {
					return dst, false // unterminated string
				}
				if line[j] == '"' {
					if j+1 < len(line) && line[j+1] == '"' {
						j += 2
						continue
					}
					j++
					break
				}
				j++
			}
		} else {
			for j < len(line) && line[j] != ' ' {
				j++
			}
		}
		dst = append(dst, line[i:j])
		i = j
	}
	return dst, true
}

// lsfKnownLayout reports versions whose JOB_FINISH layout up to exitInfo
// was checked (LSF 9 and 10).
func lsfKnownLayout(version []byte) bool {
	return bytes.HasPrefix(version, []byte(`"9.`)) || bytes.HasPrefix(version, []byte(`"10.`))
}

// lsfString removes the quotes of a string field (and undoubles quotes).
func lsfString(b []byte) ([]byte, bool) {
	if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
		return nil, false
	}
	b = b[1 : len(b)-1]
	if bytes.Contains(b, []byte(`""`)) {
		b = bytes.ReplaceAll(b, []byte(`""`), []byte(`"`))
	}
	return b, true
}

func (r *lsfReader) Meta() Meta {
	return acctWithCount(r.meta, r.others, "lsb.acct events other than JOB_FINISH ignored")
}

func (r *lsfReader) Next() (Job, error) {
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

func (r *lsfReader) parse(line []byte) (Job, bool, *ParseError) {
	tok, ok := lsfTokens(r.tokens, line)
	r.tokens = tok
	if !ok {
		return Job{}, false, r.errAt("", line, fmt.Errorf("unterminated string: %w", ErrSyntax))
	}
	if string(tok[0]) != `"JOB_FINISH"` {
		r.others++
		return Job{}, false, nil
	}
	if len(tok) <= lsfNumAsked {
		return Job{}, false, r.errAt("", line, fmt.Errorf("%d fields: %w", len(tok), ErrFieldCount))
	}
	var v [lsfStartTime + 1]int64
	for _, i := range []int{lsfEventTime, lsfJobID, lsfNumProcs, lsfSubmitTime, lsfStartTime} {
		n, ok := acctInt(tok[i])
		if !ok {
			return Job{}, false, r.errAt(lsfFieldNames[i], tok[i], numberError(tok[i], countLimit(i == lsfNumProcs)))
		}
		if n < 0 {
			return Job{}, false, r.errAt(lsfFieldNames[i], tok[i], ErrSyntax)
		}
		v[i] = n
	}
	user, ok1 := lsfString(tok[lsfUserName])
	queue, ok2 := lsfString(tok[lsfQueue])
	if !ok1 {
		return Job{}, false, r.errAt("userName", tok[lsfUserName], ErrSyntax)
	}
	if !ok2 {
		return Job{}, false, r.errAt("queue", tok[lsfQueue], ErrSyntax)
	}
	procs, status, perr := r.execution(tok)
	if perr != nil {
		return Job{}, false, perr
	}
	if v[lsfStartTime] == 0 {
		acctSkip(&r.meta, "not_ended")
		return Job{}, false, nil
	}
	if v[lsfEventTime] < v[lsfStartTime] {
		return Job{}, false, r.errAt("eventTime", tok[lsfEventTime], fmt.Errorf("before startTime: %w", ErrRange))
	}
	if v[lsfNumProcs] > MaxProcs {
		return Job{}, false, r.errAt("numProcessors", tok[lsfNumProcs], procsError(v[lsfNumProcs]))
	}
	return Job{
		ID:       v[lsfJobID],
		Submit:   v[lsfSubmitTime],
		Wait:     v[lsfStartTime] - v[lsfSubmitTime],
		Run:      v[lsfEventTime] - v[lsfStartTime],
		Procs:    procs,
		ReqProcs: int32(v[lsfNumProcs]),
		ReqTime:  Unknown,
		Status:   status,
		User:     r.intern.get(user),
		Queue:    r.intern.get(queue),
	}, true, nil
}

// execution reads the host lists, the slots used and the status.
func (r *lsfReader) execution(tok [][]byte) (procs, status int32, perr *ParseError) {
	asked, ok := acctInt(tok[lsfNumAsked])
	if !ok || asked < 0 || int64(len(tok)) <= lsfNumAsked+1+asked {
		return 0, 0, r.errAt("numAskedHosts", tok[lsfNumAsked], ErrSyntax)
	}
	i := lsfNumAsked + 1 + int(asked)
	exec, ok := acctInt(tok[i])
	if !ok || exec < 0 || int64(len(tok)) <= int64(i)+exec+4 {
		return 0, 0, r.errAt("numExHosts", tok[i], ErrSyntax)
	}
	slots, perr := r.slots(tok[i+1 : i+1+int(exec)])
	if perr != nil {
		return 0, 0, perr
	}
	i += 1 + int(exec)
	js, ok := acctInt(tok[i])
	if !ok {
		return 0, 0, r.errAt("jStatus", tok[i], ErrSyntax)
	}
	return int32(slots), lsfStatus(tok, i, js), nil
}

// slots sums the slots of the execution hosts, each "host" (one slot) or
// "n*host".
func (r *lsfReader) slots(hosts [][]byte) (int64, *ParseError) {
	var slots int64
	for _, h := range hosts {
		name, ok := lsfString(h)
		if !ok {
			return 0, r.errAt("execHosts", h, ErrSyntax)
		}
		n := int64(1)
		if star := bytes.IndexByte(name, '*'); star >= 0 {
			if n, ok = acctInt(name[:star]); !ok || n < 0 {
				return 0, r.errAt("execHosts", h, ErrSyntax)
			}
		}
		slots += n
		if slots > 1<<31-1 {
			return 0, r.errAt("execHosts", h, ErrRange)
		}
	}
	return slots, nil
}

// lsfStatus maps jStatus js, token i of tok, to the SWF status: 64 (done)
// is 1; 32 (exit) is 0, or 5 when the exit info of a known layout says
// the job was killed; anything else is Unknown.
func lsfStatus(tok [][]byte, i int, js int64) int32 {
	switch js {
	case 64:
		return 1
	case 32:
		command := i + 3
		if k := command + lsfExitInfoAfterCommand; k < len(tok) && lsfKnownLayout(tok[1]) {
			switch info, _ := acctInt(tok[k]); info {
			case 8, 9, 14, 15:
				return 5
			}
		}
		return 0
	default:
		return Unknown
	}
}
