package datasets

import (
	"strings"
	"testing"
)

// TestSlurmSamples reads every Slurm sample. Record counts: one record
// per line for the XDMoD files (wc -l); for the slurm_sim_tools files the
// records of SOURCES.md (physical lines differ: see the quirks there).
func TestSlurmSamples(t *testing.T) {
	cases := []struct {
		file    string
		lenient bool
		jobs    int
		skipped map[string]int64
	}{
		// 4 allocation lines, all ended.
		{"xdmod_accounting-logs.log", false, 4, nil},
		// 6 array records: _100 (1), _[1-3] (3), _[1,5] (2), _[9-11,20] (4),
		// _[91,100-102] (4), _[9-11,13,16-20] (9): 23 jobs.
		{"xdmod_accounting-logs-with-job-arrays.log", false, 23, nil},
		// RUNNING and PENDING.
		{"xdmod_non-ended-job-state.log", false, 0, map[string]int64{"not_ended": 2}},
		// States FOO and BAR: meant to be invalid (strict mode: see TestSlurmErrors).
		{"xdmod_unknown-job-state.log", true, 0, map[string]int64{"unreadable_state": 2}},
		{"xdmod_utf8-multibyte-chars.log", false, 1, nil},
		// 4,285 lines; 239 CANCELLED with NodeList "None assigned"
		// (awk -F'|' '$25=="None assigned"' | wc -l) never ran.
		{"xdmod_referencedata_phillips.log", false, 4046, map[string]int64{"never_started": 239}},
		// 4 records, 2 with '|' inside JobName.
		{"slurm_sim_tools_sacct_simple.log", false, 4, nil},
		// 1 allocation, its .batch and .extern, 4 copies of the allocation
		// with '|' in Constraints, JobName and SubmitLine.
		{"slurm_sim_tools_sacct_dump2110.log", false, 1, map[string]int64{"duplicate": 4}},
		// 12 allocations (6 array tasks cancelled before they got nodes) and 2
		// steps, then a 74-field fragment of a record on the last line.
		{"slurm_sim_tools_sacct_dump2101.log", true, 6, map[string]int64{"never_started": 6, "truncated": 1}},
		// 7957382 and its .batch; 9067954 and 5 steps (.1's SubmitLine spans
		// 5 lines); 7957382.extern (its allocation is no longer the one
		// before it: orphan); the 4 copies of 7957382 of dump2110.
		{"slurm_sim_tools_sacct_submitline_multiline.log", false, 2, map[string]int64{"duplicate": 4, "orphan_step": 1}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			jobs, meta, err := acctReadFile(t, "slurm", "samples/slurm/"+c.file, c.lenient)
			if err != nil {
				t.Fatal(err)
			}
			if len(jobs) != c.jobs {
				t.Errorf("%d jobs, want %d", len(jobs), c.jobs)
			}
			if len(meta.Skipped) != len(c.skipped) {
				t.Errorf("skipped %v, want %v", meta.Skipped, c.skipped)
			}
			for k, n := range c.skipped {
				if meta.Skipped[k] != n {
					t.Errorf("skipped %v, want %v", meta.Skipped, c.skipped)
				}
			}
			if meta.Format != "slurm" || meta.TimeZone != "UTC" {
				t.Errorf("meta %+v", meta)
			}
		})
	}
}

