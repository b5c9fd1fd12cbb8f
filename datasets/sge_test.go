package datasets

import (
	"strings"
	"testing"
)

func TestSGEAndUGESamples(t *testing.T) {
	// Both sample files have 2 accounting lines (wc -l), both jobs that ran.
	sgeJob := Job{ID: 22947, Submit: 1310761621, Wait: 1311095354 - 1310761621, Run: 60, Procs: 1, ReqProcs: 1,
		ReqTime: 36000, Status: 1, User: "jdoe", Group: "jdoe", Queue: "myqueue"}
	cases := []struct {
		format string
		want   []Job
	}{
		// The two lines differ only in the category's memory requests.
		{"sge", []Job{sgeJob, sgeJob}},
		// Line 1 is line 1 of the SGE sample in milliseconds. Line 2 (UGE 8
		// layout): submit 1652111621288 ms, start 1652111622875, end
		// 1652124460193, truncated to seconds; "-pe threads 16"; no h_rt.
		{"uge", []Job{sgeJob, {ID: 4437956, Submit: 1652111621, Wait: 1, Run: 12838, Procs: 16, ReqProcs: 16,
			ReqTime: Unknown, Status: 1, User: "gpuowner", Group: "gpugroup", Queue: "gpu_queue"}}},
	}
	for _, c := range cases {
		jobs, meta, err := acctReadFile(t, c.format, "samples/"+c.format+"/xdmod_accounting-logs.log", false)
		if err != nil {
			t.Fatal(err)
		}
		if meta.Format != c.format || len(jobs) != len(c.want) {
			t.Fatalf("%s: format %q, %d jobs", c.format, meta.Format, len(jobs))
		}
		for i := range c.want {
			if jobs[i] != c.want[i] {
				t.Errorf("%s job %d:\n got %+v\nwant %+v", c.format, i, jobs[i], c.want[i])
			}
		}
	}
}

// TestSGEUnitMixup reads each sample with the other variant's reader: the
// time unit is checked, so the error names submission_time.
func TestSGEUnitMixup(t *testing.T) {
	_, _, err := acctReadFile(t, "sge", "samples/uge/xdmod_accounting-logs.log", false)
	acctWantError(t, err, "xdmod_accounting-logs.log:1", "submission_time", ErrRange)
	_, _, err = acctReadFile(t, "uge", "samples/sge/xdmod_accounting-logs.log", false)
	acctWantError(t, err, "xdmod_accounting-logs.log:1", "submission_time", ErrRange)
}

func TestSGERecords(t *testing.T) {
	line := "q:h:g:o:name:9:acct:0:1000000000:1000000100:1000000400:0:0:300:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:0:NONE:dep:NONE:%s:%s:0:0:0:%s:0:NONE:0:0:0\n"
	text := "# Version: 2011.11p1\n" +
		strings.Replace(line, "%s:%s:0:0:0:%s", "4:1:0:0:0:-l h_rt=01:30:00 -pe mpi 2-8", 1) + // task 1: -pe range
		strings.Replace(line, "%s:%s:0:0:0:%s", "4:2:0:0:0:-q q", 1) + // task 2: no -pe
		strings.Replace(strings.Replace(line, ":1000000100:1000000400:0:0:", ":0:0:1:0:", 1), "%s:%s:0:0:0:%s", "1:0:0:0:0:NONE", 1) // never ran
	jobs, meta, err := acctReadString(t, "sge", text, false)
	if err != nil {
		t.Fatal(err)
	}
	want := Job{ID: 9, Submit: 1000000000, Wait: 100, Run: 300, Procs: 4, ReqProcs: Unknown, ReqTime: 5400, Status: 1,
		User: "o", Group: "g", Queue: "q"}
	second := want
	second.ReqProcs, second.ReqTime = 1, Unknown
	if len(jobs) != 2 || jobs[0] != want || jobs[1] != second {
		t.Errorf("got %+v\nwant %+v and %+v", jobs, want, second)
	}
	if meta.Skipped["not_ended"] != 1 {
		t.Errorf("skipped %v, want not_ended 1", meta.Skipped)
	}
}

func TestSGEErrors(t *testing.T) {
	text := acctReadText(t, acctSample(t, "samples/sge/xdmod_accounting-logs.log"))
	cases := []struct {
		name, old, new, field, reason string
		sentinel                      error
	}{
		{"letter in slots", ":mype:1:0:", ":mype:x:0:", "slots", "unreadable_slots", ErrSyntax},
		{"end before start", ":1311095414:", ":1311095000:", "end_time", "unreadable_end_time", ErrRange},
		{"bad h_rt", "h_rt=36000", "h_rt=1x0", "category", "unreadable_category", ErrSyntax},
		{"negative slots", ":mype:1:0:", ":mype:-1:0:", "slots", "unreadable_slots", ErrRange},
		{"too few fields", "", "", "", "unreadable_field_count", ErrFieldCount},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bad := text
			if c.old != "" {
				bad = acctReplaceLine(t, text, 2, c.old, c.new)
			}
			if c.old == "" { // keep the first 30 fields of line 2
				lines := strings.Split(text, "\n")
				bad = lines[0] + "\n" + strings.Join(strings.Split(lines[1], ":")[:30], ":") + "\n"
			}
			acctCheckBadRecord(t, "sge", bad, 2, c.field, c.reason, c.sentinel, 1)
		})
	}
}
