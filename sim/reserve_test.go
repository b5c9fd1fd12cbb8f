package sim_test

import (
	"strings"
	"testing"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/sim"
)

// TestReservations replays hand-worked advance reservations: one node of
// one slot, the simple model (boot 100 s, shutdown 50 s), off-when-idle
// after 60 s, period 60. j1 runs 0–100; the node idles from 100, its
// timeout due at 160.
func TestReservations(t *testing.T) {
	for _, tc := range []struct {
		name                     string
		submit                   int64 // j2's, its reserved start when reserved
		reserved                 bool
		start                    int64 // j2's start
		boots, shutdowns, reconf int64
	}{
		// No reservation, j2 at 1000: off at the tick 180 (Off 230),
		// booted at the tick 1020 after j2's submission, up 1120.
		{"late, not reserved", 1000, false, 1120, 1, 1, 2},
		// Reserved from 1000: held from 1000 − 100 (the longest boot): at
		// the tick 900 the node is booted, up at 1000 when j2 comes.
		{"late, reserved", 1000, true, 1000, 1, 1, 2},
		// No reservation, j2 at 250: off at 180, booted at the tick 300
		// after j2's submission, up 400.
		{"soon, not reserved", 250, false, 400, 1, 1, 2},
		// Reserved from 250: held from 150, so the power-off asked at the
		// tick 180 is dropped; j2 starts at once.
		{"soon, reserved", 250, true, 250, 0, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := makeTrace(job{0, 100, 1, 0}, job{tc.submit, 100, 1, 0})
			if tc.reserved {
				tr.Meta.Reservations = []datasets.Reservation{{JobID: 2, Start: tc.submit, End: tc.submit + 200, Procs: 1}}
			}
			r, err := sim.Run(tr, sim.Uniform(1, 1, simple), offWhenIdle{timeout: 60}, sim.Options{Period: 60})
			if err != nil {
				t.Fatal(err)
			}
			if r.Jobs[1].Start != tc.start || r.Boots != tc.boots || r.Shutdowns != tc.shutdowns || r.Reconfigurations != tc.reconf {
				t.Errorf("j2 starts %d, boots %d, shutdowns %d, reconfigurations %d; want %d %d %d %d",
					r.Jobs[1].Start, r.Boots, r.Shutdowns, r.Reconfigurations, tc.start, tc.boots, tc.shutdowns, tc.reconf)
			}
		})
	}
	// A reservation of a job not in the trace holds nothing; a window
	// ending before it starts is an error.
	tr := makeTrace(job{0, 100, 1, 0}, job{1000, 100, 1, 0})
	tr.Meta.Reservations = []datasets.Reservation{{JobID: 7, Start: 1000, End: 1200, Procs: 1}}
	r, err := sim.Run(tr, sim.Uniform(1, 1, simple), offWhenIdle{timeout: 60}, sim.Options{Period: 60})
	if err != nil || r.Jobs[1].Start != 1120 {
		t.Errorf("a reservation of another job: %v, j2 starts %d, want 1120", err, r.Jobs[1].Start)
	}
	tr.Meta.Reservations = []datasets.Reservation{{JobID: 2, Start: 1000, End: 900, Procs: 1}}
	if _, err := sim.New(tr, sim.Uniform(1, 1, simple), sim.Options{}); err == nil || !strings.Contains(err.Error(), "reservation 0 (job 2)") {
		t.Errorf("a window ending before its start: error %v", err)
	}
}