func TestSlurmRecords(t *testing.T) {
	cases := []struct {
		file  string
		index int
		want  Job
	}{
		// 2015-06-26T19:51:25 UTC = 1435348285; start 2015-06-28T15:14:49
		// (+156204 s); end 2015-07-01T13:17:53 (+252184 s = Elapsed
		// 2-22:03:04); "CANCELLED by 102216"; Timelimit 3-00:00:00.
		{"xdmod_accounting-logs.log", 1, Job{ID: 4107166, Submit: 1435348285, Wait: 156204, Run: 252184,
			Procs: 36, ReqProcs: 36, ReqTime: 259200, Status: 5, User: "hanx", Group: "dspumpkins", Queue: "general-compute"}},
		// Empty partition and time limit, zero CPUs, Eligible "Unknown".
		{"xdmod_accounting-logs.log", 3, Job{ID: 5692623, Submit: 1470031268, Wait: 3781, Run: 0,
			Procs: 0, ReqProcs: 0, ReqTime: Unknown, Status: 1, User: "xms", Group: "na"}},
		// First phillips line: Elapsed 10-13:27:06 = 912426, Timelimit
		// 37-14:00:00 = 3247200.
		{"xdmod_referencedata_phillips.log", 0, Job{ID: 163485, Submit: 1482390912, Wait: 1, Run: 912426,
			Procs: 12, ReqProcs: 12, ReqTime: 3247200, Status: 5, User: "noror", Group: "chaff", Queue: "focaccia"}},
		// JobName "Jo| bNa| me003" (2 extra fields): submit
		// 2020-12-29T06:27:40, start 06:47:22 (+1182), end
		// 2021-01-01T06:47:44 (+259222), TIMEOUT; JobIDRaw 4830977.
		{"slurm_sim_tools_sacct_dump2101.log", 5, Job{ID: 4830977, Submit: 1609223260, Wait: 1182, Run: 259222,
			Procs: 40, ReqProcs: 40, ReqTime: 259200, Status: 0, User: "user005", Group: "user005", Queue: "general-compute"}},
		// 2022-07-29T17:57:58 submit, start 2022-07-31T11:52:35 (+150877),
		// Elapsed 02:40:00; NCPUS 576 of ReqCPUS 16; Timelimit 05:00:00.
		{"slurm_sim_tools_sacct_submitline_multiline.log", 1, Job{ID: 9067954, Submit: 1659117478, Wait: 150877, Run: 9600,
			Procs: 576, ReqProcs: 16, ReqTime: 18000, Status: 1, User: "tonykew", Group: "ccrstaff", Queue: "general-compute"}},
		// JobName "job_|00004" before the last column (NTasks).
		{"slurm_sim_tools_sacct_simple.log", 3, Job{ID: 4, Submit: 1639146208, Wait: 3, Run: 2003,
			Procs: 18, ReqProcs: 18, ReqTime: 259200, Status: 1, User: "user003", Group: "users", Queue: "general-compute"}},
	}
	for _, c := range cases {
		jobs, _, err := acctReadFile(t, "slurm", "samples/slurm/"+c.file, true)
		if err != nil {
			t.Fatal(err)
		}
		if jobs[c.index] != c.want {
			t.Errorf("%s job %d:\n got %+v\nwant %+v", c.file, c.index, jobs[c.index], c.want)
		}
	}
}

// TestSlurmPhillipsStatus checks the status mapping on the 4,046 jobs:
// COMPLETED 2,324 → 1; FAILED 1,717 and TIMEOUT 1 → 0; CANCELLED 243
// minus the 239 that never ran → 5.
func TestSlurmPhillipsStatus(t *testing.T) {
	jobs, _, err := acctReadFile(t, "slurm", "samples/slurm/xdmod_referencedata_phillips.log", false)
	if err != nil {
		t.Fatal(err)
	}
	count := map[int32]int{}
	for _, j := range jobs {
		count[j.Status]++
		if j.Run < 0 || j.Wait < 0 || j.Procs <= 0 {
			t.Fatalf("implausible job %+v", j)
		}
	}
	if count[1] != 2324 || count[0] != 1718 || count[5] != 4 || len(count) != 3 {
		t.Errorf("status counts %v, want 1:2324 0:1718 5:4", count)
	}
}

