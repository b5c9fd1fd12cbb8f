package datasets

import (
	"strings"
	"testing"
)

// lsfSampleJob is the first JOB_FINISH record of the LSF sample: submit
// 1389642318, start 1389642771 (+453), event time 1389683139 (+40368, the
// runTime field near the end), -n 128, 8 execution hosts "16*host...",
// jStatus 64 (DONE).
var lsfSampleJob = Job{ID: 404717, Submit: 1389642318, Wait: 453, Run: 40368, Procs: 128, ReqProcs: 128,
	ReqTime: Unknown, Status: 1, User: "anonuser", Queue: "regular"}

func TestLSFSample(t *testing.T) {
	// 2 lines, both JOB_FINISH (grep -c '^"JOB_FINISH"').
	jobs, meta, err := acctReadFile(t, "lsf", "samples/lsf/xdmod_accounting-logs.log", false)
	if err != nil {
		t.Fatal(err)
	}
	second := lsfSampleJob
	second.Procs = 8 // its 8 execution hosts have no "N*" prefix: one slot each
	if len(jobs) != 2 || jobs[0] != lsfSampleJob || jobs[1] != second || meta.Format != "lsf" {
		t.Errorf("got %+v (format %q)\nwant %+v and %+v", jobs, meta.Format, lsfSampleJob, second)
	}
}

func TestLSFRecords(t *testing.T) {
	text := acctReadText(t, acctSample(t, "samples/lsf/xdmod_accounting-logs.log"))
	line := strings.Split(text, "\n")[1]
	exited := strings.Replace(line, `"host4" 64 60.0`, `"host4" 32 60.0`, 1)
	killed := strings.Replace(exited, `0 "" 0 "" -1 "/anon`, `0 "" 14 "" -1 "/anon`, 1)
	pending := strings.Replace(line, " 1389642318 0 0 1389642771 ", " 1389642318 0 0 0 ", 1)
	if exited == line || killed == exited || pending == line {
		t.Fatal("sample line changed: replacements did not apply")
	}
	in := `"JOB_NEW" "9.11" 1389642318 404717 22025 33882739 128 1389642318 0 0 "anonuser"` + "\n" +
		exited + "\n" + killed + "\n" + pending + "\n"
	jobs, meta, err := acctReadString(t, "lsf", in, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 2 || jobs[0].Status != 0 || jobs[1].Status != 5 {
		t.Errorf("got %+v; want status 0 (EXIT) then 5 (EXIT, exitInfo TERM_OWNER)", jobs)
	}
	if meta.Skipped["not_ended"] != 1 || len(meta.Notes) != 1 || !strings.HasPrefix(meta.Notes[0], "1 ") {
		t.Errorf("skipped %v, notes %q; want not_ended 1 and 1 other event", meta.Skipped, meta.Notes)
	}
}

func TestLSFErrors(t *testing.T) {
	text := acctReadText(t, acctSample(t, "samples/lsf/xdmod_accounting-logs.log"))
	cases := []struct {
		name, old, new, field, reason string
		sentinel                      error
	}{
		{"letter in submitTime", " 128 1389642318 0 0 ", " 128 13896x2318 0 0 ", "submitTime", "unreadable_submitTime", ErrSyntax},
		{"unquoted queue", `"anonuser" "regular"`, `"anonuser" regular`, "queue", "unreadable_queue", ErrSyntax},
		{"bad exec host count", ` 0 8 "host1" "host1"`, ` 0 x "host1" "host1"`, "numExHosts", "unreadable_numExHosts", ErrSyntax},
		{"bad exec host slots", ` 0 8 "host1" "host1"`, ` 0 8 "x*host1" "host1"`, "execHosts", "unreadable_execHosts", ErrSyntax},
		{"negative exec host slots", ` 0 8 "host1" "host1"`, ` 0 8 "-2*host1" "host1"`, "execHosts", "unreadable_execHosts", ErrSyntax},
		{"unquoted exec host", ` 0 8 "host1" "host1"`, ` 0 8 host1 "host1"`, "execHosts", "unreadable_execHosts", ErrSyntax},
		{"too many slots", ` 0 8 "host1" "host1"`, ` 0 8 "2147483647*host1" "host1"`, "execHosts", "unreadable_execHosts", ErrRange},
		{"bad asked host count", `"1389642318.404717" 0 8`, `"1389642318.404717" x 8`, "numAskedHosts", "unreadable_numAskedHosts", ErrSyntax},
		{"bad jStatus", `"host4" 64 60.0`, `"host4" x 60.0`, "jStatus", "unreadable_jStatus", ErrSyntax},
		{"line cut inside a string", "", "", "", "unreadable_record", ErrSyntax},
		{"end before start", `"JOB_FINISH" "9.11" 1389683139`, `"JOB_FINISH" "9.11" 1389642000`, "eventTime", "unreadable_eventTime", ErrRange},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var bad string
			if c.old != "" {
				bad = acctReplaceLine(t, text, 2, c.old, c.new)
			} else {
				cut := strings.Index(text, `"#!/bin/tcsh;#BSUB`) + 10
				bad = text[:cut] + "\n"
			}
			acctCheckBadRecord(t, "lsf", bad, 2, c.field, c.reason, c.sentinel, 1)
		})
	}
}
