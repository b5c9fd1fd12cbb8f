package datasets

import "fmt"

// Validation rules. Every job read from a log passes through them, in this
// order, before it enters a trace; the first rule that matches decides.
// A dropped job is counted in Meta.Skipped, a kept but changed one in
// Meta.Adjusted, under the key in the first column.
//
//	key                   doubtful job                                     rule
//	submit_unknown        submit time not recorded (negative)              drop: it cannot be replayed
//	run_unknown           run time not recorded (-1)                       drop: it cannot be replayed
//	run_negative          run time negative other than -1                  drop
//	procs_from_requested  processors used unknown or 0, requested known    keep, processors := requested
//	procs_unknown         processors used and requested both unknown or 0  drop
//	procs_exceed_machine  more processors than the machine has             drop: no schedule can run it
//	wait_negative         observed wait negative other than -1             keep, wait := Unknown
//
// A run time of 0 is kept as 0 (real logs have many such jobs). Readers
// add their own counts: "unreadable_<field>" for records skipped in
// lenient mode ("unreadable_field_count" for a wrong number of fields),
// and the SWF reader "fraction_rounded" (Adjusted) for decimals rounded
// in the integer fields a Job keeps. When the log does not give the
// machine's size, it is taken from the largest job, with a note.
const (
	ruleSubmitUnknown      = "submit_unknown"
	ruleRunUnknown         = "run_unknown"
	ruleRunNegative        = "run_negative"
	ruleProcsFromRequested = "procs_from_requested"
	ruleProcsUnknown       = "procs_unknown"
	ruleProcsExceedMachine = "procs_exceed_machine"
	ruleWaitNegative       = "wait_negative"
)

// validator applies the validation rules for a machine of machineProcs
// processors (Unknown: no limit) and counts what it did.
type validator struct {
	machineProcs int
	skipped      map[string]int64
	adjusted     map[string]int64
	maxProcs     int32 // largest job kept
}

func newValidator(machineProcs int) *validator {
	return &validator{machineProcs: machineProcs, skipped: map[string]int64{}, adjusted: map[string]int64{}}
}

// keep applies the rules to j, changing it where a rule says so, and
// reports whether it stays in the trace.
func (v *validator) keep(j *Job) bool {
	procs, fromRequested := j.Procs, false
	if procs <= 0 && j.ReqProcs > 0 {
		procs, fromRequested = j.ReqProcs, true
	}
	if reason := v.dropReason(j, procs); reason != "" {
		v.skipped[reason]++
		return false
	}
	if fromRequested {
		j.Procs = procs
		v.adjusted[ruleProcsFromRequested]++
	}
	if j.Wait < 0 && j.Wait != Unknown {
		j.Wait = Unknown
		v.adjusted[ruleWaitNegative]++
	}
	v.maxProcs = max(v.maxProcs, j.Procs)
	return true
}

// dropReason returns the rule that drops j, whose processors (from the log
// or requested) are procs, or "" to keep it.
func (v *validator) dropReason(j *Job, procs int32) string {
	switch {
	case j.Submit < 0:
		return ruleSubmitUnknown
	case j.Run == Unknown:
		return ruleRunUnknown
	case j.Run < 0:
		return ruleRunNegative
	case procs <= 0:
		return ruleProcsUnknown
	case v.machineProcs > 0 && int(procs) > v.machineProcs:
		return ruleProcsExceedMachine
	}
	return ""
}

// finish adds the counts to m and, when the log did not give the machine's
// size, takes it from the largest job (with a note saying so).
func (v *validator) finish(m *Meta) {
	m.Skipped = addCounts(m.Skipped, v.skipped)
	m.Adjusted = addCounts(m.Adjusted, v.adjusted)
	if m.Procs <= 0 && v.maxProcs > 0 {
		m.Procs = int(v.maxProcs)
		m.Notes = append(m.Notes, fmt.Sprintf("machine size not in the log: %d processors, the largest job", m.Procs))
	}
}

func addCounts(dst, src map[string]int64) map[string]int64 {
	if dst == nil {
		dst = map[string]int64{}
	}
	for k, n := range src {
		dst[k] += n
	}
	return dst
}
