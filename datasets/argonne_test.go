package datasets

import (
	"testing"
)

func TestArgonneTraces(t *testing.T) {
	cases := []struct {
		rel          string
		jobs         int // grep -vc '^;' FILE (SOURCES.md: 23,387 and 22,508)
		nodes        int // "; MaxNodes:" header
		first, last  Job // first and last job lines, read by hand
		unknownUsers int // awk -F'\t' '!/^;/ && $12==0' FILE | wc -l
		unsorted     int // lines with a smaller submit time than the line before (SOURCES.md)
	}{
		{"nonstandard/theta_argonne.swf", 23387, 4392,
			Job{ID: 639487, Submit: 1672529301, Wait: 71, Run: 3632, Procs: 8, ReqProcs: Unknown, ReqTime: 3600, Status: Unknown},
			Job{}, 10203, 8056},
		{"nonstandard/mira.swf", 22508, 49152,
			Job{ID: 35079, Submit: 1535348017, Wait: 102306, Run: 17348, Procs: 512, ReqProcs: Unknown, ReqTime: 18000, Status: Unknown, User: "35012304659472"},
			Job{ID: 57695, Submit: 1546272172, Wait: 16, Run: 4938, Procs: 512, ReqProcs: Unknown, ReqTime: 6000, Status: Unknown, User: "94435408522577"},
			0, 0},
	}
	for _, c := range cases {
		t.Run(c.rel, func(t *testing.T) {
			jobs, meta, err := acctReadFile(t, "argonne", c.rel, false)
			if err != nil {
				t.Fatal(err)
			}
			if len(jobs) != c.jobs {
				t.Errorf("%d jobs, want %d", len(jobs), c.jobs)
			}
			if meta.Nodes != c.nodes || meta.Procs != c.nodes || meta.ProcsPerNode != 1 || meta.Format != "argonne" {
				t.Errorf("meta %+v: want %d nodes = procs", meta, c.nodes)
			}
			if jobs[0] != c.first {
				t.Errorf("first job %+v, want %+v", jobs[0], c.first)
			}
			if c.last != (Job{}) && jobs[len(jobs)-1] != c.last {
				t.Errorf("last job %+v, want %+v", jobs[len(jobs)-1], c.last)
			}
			unknown, unsorted := 0, 0
			for i, j := range jobs {
				if j.User == "" {
					unknown++
				}
				if i > 0 && j.Submit < jobs[i-1].Submit {
					unsorted++
				}
				if j.Procs > int32(c.nodes) || j.Run < 0 || j.Wait < 0 || j.Submit < argonneMinEpoch {
					t.Fatalf("job %d out of range: %+v", i, j)
				}
			}
			if unknown != c.unknownUsers {
				t.Errorf("%d jobs without user, want %d", unknown, c.unknownUsers)
			}
			if unsorted != c.unsorted {
				t.Errorf("%d jobs out of submit order, want %d", unsorted, c.unsorted)
			}
		})
	}
}

func TestArgonneErrors(t *testing.T) {
	const good = "; MaxNodes: 8\n; MaxProcs: 8\n" +
		"1\t1672529301\t71\t3632\t8\t3600\t-1\t-1\t-1\t-1\t-1\t0\t-1\t-1\t-1\t-1\t-1\t-1\n" +
		"2\t1672529302\t0\t10\t1\t60\t-1\t-1\t-1\t-1\t-1\t77\t-1\t-1\t-1\t-1\t-1\t-1\n"
	jobs, _, err := acctReadString(t, "argonne", good, false)
	if err != nil || len(jobs) != 2 || jobs[1].User != "77" {
		t.Fatalf("good text: %v, %+v", err, jobs)
	}
	acctCheckBadLines(t, "argonne", good, 1, []acctBadLine{
		{"letter in run time", 3, "\t3632\t", "\t36x2\t", "RunTime", "unreadable_RunTime", ErrSyntax},
		{"relative submit time (SWF)", 3, "\t1672529301\t", "\t1301\t", "SubmitTime", "unreadable_SubmitTime", ErrRange},
		{"17 fields", 3, "\t-1\t0\t", "\t0\t", "", "unreadable_field_count", ErrFieldCount},
	})
}
