package datasets

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ecotune/ecotune/internal/horizon"
)

// Limits on what a trace may hold. They are far beyond any real machine or
// log, and exist so that a damaged or hostile input is refused with an
// error naming its file, line and field before anything is allocated for
// it, and so that no sum of times, nor of times by slots, overflows an
// int64: MaxProcs × (MaxTime + MaxDuration) < 2^59.
//
//	limit        value                     for scale
//	MaxTime      7,258,118,400 s           2200-01-01 00:00 UTC (latest submit, start or end)
//	MaxDuration  3,155,760,000 s           100 years of 365.25 days (run, wait, requested time)
//	MaxNodes     1,048,576 nodes           Fugaku has 158,976
//	MaxProcs     16,777,216 procs (slots)  Fugaku has 7,630,848 cores
//	MaxJobs      2,147,483,647 jobs        the longest public logs hold a few tens of millions
//
// A record beyond a limit is an input error (ErrRange) naming the field;
// in lenient mode it is skipped and counted as "unreadable_<field>". The
// simulator (package sim) refuses clusters and traces beyond them too.
const (
	MaxTime     = horizon.Unix
	MaxDuration = horizon.MaxDuration
	MaxNodes    = horizon.MaxNodes
	MaxProcs    = horizon.MaxSlots
	MaxJobs     = 1<<31 - 1
)

// limitFields names, for each format, the fields a job's times and sizes
// come from, in the order of checkLimits' checks (submit, wait, run,
// requested time, procs, requested procs); "" takes the canonical name.
var limitFields = map[string][6]string{
	"swf":     {"submit_time", "wait_time", "run_time", "requested_time", "allocated_procs", "requested_procs"},
	"argonne": {"SubmitTime", "WaitTime", "RunTime", "RequestedTime", "AllocatedNodes", "RequestedProcs"},
	"gwf":     {"SubmitTime", "WaitTime", "RunTime", "ReqTime", "NProcs", "ReqNProcs"},
	"slurm":   {"Submit", "Start", "End", "Timelimit", "NCPUS", "ReqCPUS"},
	"pbs":     {"qtime", "start", "end", "Resource_List.walltime", "resources_used.ncpus", "Resource_List.ncpus"},
	"sge":     {"submission_time", "start_time", "end_time", "h_rt", "slots", "slots"},
	"uge":     {"submission_time", "start_time", "end_time", "h_rt", "slots", "slots"},
	"lsf":     {"submitTime", "startTime", "eventTime", "runLimit", "numProcessors", "numProcessors"},
	"oar":     {"submission_time", "start_time", "stop_time", "walltime", "nb_resources", "nb_resources"},
}

var canonicalLimitFields = [6]string{"submit", "wait", "run", "req_time", "procs", "req_procs"}

// checkLimits returns the index (into limitFields) of the first field of j
// beyond the limits, its value and the error, or -1.
func checkLimits(j *Job) (int, int64, error) {
	for k, v := range [...]int64{j.Submit, j.Wait, j.Run, j.ReqTime} {
		bound := MaxDuration
		if k == 0 {
			bound = MaxTime
		}
		if v > bound {
			return k, v, fmt.Errorf("%w: %d s is beyond %s", ErrRange, v, limitName(k))
		}
	}
	for k, v := range [...]int32{j.Procs, j.ReqProcs} {
		if v > MaxProcs {
			return 4 + k, int64(v), fmt.Errorf("%w: %d processors is more than MaxProcs (%d)", ErrRange, v, MaxProcs)
		}
	}
	return -1, 0, nil
}

func limitName(k int) string {
	if k == 0 {
		return "MaxTime (2200-01-01 00:00 UTC)"
	}
	return "MaxDuration (100 years)"
}

// limitError is the ParseError of field k of a job read at file:line of a
// log of the given format.
func limitError(format, file string, line, k int, v int64, err error) *ParseError {
	name := limitFields[format][k]
	if name == "" {
		name = canonicalLimitFields[k]
	}
	return &ParseError{File: file, Line: line, Field: name, Value: strconv.FormatInt(v, 10), Err: err}
}

// CheckJobs checks that the jobs of a trace built in memory or read from
// Parquet are within the limits, naming the first job beyond them.
func CheckJobs(jobs []Job) error {
	if len(jobs) > MaxJobs {
		return fmt.Errorf("%w: %d jobs is more than MaxJobs (%d)", ErrRange, len(jobs), MaxJobs)
	}
	return checkJobsFrom(0, jobs)
}

// checkJobsFrom is CheckJobs on jobs first..first+len(jobs)-1 of a trace,
// without the count limit.
func checkJobsFrom(first int64, jobs []Job) error {
	for i := range jobs {
		if k, _, err := checkLimits(&jobs[i]); k >= 0 {
			return fmt.Errorf("job %d (id %d): %s: %w", first+int64(i), jobs[i].ID, canonicalLimitFields[k], err)
		}
	}
	return nil
}

// CheckMachine checks a machine size read from a log header or given by
// the user: nodes at most MaxNodes, processors at most MaxProcs (values
// ≤ 0 mean unknown and pass). The error names the limit.
func CheckMachine(nodes, procs int64) error {
	switch {
	case nodes > MaxNodes:
		return fmt.Errorf("%w: %d nodes is more than MaxNodes (%d)", ErrRange, nodes, MaxNodes)
	case procs > MaxProcs:
		return fmt.Errorf("%w: %d processors is more than MaxProcs (%d)", ErrRange, procs, MaxProcs)
	}
	return nil
}

// int64Limit names the largest value of a field without a limit of its own.
const int64Limit = "the int64 maximum 9223372036854775807"

// numberError is the error for a field's text that did not read as a
// number: ErrRange naming limit when the text is a number too large for
// an int64 ("9223372036854775808", "1e30"), else ErrSyntax.
func numberError(b []byte, limit string) error {
	if tooLarge(b) {
		return fmt.Errorf("%w: beyond %s", ErrRange, limit)
	}
	return ErrSyntax
}

// tooLarge reports whether b, which did not read as an int64, is a
// decimal number beyond int64: a whole number (of too many digits), or a
// finite decimal or exponent form such as 1e30.
func tooLarge(b []byte) bool {
	s := string(b)
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	if s == "" || strings.ContainsAny(s, "xXpP_iInN") { // hex, Inf, NaN
		return false
	}
	if strings.Trim(s, "0123456789") == "" {
		return true
	}
	f, err := strconv.ParseFloat(s, 64)
	return errors.Is(err, strconv.ErrRange) || err == nil && f >= math.MaxInt64
}

// countLimit names the limit of a processor count (procs) or of another
// integer field in out-of-range errors.
func countLimit(procs bool) string {
	if procs {
		return fmt.Sprintf("MaxProcs (%d)", MaxProcs)
	}
	return int64Limit
}

// procsError is the error for a processor count beyond MaxProcs.
func procsError(v int64) error {
	return fmt.Errorf("%w: %d processors is more than MaxProcs (%d)", ErrRange, v, MaxProcs)
}
