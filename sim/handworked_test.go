package sim_test

import (
	"math"
	"testing"

	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
)

// want is what a hand-worked case must give.
type want struct {
	starts           []int64
	tEnd             int64
	offNodeSeconds   int64
	reconfigurations int64
	boots, shutdowns int64
	stateSeconds     sim.StateSeconds
	busySlotSeconds  int64
	energyWh         float64
}

func TestHandWorked(t *testing.T) {
	cases := []struct {
		name   string
		nodes  int
		jobs   []job
		policy policy.Policy
		model  *policy.NodeModel // nil: simple
		opt    sim.Options
		want   want
	}{
		{
			// FCFS, always on, 2 nodes of 1 slot.
			// j1 (2 slots, 100 s) runs 0–100 on nodes 0 and 1.
			// j2 (1 slot, 50 s, submitted 10) and j3 (1 slot, 30 s,
			// submitted 20) wait for it: at 100 j2 takes node 0 (0→150),
			// j3 node 1 (100→130). TEnd = 150.
			// Node-seconds: node 0 busy 150; node 1 busy 130, idle 20.
			// Busy slot-s = 2·100 + 50 + 30 = 280.
			// Energy = (idle 20·10 + busy 280·10 + slots 280·5) / 3600
			//        = (200 + 2800 + 1400) / 3600 = 4400/3600 Wh.
			name:  "fcfs always-on",
			nodes: 2,
			jobs:  []job{{0, 100, 2, 0}, {10, 50, 1, 0}, {20, 30, 1, 0}},
			opt:   sim.Options{Scheduler: sim.FCFS},
			want: want{
				starts: []int64{0, 100, 100}, tEnd: 150,
				stateSeconds:    sim.StateSeconds{policy.Idle: 20, policy.Busy: 280},
				busySlotSeconds: 280, energyWh: 4400.0 / 3600,
			},
		},
		{
			// EASY, always on, 3 nodes of 1 slot; requested times given.
			// j1 (2 slots, req 100) runs 0–100 on nodes 0, 1.
			// j2 (3 slots) at 10 is the blocked head: shadow = 100 (j1
			// frees 2, plus 1 free now = 3), extra = 0.
			// j3 (1 slot, run 60, req 80) at 20 fits now and 20+80 ≤ 100:
			// backfilled, node 2, 20–80.
			// j4 (1 slot, run 10, req 200) at 30: no free slot. At 80 one
			// is free but 80+200 > 100 and extra = 0: it must not
			// backfill. At 100 j2 starts (100–150); j4 runs 150–160.
			// Busy slot-s = 200 + 60 + 150 + 10 = 420; node-seconds: 3·160
			// = 480, busy 420 (every node runs one slot), idle 60.
			// Energy = (60·10 + 420·10 + 420·5) / 3600 = 6900/3600 Wh.
			name:  "easy backfill and no backfill",
			nodes: 3,
			jobs:  []job{{0, 100, 2, 100}, {10, 50, 3, 50}, {20, 60, 1, 80}, {30, 10, 1, 200}},
			opt:   sim.Options{Scheduler: sim.EASY},
			want: want{
				starts: []int64{0, 100, 20, 150}, tEnd: 160,
				stateSeconds:    sim.StateSeconds{policy.Idle: 60, policy.Busy: 420},
				busySlotSeconds: 420, energyWh: 6900.0 / 3600,
			},
		},
		{
			// Same trace, EASY with the run times as estimates: at 80 j4
			// (run 10) ends by 90 ≤ 100, so it backfills on node 2
			// (80–90). j2 still starts at 100, TEnd = 150.
			// Busy slot-s = 200 + 60 + 150 + 10 = 420, node-seconds 450,
			// idle 30. Energy = (30·10 + 420·15) / 3600 = 6600/3600 Wh.
			name:  "easy with run times",
			nodes: 3,
			jobs:  []job{{0, 100, 2, 100}, {10, 50, 3, 50}, {20, 60, 1, 80}, {30, 10, 1, 200}},
			opt:   sim.Options{Scheduler: sim.EASY, UseRunTime: true},
			want: want{
				starts: []int64{0, 100, 20, 80}, tEnd: 150,
				stateSeconds:    sim.StateSeconds{policy.Idle: 30, policy.Busy: 420},
				busySlotSeconds: 420, energyWh: 6600.0 / 3600,
			},
		},
		{
			// Boot delays, 2 nodes of 1 slot, off after 60 s idle, period 60.
			// 0: j1 (30 s) starts on node 0; decision at 0: node 1 idle
			//    since 0, Wake 60.
			// 30: j1 ends, node 0 idle since 30.
			// 60: node 1 off (shutting down 60–110); node 0 due at 90,
			//    Wake 90; next tick 120.
			// 110: node 1 Off. 120: node 0 off (120–170). 170: node 0 Off.
			// 400: j2 (2 slots, 100 s) waits. 420: tick, both boot (420–520).
			// 520: j2 starts on both, ends 620 = TEnd.
			// Powered: node 0 0–170 and 420–620 = 370; node 1 0–110 and
			// 420–620 = 310; off = 2·620 − 680 = 560.
			// Reconfigurations in (0, 620): Off at 110 and 170, boots at
			// 420 (two) = 4.
			// States: busy 30 + 200 = 230, idle 90 + 60 = 150, shutting
			// down 100, booting 200, off 560.
			// Energy = (560·1 + 150·10 + 230·10 + 230·5) / 3600
			//        + 2·1 + 2·0.5 = 5510/3600 + 3 Wh.
			name:   "boot delays",
			nodes:  2,
			jobs:   []job{{0, 30, 1, 0}, {400, 100, 2, 0}},
			policy: offWhenIdle{timeout: 60},
			opt:    sim.Options{Scheduler: sim.FCFS, Period: 60},
			want: want{
				starts: []int64{0, 520}, tEnd: 620, offNodeSeconds: 560,
				reconfigurations: 4, boots: 2, shutdowns: 2,
				stateSeconds: sim.StateSeconds{
					policy.Off: 560, policy.Booting: 200, policy.Idle: 150,
					policy.Busy: 230, policy.ShuttingDown: 100,
				},
				busySlotSeconds: 230, energyWh: 5510.0/3600 + 3,
			},
		},
		{
			// EASY counts Off nodes in the head's reservation, as up once
			// booted. 3 nodes of 1 slot, period 60; the policy switches
			// node 1 off at 0 (shutting down 0–50) and boots it only at
			// 300 (up at 400).
			// 0: j1 (1 slot, req 1000) on node 0, 0–1000.
			// 100: j2 (3 slots) is the blocked head. Running and booting
			//    slots alone never reach 3; with node 1 up by 200 (boot
			//    100 s) and j1's end, shadow = 1000, extra = 0.
			// 110: j3 (1 slot, req 2000) fits on node 2 now but 110+2000
			//    > 1000 and extra = 0: it must not backfill (with no
			//    reservation it would, and hold j2 until 2110).
			// 1000: j2 on all three, 1000–1100. 1100: j3 on node 0 to
			//    3100 = TEnd.
			// Node 0 busy 3100. Node 1: shutting down 50, off 250,
			// booting 100, idle 600 + 2000, busy 100. Node 2: idle 1000
			// + 2000, busy 100. Reconfigurations: Off at 50, boot at 300.
			// Busy slot-s 1000 + 300 + 2000 = 3300.
			// Energy = (250·1 + 5600·10 + 3300·10 + 3300·5) / 3600
			//        + 1 + 0.5 = 105750/3600 + 1.5 Wh.
			name:   "easy reserves off nodes",
			nodes:  3,
			jobs:   []job{{0, 1000, 1, 1000}, {100, 100, 3, 100}, {110, 2000, 1, 2000}},
			policy: lateBoot{off: 1, at: 300},
			opt:    sim.Options{Scheduler: sim.EASY, Period: 60},
			want: want{
				starts: []int64{0, 1000, 1100}, tEnd: 3100, offNodeSeconds: 250,
				reconfigurations: 2, boots: 1, shutdowns: 1,
				stateSeconds: sim.StateSeconds{
					policy.Off: 250, policy.Booting: 100, policy.Idle: 5600,
					policy.Busy: 3300, policy.ShuttingDown: 50,
				},
				busySlotSeconds: 3300, energyWh: 105750.0/3600 + 1.5,
			},
		},
		{
			// An estimate's expiry is an event (issue 18's reproducer).
			// EASY, always on, 10 nodes of 1 slot, every event.
			// 0: j1 (6 slots, req 100, run 1000) on nodes 0–5 and j2
			//    (2 slots, req 150, run 1000) on nodes 6–7, both 0–1000.
			// 1: j3 (8 slots) is the blocked head: 2 free + j1's 6 at
			//    100 = 8, shadow 100, extra 0 (j2's end, 150, is later).
			// 2: j4 (2 slots, req 5000, run 50) fits now but 2+5000 > 100
			//    and extra = 0: it waits.
			// 100: j1's estimate runs out (it counts as ending now):
			//    shadow 100 = now, extra 0, nothing starts.
			// 150: j2's runs out too: 2 + 6 + 2 = 10 slots by 150, extra
			//    2: j4 backfills on nodes 8–9, 150–200. (Without the
			//    expiry as an event, nothing happens until 1000 and j4
			//    starts then.)
			// 1000: j1 and j2 end, j3 runs on nodes 0–7 to 1100 = TEnd.
			// Busy node-s = 6000 + 2000 + 800 + 100 = 8900, idle 11000 −
			// 8900 = 2100. Energy = (2100·10 + 8900·10 + 8900·5) / 3600
			// = 154500/3600 Wh.
			name:  "easy estimate expiry",
			nodes: 10,
			jobs:  []job{{0, 1000, 6, 100}, {0, 1000, 2, 150}, {1, 100, 8, 100}, {2, 50, 2, 5000}},
			opt:   sim.Options{Scheduler: sim.EASY, Period: sim.EveryEvent},
			want: want{
				starts: []int64{0, 0, 1000, 150}, tEnd: 1100,
				stateSeconds:    sim.StateSeconds{policy.Idle: 2100, policy.Busy: 8900},
				busySlotSeconds: 8900, energyWh: 154500.0 / 3600,
			},
		},
		{
			// Frequency levels: 2 nodes, nominal (5 W per busy slot) and
			// slow (2 W, speed 0.5). 0: j1 (50 s) starts on node 0; the
			// decision sets the idle node 1 slow. 10: j2 (100 s) takes
			// node 1, the lowest free one, and runs ceil(100/0.5) = 200 s,
			// to 210 = TEnd. (At 60 node 0, idle, is set slow too.)
			// Busy node-s 50 + 200 = 250, idle 160 (node 0) + 10 (node 1).
			// Energy = (250·10 + 170·10 + 50·5 + 200·2) / 3600 = 4850/3600.
			name:   "frequency levels",
			nodes:  2,
			jobs:   []job{{0, 50, 1, 0}, {10, 100, 1, 0}},
			policy: slowIdle{},
			model:  &dvfs,
			opt:    sim.Options{Scheduler: sim.FCFS},
			want: want{
				starts: []int64{0, 10}, tEnd: 210,
				stateSeconds:    sim.StateSeconds{policy.Idle: 170, policy.Busy: 250},
				busySlotSeconds: 250, energyWh: 4850.0 / 3600,
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.policy
			if p == nil {
				p = alwaysOn(t)
			}
			model := simple
			if tc.model != nil {
				model = *tc.model
			}
			r, err := sim.Run(makeTrace(tc.jobs...), sim.Uniform(tc.nodes, 1, model), p, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			checkWant(t, r, tc.want)
		})
	}
}

// dvfs is simple with two frequency levels.
var dvfs = func() policy.NodeModel {
	m := simple
	m.Freqs = []policy.FreqLevel{{Name: "nominal", SlotW: 5, Speed: 1}, {Name: "slow", SlotW: 2, Speed: 0.5}}
	return m
}()

func checkWant(t *testing.T, r *sim.Result, w want) {
	t.Helper()
	for i, s := range w.starts {
		if r.Jobs[i].Start != s {
			t.Errorf("job %d starts at %d, want %d", i+1, r.Jobs[i].Start, s)
		}
	}
	got := want{
		starts: w.starts, tEnd: r.TEnd, offNodeSeconds: r.OffNodeSeconds,
		reconfigurations: r.Reconfigurations, boots: r.Boots, shutdowns: r.Shutdowns,
		stateSeconds: r.StateSeconds, busySlotSeconds: r.BusySlotSeconds, energyWh: w.energyWh,
	}
	if got.tEnd != w.tEnd || got.offNodeSeconds != w.offNodeSeconds || got.reconfigurations != w.reconfigurations ||
		got.boots != w.boots || got.shutdowns != w.shutdowns || got.stateSeconds != w.stateSeconds || got.busySlotSeconds != w.busySlotSeconds {
		t.Errorf("got  %+v\nwant %+v", got, w)
	}
	if math.Abs(r.EnergyWh-w.energyWh) > 1e-9 {
		t.Errorf("energy %.12f Wh, want %.12f", r.EnergyWh, w.energyWh)
	}
}