func TestSlurmErrors(t *testing.T) {
	_, _, err := acctReadFile(t, "slurm", "samples/slurm/xdmod_unknown-job-state.log", false)
	acctWantError(t, err, "xdmod_unknown-job-state.log:1", "state", ErrSyntax)
	if !strings.Contains(err.Error(), `"FOO"`) {
		t.Errorf("error %q does not quote the state", err)
	}

	_, _, err = acctReadFile(t, "slurm", "samples/slurm/slurm_sim_tools_sacct_dump2101.log", false)
	acctWantError(t, err, "slurm_sim_tools_sacct_dump2101.log:16", "", ErrFieldCount)

	const head = "JobID|Submit|Start|End|State|NCPUS\n"
	const good = "1|2021-01-01T00:00:00|2021-01-01T00:00:10|2021-01-01T00:01:10|COMPLETED|4\n"
	cases := []struct {
		name, record, field string
		sentinel            error
	}{
		{"letter in submit", "1|2021-01-0xT00:00:00|2021-01-01T00:00:10|2021-01-01T00:01:10|COMPLETED|4", "Submit", ErrSyntax},
		{"bad date", "1|2021-02-30T00:00:00|2021-01-01T00:00:10|2021-01-01T00:01:10|COMPLETED|4", "Submit", ErrSyntax},
		{"negative cpus", "1|2021-01-01T00:00:00|2021-01-01T00:00:10|2021-01-01T00:01:10|COMPLETED|-4", "NCPUS", ErrSyntax},
		{"bad array list", "1_[3-1]|2021-01-01T00:00:00|2021-01-01T00:00:10|2021-01-01T00:01:10|COMPLETED|4", "JobID", ErrSyntax},
		{"no submit", "1|Unknown|2021-01-01T00:00:10|2021-01-01T00:01:10|COMPLETED|4", "Submit", ErrSyntax},
		{"extra field nowhere to go", "1|2021-01-01T00:00:00|x|2021-01-01T00:00:10|2021-01-01T00:01:10|COMPLETED|4", "", ErrFieldCount},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := head + good + c.record + "\n" + strings.Replace(good, "1|", "2|", 1)
			_, _, err := acctReadString(t, "slurm", text, false)
			acctWantError(t, err, "test.log:3", c.field, c.sentinel)
			jobs, meta, err := acctReadString(t, "slurm", text, true)
			var skipped int64
			for _, n := range meta.Skipped {
				skipped += n
			}
			if err != nil || len(jobs) != 2 || skipped != 1 {
				t.Errorf("lenient: %d jobs, skipped %v, err %v; want 2 jobs, 1 skipped", len(jobs), meta.Skipped, err)
			}
		})
	}
	if _, _, err := acctReadString(t, "slurm", "JobName|Submit|State\nx|2021-01-01T00:00:00|COMPLETED\n", false); err == nil ||
		!strings.Contains(err.Error(), "JobID") {
		t.Errorf("header without JobID: error %v", err)
	}
}

// TestSlurmAnchoring checks how '|' and newlines inside text columns are
// resolved: each case gives the record and the job it must read as.
func TestSlurmAnchoring(t *testing.T) {
	const head = "JobID|JobName|Submit|Start|End|State|Comment|NCPUS|Timelimit|WorkDir\n"
	want := Job{ID: 7, Submit: 1609459200, Wait: 10, Run: 60, Procs: 4, ReqProcs: Unknown, ReqTime: 3600, Status: 1}
	cases := []struct{ name, record string }{
		{"plain", "7|job|2021-01-01T00:00:00|2021-01-01T00:00:10|2021-01-01T00:01:10|COMPLETED|c|4|01:00:00|/w"},
		{"pipe in name", "7|a|b|2021-01-01T00:00:00|2021-01-01T00:00:10|2021-01-01T00:01:10|COMPLETED|c|4|01:00:00|/w"},
		{"pipes in name and comment", "7|a||b|2021-01-01T00:00:00|2021-01-01T00:00:10|2021-01-01T00:01:10|COMPLETED|x|y|z|4|01:00:00|/w"},
		{"name like a time", "7|2021-01-01T00:00:00|2021-01-01T00:00:00|2021-01-01T00:00:10|2021-01-01T00:01:10|COMPLETED|c|4|01:00:00|/w"},
		{"pipe at end", "7|job|2021-01-01T00:00:00|2021-01-01T00:00:10|2021-01-01T00:01:10|COMPLETED|c|4|01:00:00|/w|x"},
		{"newline in name", "7|first line\nsecond|2021-01-01T00:00:00|2021-01-01T00:00:10|2021-01-01T00:01:10|COMPLETED|c|4|01:00:00|/w"},
		{"newlines and pipes", "7|a\n|\nb|2021-01-01T00:00:00|2021-01-01T00:00:10|2021-01-01T00:01:10|COMPLETED|c\n|4|01:00:00|/w"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := head + c.record + "\n" + strings.Replace(c.record, "7|", "8|", 1) + "\n"
			jobs, _, err := acctReadString(t, "slurm", text, false)
			if err != nil {
				t.Fatal(err)
			}
			if len(jobs) != 2 {
				t.Fatalf("%d jobs, want 2", len(jobs))
			}
			next := want
			next.ID = 8
			if jobs[0] != want || jobs[1] != next {
				t.Errorf("got %+v\nwant %+v", jobs, want)
			}
		})
	}
}

