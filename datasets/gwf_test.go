package datasets

import (
	"path/filepath"
	"testing"
)

const gwfSample = "testdata/gwf/das2_style.gwf"

func TestGWFSample(t *testing.T) {
	text := acctReadText(t, filepath.FromSlash(gwfSample))
	if f, err := Detect([]byte(text)); err != nil || f.Name != "gwf" {
		t.Fatalf("Detect = %q, %v; want gwf", f.Name, err)
	}
	jobs, meta, err := acctReadAll(t, "gwf", stringsReader(text), "das2_style.gwf", false)
	if err != nil {
		t.Fatal(err)
	}
	// 5 job lines (awk '!/^[#;]/ && NF' das2_style.gwf | wc -l), all kept.
	want := []Job{
		{ID: 1, Submit: 1107330058, Wait: 2, Run: 58, Procs: 2, ReqProcs: 2, ReqTime: 900, Status: 1,
			User: "U1", Group: "G1", Queue: "0"},
		{ID: 2, Submit: 1107330100, Wait: 0, Run: Unknown, Procs: 1, ReqProcs: 1, ReqTime: Unknown, Status: 0,
			User: "U2", Group: "G1", Queue: "1"},
		// tab-separated line; partition 2; status 5 (cancelled)
		{ID: 3, Submit: 1107330160, Wait: 120, Run: 3600, Procs: 64, ReqProcs: 64, ReqTime: 7200, Status: 5,
			User: "U3", Group: "G2", Queue: "0", Partition: "2"},
		// run time 12.6 rounds to 13; status -1 is Unknown
		{ID: 4, Submit: 1107330200, Wait: Unknown, Run: 13, Procs: 8, ReqProcs: Unknown, ReqTime: Unknown, Status: Unknown,
			User: "U1", Group: "G1"},
		// status 3 (last part of a partial job completed) reads as 1; group -1 empty
		{ID: 5, Submit: 1107330261, Wait: 7, Run: 0, Procs: 1, ReqProcs: 1, ReqTime: 60, Status: 1,
			User: "U4", Queue: "0"},
	}
	if len(jobs) != len(want) {
		t.Fatalf("%d jobs, want %d", len(jobs), len(want))
	}
	for i := range want {
		if jobs[i] != want[i] {
			t.Errorf("job %d:\n got %+v\nwant %+v", i+1, jobs[i], want[i])
		}
	}
	if meta.Format != "gwf" || meta.Nodes != 200 || meta.Procs != 400 || meta.ProcsPerNode != 2 {
		t.Errorf("meta %+v: want gwf, 200 nodes, 400 procs, 2 per node", meta)
	}
}

func TestGWFErrors(t *testing.T) {
	text := acctReadText(t, filepath.FromSlash(gwfSample))
	acctCheckBadLines(t, "gwf", text, 4, []acctBadLine{
		{"letter in RunTime", 6, " 2 58 2 ", " 2 5x8 2 ", "RunTime", "unreadable_RunTime", ErrSyntax},
		{"status out of range", 7, " -1 0 U2 ", " -1 7 U2 ", "Status", "unreadable_Status", ErrRange},
		{"negative wait", 11, " 1107330200 -1 ", " 1107330200 -5 ", "WaitTime", "unreadable_WaitTime", ErrRange},
		{"28 fields", 12, " UNITARY", "", "", "unreadable_field_count", ErrFieldCount},
		{"text job id", 6, "1 1107330058", "J1 1107330058", "JobID", "unreadable_JobID", ErrSyntax},
	})
}
