package datasets

import (
	"strings"
	"testing"
)

func TestPBSSample(t *testing.T) {
	// 9 records, all of type E (grep -c ';E;' xdmod_accounting-logs.log).
	jobs, meta, err := acctReadFile(t, "pbs", "samples/pbs/xdmod_accounting-logs.log", false)
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 9 || len(meta.Skipped) != 0 || meta.Format != "pbs" {
		t.Fatalf("%d jobs, skipped %v, format %q; want 9, none, pbs", len(jobs), meta.Skipped, meta.Format)
	}
	cases := []struct {
		index int
		want  Job
	}{
		// TORQUE: qtime 1261424924, start 1261425023 (+99), end 1261427220
		// (+2197 = resources_used.walltime 00:36:37); exec_host lists 32
		// cores; nodes=4:ppn=8; walltime 04:00:00.
		{0, Job{ID: 6, Submit: 1261424924, Wait: 99, Run: 2197, Procs: 32, ReqProcs: 32, ReqTime: 14400,
			Status: 1, User: "jonesm", Group: "ccrstaff", Queue: "ccr"}},
		// nodes=1:ppn=4:avx wins over ncpus=1; exec_host n404/2..5: 4 cores;
		// Exit_status=1.
		{2, Job{ID: 6464684, Submit: 1415579756, Wait: 10085, Run: 9350, Procs: 4, ReqProcs: 4, ReqTime: 86400,
			Status: 0, User: "anonuser", Group: "anongroup", Queue: "default"}},
		// PBS Pro: exec_vnode 5 × ncpus=13; walltime 00:02:43.
		{3, Job{ID: 2994, Submit: 1453756297, Wait: 9984, Run: 156, Procs: 65, ReqProcs: 65, ReqTime: 163,
			Status: 1, User: "anonuser", Group: "anongroup", Queue: "workq"}},
		// exec_host c1/0-3+c2/0-7: 4 + 8 cores.
		{4, Job{ID: 2995, Submit: 1453756297, Wait: 9984, Run: 156, Procs: 12, ReqProcs: 12, ReqTime: 163,
			Status: 1, User: "anonuser", Group: "anongroup", Queue: "anonq"}},
		// No qtime (ctime 1485451423) and no exec_host: cores from
		// nodes=1:ppn=28:gpus=1; Exit_status before queue=.
		{5, Job{ID: 7904, Submit: 1485451423, Wait: 1, Run: 8407, Procs: 28, ReqProcs: 28, ReqTime: 345600,
			Status: 0, User: "ybsbu", Group: "caste", Queue: "gpu"}},
		// No nodes/ncpus/select/walltime request; exec_host node0703/0-27.
		{6, Job{ID: 10711, Submit: 1587912647, Wait: 133706, Run: 100000, Procs: 28, ReqProcs: Unknown, ReqTime: Unknown,
			Status: 1, User: "ybsbu", Group: "caste", Queue: "black"}},
		// exec_host [hostname_2]/0*0 has no cores; exec_vnode 24 + 24;
		// Exit_status=271 (killed at the wall time).
		{8, Job{ID: 3073070, Submit: 1607291960, Wait: 6, Run: 36072, Procs: 48, ReqProcs: 48, ReqTime: 36000,
			Status: 0, User: "[user_1]", Group: "[user_1]", Queue: "gpu"}},
	}
	for _, c := range cases {
		if jobs[c.index] != c.want {
			t.Errorf("job %d:\n got %+v\nwant %+v", c.index, jobs[c.index], c.want)
		}
	}
}

func TestPBSRecords(t *testing.T) {
	text := "01/26/2016 00:00:00;Q;7.pbs;queue=workq\n" +
		"01/26/2016 00:00:01;S;7.pbs;user=u group=g queue=workq ctime=100 qtime=100 start=110\n" +
		"01/26/2016 00:00:09;D;8.pbs;requestor=u@h\n" +
		// deleted before it ran: E record without start
		"01/26/2016 00:00:10;E;8.pbs;user=u group=g queue=workq ctime=100 qtime=101 Exit_status=-1\n" +
		// no end: run from resources_used.walltime; select with 2 chunk kinds
		"01/26/2016 00:00:10;E;7[3].pbs;user=u group=g queue=workq ctime=100 qtime=100 start=110 Resource_List.select=2:ncpus=8+1:ncpus=4 resources_used.walltime=01:00:00 Exit_status=0\n"
	jobs, meta, err := acctReadString(t, "pbs", text, false)
	if err != nil {
		t.Fatal(err)
	}
	want := Job{ID: 7, Submit: 100, Wait: 10, Run: 3600, Procs: 20, ReqProcs: 20, ReqTime: Unknown, Status: 1, User: "u", Group: "g", Queue: "workq"}
	if len(jobs) != 1 || jobs[0] != want {
		t.Errorf("got %+v\nwant %+v", jobs, want)
	}
	if meta.Skipped["not_ended"] != 1 || len(meta.Notes) != 1 || !strings.HasPrefix(meta.Notes[0], "3 ") {
		t.Errorf("meta: skipped %v, notes %q; want not_ended 1 and 3 other records", meta.Skipped, meta.Notes)
	}
}

func TestPBSErrors(t *testing.T) {
	text := acctReadText(t, acctSample(t, "samples/pbs/xdmod_accounting-logs.log"))
	acctCheckBadLines(t, "pbs", text, 8, []acctBadLine{
		{"letter in start", 3, "start=1415589841", "start=14155x9841", "start", "unreadable_start", ErrSyntax},
		{"bad prefix date", 4, "01/26/2016", "13/26/2016", "datetime", "unreadable_datetime", ErrSyntax},
		{"bad exec_host", 5, "c1/0-3", "c1/3-0", "exec_host", "unreadable_exec_host", ErrSyntax},
		{"bad walltime", 1, "walltime=04:00:00", "walltime=04:00:0x", "Resource_List.walltime", "unreadable_Resource_List.walltime", ErrSyntax},
		{"end before start", 2, "end=1261427220", "end=1261420000", "end", "unreadable_end", ErrRange},
		{"no submit time", 6, "ctime=1485451423", "c=1", "qtime", "unreadable_qtime", ErrSyntax},
		{"text job id", 7, ";10711;", ";job;", "job_id", "unreadable_job_id", ErrSyntax},
		{"text exit status", 3, "Exit_status=1", "Exit_status=x", "Exit_status", "unreadable_Exit_status", ErrSyntax},
		{"negative start", 3, "start=1415589841", "start=-1", "start", "unreadable_start", ErrSyntax},
	})
}

func TestPBSResourceSpecs(t *testing.T) {
	hosts := []struct {
		in   string
		want int32
		ok   bool
	}{
		{"n/7+n/6", 2, true}, {"c1/0*13+c2/0*13", 26, true}, {"node0703/0-27", 28, true},
		{"n/0-3,5,7-8", 7, true}, {"[h]/0*0", 0, true}, {"n", 0, false}, {"n/x", 0, false}, {"n/3-1", 0, false},
	}
	for _, c := range hosts {
		got, ok := pbsExecHost([]byte(c.in))
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("pbsExecHost(%q) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
	nodes := []struct {
		in   string
		want int32
		ok   bool
	}{
		{"4:ppn=8", 32, true}, {"1:ppn=28:gpus=1:default", 28, true}, {"n1+n2:ppn=2", 3, true},
		{"2:ppn=4+1:ppn=2", 10, true}, {"3", 3, true}, {"2:ppn=x", 0, false},
	}
	for _, c := range nodes {
		got, ok := pbsChunks([]byte(c.in), "ppn=", true)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("pbsChunks(%q) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}
