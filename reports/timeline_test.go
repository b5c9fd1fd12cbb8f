package reports

import (
	"reflect"
	"testing"

	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
)

func TestNodeIntervals(t *testing.T) {
	tl := testTimeline()
	tests := []struct {
		name     string
		from, to int64
		want     []interval
	}{
		{"whole", 1000, 1600, []interval{
			{0, 1000, 1100, policy.Idle}, {0, 1100, 1300, policy.Busy}, {0, 1300, 1600, policy.Idle},
			{1, 1000, 1050, policy.Idle}, {1, 1050, 1250, policy.ShuttingDown}, {1, 1250, 1400, policy.Off},
			{1, 1400, 1500, policy.Booting}, {1, 1500, 1600, policy.Idle},
		}},
		// A window cuts the intervals it crosses.
		{"window", 1200, 1450, []interval{
			{0, 1200, 1300, policy.Busy}, {0, 1300, 1450, policy.Idle},
			{1, 1200, 1250, policy.ShuttingDown}, {1, 1250, 1400, policy.Off}, {1, 1400, 1450, policy.Booting},
		}},
		// Before its first change a node is idle.
		{"before", 900, 1000, []interval{{0, 900, 1000, policy.Idle}, {1, 900, 1000, policy.Idle}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := nodeIntervals(tl, tt.from, tt.to); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %v\nwant %v", got, tt.want)
			}
		})
	}
}

// Two changes of one node at one instant keep the last; intervals of one
// state in a row merge.
func TestNodeIntervalsSameInstant(t *testing.T) {
	tl := &sim.Timeline{NodeNames: []string{"n1"}, Changes: []sim.Change{
		{Time: 10, Node: 0, State: policy.Busy}, {Time: 10, Node: 0, State: policy.Idle}, {Time: 20, Node: 0, State: policy.Idle},
	}}
	want := []interval{{0, 0, 30, policy.Idle}}
	if got := nodeIntervals(tl, 0, 30); !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestStepXYs(t *testing.T) {
	req, pow := stepXYs(testTimeline().Steps, 1200, 1350)
	// In force at 1200: the step of 1100 (4 requested, 8 powered); then
	// 1250 and 1300; held until 1350.
	wantReq := []float64{4, 4, 0, 0}
	wantPow := []float64{8, 4, 4, 4}
	wantX := []float64{1200, 1250, 1300, 1350}
	for i := range wantX {
		if req[i].X != wantX[i] || req[i].Y != wantReq[i] || pow[i].Y != wantPow[i] {
			t.Fatalf("point %d: req %v pow %v, want x=%v req=%v pow=%v", i, req[i], pow[i], wantX[i], wantReq[i], wantPow[i])
		}
	}
	if len(req) != 4 {
		t.Errorf("%d points, want 4", len(req))
	}
}

func TestParaver(t *testing.T) {
	pv, err := NewParaver(testTimeline(), 1000, 1600)
	if err != nil {
		t.Fatal(err)
	}
	// 1000 s after the epoch is 01/01/1970 00:16 UTC; 600 s = 6e11 ns.
	// Records by begin time then node; times in ns since 1000.
	want := `#Paraver (01/01/1970 at 00:16):600000000000_ns:2(1,1):1:2(1:1,1:2)
1:1:1:1:1:0:100000000000:2
1:2:1:2:1:0:50000000000:2
1:2:1:2:1:50000000000:250000000000:4
1:1:1:1:1:100000000000:300000000000:3
1:2:1:2:1:250000000000:400000000000:0
1:1:1:1:1:300000000000:600000000000:2
1:2:1:2:1:400000000000:500000000000:1
1:2:1:2:1:500000000000:600000000000:2
`
	if string(pv.PRV) != want {
		t.Errorf("prv:\n%s\nwant:\n%s", pv.PRV, want)
	}
	checkGolden(t, "solution.golden.pcf", pv.PCF)
	wantRow := "LEVEL CPU SIZE 2\nnode1\nnode2\n\nLEVEL NODE SIZE 2\nnode1\nnode2\n\nLEVEL THREAD SIZE 2\nnode1\nnode2\n"
	if string(pv.ROW) != wantRow {
		t.Errorf("row:\n%s\nwant:\n%s", pv.ROW, wantRow)
	}
	if _, err := NewParaver(testTimeline(), 5, 5); err == nil {
		t.Error("empty window: no error")
	}
}
