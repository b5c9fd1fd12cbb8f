package policy

import (
	"slices"
	"testing"
)

// freqView: one group with levels 0 (2.4 GHz, speed 1), 1 (1.8 GHz, 0.75)
// and 2 (1.2 GHz, 0.5); nodes 0 idle, 1 booting, 2 busy, 3 off, all at
// level 0, node 0 idle since now−100.
func freqView(now int64, queue []QueuedJob) *View {
	v := mkView(now, []node{{state: Idle, since: now - 100}, {state: Booting, since: now}, {state: Busy}, {state: Off}}, queue)
	v.Groups[0].Model.Freqs = []FreqLevel{{Name: "2.4GHz", SlotW: 20, Speed: 1}, {Name: "1.8GHz", SlotW: 12, Speed: 0.75}, {Name: "1.2GHz", SlotW: 8, Speed: 0.5}}
	return v
}

func freqCmds(nodes []int, level int) []FreqCommand {
	var c []FreqCommand
	for _, n := range nodes {
		c = append(c, FreqCommand{Node: n, Level: level})
	}
	return c
}

func TestFrequencyScaling(t *testing.T) {
	const now = 10000
	waiting := func(wait int64) []QueuedJob { return []QueuedJob{{Slots: 1, Submit: now - wait}} }
	tests := []struct {
		policy   string
		queue    []QueuedJob
		wantFreq []FreqCommand
		wantWake int64
	}{
		// shf: fastest is level 0 already: nothing. Wake: node 0 times out.
		{"shf", nil, nil, now + 1700},
		// slf: the three nodes not busy go to level 2.
		{"slf", nil, freqCmds([]int{0, 1, 3}, 2), now + 1700},
		// ssq: queue empty → slowest; a job queued → fastest (no command).
		{"ssq", nil, freqCmds([]int{0, 1, 3}, 2), now + 1700},
		{"ssq", waiting(10), nil, now + 1700},
		// swq, wait_fast 3600 over 3 levels: wait 1000 → slowest (rank 0,
		// level 2) until 1800 (at now+800); 2000 → rank 1 (level 1) until
		// 3600 (now+1600); 4000 → fastest.
		{"swq", waiting(1000), freqCmds([]int{0, 1, 3}, 2), now + 800},
		{"swq", waiting(2000), freqCmds([]int{0, 1, 3}, 1), now + 1600},
		{"swq", waiting(4000), nil, now + 1700},
	}
	for _, tt := range tests {
		d := decide(mustNew(t, tt.policy), freqView(now, tt.queue))
		if !slices.Equal(d.Freq, tt.wantFreq) || d.Wake != tt.wantWake {
			t.Errorf("%s, queue %v: freq %v wake %+d; want %v wake %+d", tt.policy, tt.queue, d.Freq, d.Wake-now, tt.wantFreq, tt.wantWake-now)
		}
	}
	// swqo switches the idle node off at once; swqn powers on one more
	// node (3) once the wait exceeds wait_fast.
	if d := decide(mustNew(t, "swqo"), freqView(now, nil)); !slices.Equal(offIDs(d), []int{0}) {
		t.Errorf("swqo: off %v", offIDs(d))
	}
	if d := decide(mustNew(t, "swqn"), freqView(now, waiting(4000))); !slices.Equal(d.PowerOn, []int{3}) {
		t.Errorf("swqn: on %v", d.PowerOn)
	}
}

func TestFrequencyScalingPlace(t *testing.T) {
	v := mkView(0, []node{{state: Idle, slots: 4}, {state: Busy, slots: 4, busySlots: 3}, {state: Busy, slots: 4, busySlots: 1}, {state: Idle, slots: 2}}, nil)
	for _, tt := range []struct {
		policy string
		want   []int
	}{
		{"swq", []int{1, 3, 2, 0}},  // free 1, 2, 3, 4: packed
		{"swqi", []int{0, 2, 3, 1}}, // free 4, 3, 2, 1: spread
	} {
		cands := []int{0, 1, 2, 3}
		mustNew(t, tt.policy).(Placer).Place(v, &QueuedJob{Slots: 2}, cands)
		if !slices.Equal(cands, tt.want) {
			t.Errorf("%s: order %v; want %v", tt.policy, cands, tt.want)
		}
	}
}
