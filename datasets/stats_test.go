package datasets

import (
	"bytes"
	"maps"
	"strings"
	"testing"
)

func TestInspectHandWorked(t *testing.T) {
	// Machine of 10 procs in UTC+1. Jobs (submit, wait, run, procs):
	//   A: 0,     10,   100, 2  → ends 110; local 01:00 Thu 1 Jan 1970
	//   B: 50,    -1,   200, 4  → ends 250 (wait unknown counts 0)
	//   C: 86400, 0,    0,   10 → ends 86400; local 01:00 Fri
	// span = 86400 − 0; work = 2·100 + 4·200 + 10·0 = 1000;
	// utilization = 1000 / (10 · 86400).
	tr := &Trace{
		Meta: Meta{Name: "t", Procs: 10, Nodes: 5, TZOffset: 3600, Skipped: map[string]int64{ruleRunUnknown: 2}},
		Jobs: []Job{
			{ID: 1, Submit: 0, Wait: 10, Run: 100, Procs: 2, ReqProcs: Unknown, ReqTime: 200, Status: 1, User: "a", Queue: "q"},
			{ID: 2, Submit: 50, Wait: Unknown, Run: 200, Procs: 4, ReqProcs: 4, ReqTime: Unknown, Status: 1, User: "b", Queue: "q"},
			{ID: 3, Submit: 86400, Wait: 0, Run: 0, Procs: 10, ReqProcs: 10, ReqTime: 60, Status: Unknown, User: "a", Queue: "q"},
		},
	}
	s := Inspect(tr)
	if s.Jobs != 3 || s.First != 0 || s.End != 86400 || s.SpanS != 86400 || s.Users != 2 {
		t.Errorf("jobs %d first %d end %d span %d users %d", s.Jobs, s.First, s.End, s.SpanS, s.Users)
	}
	if want := 1000.0 / (10 * 86400); s.Utilization != want {
		t.Errorf("utilization %g, want %g", s.Utilization, want)
	}
	if s.ArrivalsByHour[1] != 3 || s.ArrivalsByWeekday[4] != 2 || s.ArrivalsByWeekday[5] != 1 {
		t.Errorf("by hour %v, by weekday %v", s.ArrivalsByHour, s.ArrivalsByWeekday)
	}
	// Sizes 2, 4, 10: nearest rank p50 = rank ceil(1.5) = 2 → 4.
	if q := s.ProcsQuantiles; q.Min != 2 || q.P50 != 4 || q.P10 != 2 || q.P90 != 10 || q.Max != 10 || q.Mean != 16.0/3 {
		t.Errorf("procs quantiles %+v", q)
	}
	wantUnknown := map[string]int64{"wait": 1, "req_procs": 1, "req_time": 1, "status": 1, "group": 3}
	if !maps.Equal(s.Unknown, wantUnknown) {
		t.Errorf("unknown %v, want %v", s.Unknown, wantUnknown)
	}
	var text bytes.Buffer
	if err := s.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"jobs              3", "utilization       0.1 %", "run_unknown 2"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
}

// NASA: the Parallel Workloads Archive gives its utilization as 46.6 %.
func TestInspectNASA(t *testing.T) {
	tr, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	s := Inspect(tr)
	if s.Utilization < 0.4655 || s.Utilization >= 0.4665 {
		t.Errorf("utilization %.4f, want 0.466", s.Utilization)
	}
	var total int64
	for _, n := range s.ArrivalsByHour {
		total += n
	}
	if total != int64(s.Jobs) {
		t.Errorf("arrivals by hour sum to %d, want %d", total, s.Jobs)
	}
}

func TestFloorDivMod(t *testing.T) {
	for _, c := range []struct{ a, b, q, m int64 }{{7, 3, 2, 1}, {-7, 3, -3, 2}, {-6, 3, -2, 0}, {0, 5, 0, 0}} {
		if q, m := floorDiv(c.a, c.b), floorMod(c.a, c.b); q != c.q || m != c.m {
			t.Errorf("floor %d/%d = %d r %d, want %d r %d", c.a, c.b, q, m, c.q, c.m)
		}
	}
}