// TestSlurmSteps checks that steps fill in only what the allocation lacks
// and that array records expand.
func TestSlurmSteps(t *testing.T) {
	text := "JobID|JobIDRaw|Submit|Start|End|State|NCPUS|Elapsed\n" +
		// allocation without start/end: the .batch step supplies them
		"10|10|2021-01-01T00:00:00|Unknown|Unknown|FAILED||00:01:00\n" +
		"10.batch|10.batch|2021-01-01T00:00:00|2021-01-01T00:00:05|2021-01-01T00:01:05|FAILED|2|00:01:00\n" +
		"10.extern|10.extern|2021-01-01T00:00:00|2021-01-01T00:00:04|2021-01-01T00:09:00|COMPLETED|2|00:08:56\n" +
		// started array task with its own raw id, then the pending rest
		"11_3|15|2021-01-01T00:00:00|2021-01-01T00:00:01|2021-01-01T00:00:02|COMPLETED|1|00:00:01\n" +
		"11_[4-6%2]|11|2021-01-01T00:00:00|Unknown|Unknown|PENDING|1|00:00:00\n" +
		"12.0|12.0|2021-01-01T00:00:00|2021-01-01T00:00:05|2021-01-01T00:01:05|COMPLETED|2|00:01:00\n"
	jobs, meta, err := acctReadString(t, "slurm", text, false)
	if err != nil {
		t.Fatal(err)
	}
	want := []Job{
		{ID: 10, Submit: 1609459200, Wait: 5, Run: 60, Procs: 2, ReqProcs: Unknown, ReqTime: Unknown, Status: 0},
		{ID: 15, Submit: 1609459200, Wait: 1, Run: 1, Procs: 1, ReqProcs: Unknown, ReqTime: Unknown, Status: 1},
	}
	if len(jobs) != len(want) || jobs[0] != want[0] || jobs[1] != want[1] {
		t.Errorf("got %+v\nwant %+v", jobs, want)
	}
	if meta.Skipped["not_ended"] != 1 || meta.Skipped["orphan_step"] != 1 {
		t.Errorf("skipped %v, want not_ended 1, orphan_step 1", meta.Skipped)
	}
}

func TestSlurmValues(t *testing.T) {
	durations := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"3-00:00:00", 259200, true}, {"14:00:49", 50449, true}, {"05:30", 330, true},
		{"00:00.010", 0, true}, {"120-00:14:40", 10368880, true}, {"144:00:00", 518400, true},
		{"3600", 3600, true}, {"1-2", 0, false}, {"12:60:00", 0, false}, {"", 0, false},
		{"1:2:3:4", 0, false}, {"-5", 0, false}, {"10:", 0, false},
		{"01:00.x", 0, false}, {"1:+5", 0, false}, {"x-01:00:00", 0, false}, {"-1-01:00:00", 0, false},
	}
	for _, d := range durations {
		got, ok := acctClock([]byte(d.in))
		if ok != d.ok || (ok && got != d.want) {
			t.Errorf("acctClock(%q) = %d, %v; want %d, %v", d.in, got, ok, d.want, d.ok)
		}
	}
	times := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"1970-01-01T00:00:00", 0, true}, {"2016-02-29T12:00:00", 1456747200, true},
		{"2000-03-01T00:00:01", 951868801, true}, {"Unknown", Unknown, true}, {"None", Unknown, true},
		{"2015-02-29T00:00:00", 0, false}, {"2015-13-01T00:00:00", 0, false}, {"2015-06-26 13:57:00", 0, false},
	}
	for _, c := range times {
		got, ok := slurmTimeValue([]byte(c.in))
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("slurmTimeValue(%q) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
	arrays := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"5", 1, true}, {"5_7", 1, true}, {"5_[1-3]", 3, true}, {"5_[9-11,13,16-20]", 9, true},
		{"5_[1-10%2]", 10, true}, {"5_[]", 0, false}, {"5_[3-1]", 0, false}, {"5_[1,]", 0, false},
		{"5_[0-4000001]", 0, false}, {"5_x", 0, false},
		{"5_", 0, false}, {"5_[1-3", 0, false}, {"5_[1-3%x]", 0, false}, {"5_[-1]", 0, false}, {"5_[1-+3]", 0, false},
	}
	for _, c := range arrays {
		got, ok := slurmArrayTasks([]byte(c.in))
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("slurmArrayTasks(%q) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// TestSlurmTruncatedRecord checks a record cut short in the middle of a
// log: the next line is a whole record by itself, so it is not taken as a
// continuation.
func TestSlurmTruncatedRecord(t *testing.T) {
	text := "JobID|Submit|Start|End|State|NCPUS\n" +
		"1|2021-01-01T00:00:00|2021-01-01T00:00:10|2021-01-01T00:01:10|COMPLETED|4\n" +
		"2|2021-01-01T00:00:00|2021-01-01\n" +
		"3|2021-01-01T00:00:00|2021-01-01T00:00:10|2021-01-01T00:01:10|COMPLETED|4\n"
	_, _, err := acctReadString(t, "slurm", text, false)
	acctWantError(t, err, "test.log:3", "", ErrFieldCount)
	jobs, meta, err := acctReadString(t, "slurm", text, true)
	if err != nil || len(jobs) != 2 || jobs[1].ID != 3 || meta.Skipped["truncated"] != 1 {
		t.Errorf("lenient: %+v, skipped %v, err %v; want jobs 1 and 3, truncated 1", jobs, meta.Skipped, err)
	}
}

// TestSlurmParsable reads sacct --parsable output (a '|' ends every line),
// with a header and without (XDMoD columns), with a '|' in the job name.
func TestSlurmParsable(t *testing.T) {
	want := Job{ID: 5, Submit: 1609459200, Wait: 10, Run: 60, Procs: 4, ReqProcs: Unknown, ReqTime: Unknown, Status: 1}
	withHeader := "JobID|Submit|Start|End|State|NCPUS|JobName|\n" +
		"5|2021-01-01T00:00:00|2021-01-01T00:00:10|2021-01-01T00:01:10|COMPLETED|4|a|b|\n"
	xdmod := "5|5|c|p|q|a|g|1|u|2|2021-01-01T00:00:00|2021-01-01T00:00:00|2021-01-01T00:00:10|2021-01-01T00:01:10|00:01:00|0:0|COMPLETED|1|4|4|1000Mc|||01:00:00|n1|a|b|\n"
	for _, text := range []string{withHeader, xdmod} {
		if f, err := Detect([]byte(text)); err != nil || f.Name != "slurm" {
			t.Errorf("Detect = %q, %v", f.Name, err)
		}
		jobs, _, err := acctReadString(t, "slurm", text, false)
		if err != nil {
			t.Fatal(err)
		}
		if text == xdmod {
			want.ReqProcs, want.ReqTime, want.User, want.Group, want.Queue = 4, 3600, "u", "g", "p"
		}
		if len(jobs) != 1 || jobs[0] != want {
			t.Errorf("got %+v\nwant %+v", jobs, want)
		}
	}
}

// TestSlurmMatches: the kinds the '|' placement tries fields against.
func TestSlurmMatches(t *testing.T) {
	cases := []struct {
		kind slurmKind
		in   string
		want bool
	}{
		{slurmTime, "2021-01-01T00:00:00", true}, {slurmTime, "x", false},
		{slurmDur, "NONE", true}, {slurmDur, "01:00", true}, {slurmDur, "1 h", false},
		{slurmCount, "UNLIMITED", true}, {slurmCount, "16", true}, {slurmCount, "16x", false},
		{slurmJobID, "7_3", true}, {slurmJobID, "7\n", false}, {slurmJobID, "x", false},
		{slurmState, "CANCELLED by 5", true}, {slurmState, "CANCELLED+", true}, {slurmState, "", false}, {slurmState, "done", false},
		{slurmExit, "", true}, {slurmExit, "0:15", true}, {slurmExit, "0", false}, {slurmExit, "x:0", false}, {slurmExit, "0:x", false},
		{slurmAny, "a b", true}, {slurmAny, "a\nb", false},
		{slurmText, "a|b\nc", true},
	}
	for _, c := range cases {
		if got := slurmMatches(c.kind, []byte(c.in)); got != c.want {
			t.Errorf("slurmMatches(%v, %q) = %v, want %v", c.kind, c.in, got, c.want)
		}
	}
}
