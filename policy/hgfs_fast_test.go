package policy

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// The shortcuts of hgfs's hot path give what the plain computations they
// replace give.

// bootEfficientFirst boots what bootInOrder over bootOrder boots, on random
// Views with equally and unequally efficient groups, failed nodes or
// none, and commands already in the Decision.
func TestBootEfficientFirstIsBootInOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	fast, undone := 0, 0
	for range 20000 {
		v := randomView(rng, 1_000_000_000)
		if rng.IntN(2) == 0 {
			v.Groups[1].GFLOPS = v.Groups[0].GFLOPS // same power model: same efficiency
		}
		if rng.IntN(2) == 0 {
			for i := range v.Nodes {
				v.Nodes[i].LastFailed = NoTime
			}
		}
		slots, extra, maxNodes := rng.IntN(v.TotalSlots+2), rng.IntN(3), rng.IntN(len(v.Nodes)+2)-1
		var want, got Decision
		want.PowerOn = append(want.PowerOn, 99)
		got.PowerOn = append(got.PowerOn, 99)
		order := bootOrder(v, nil)
		nWant := bootInOrder(v, &want, order, slots, extra, maxNodes)
		var buf []int
		nGot := bootEfficientFirst(v, &got, &buf, slots, extra, maxNodes)
		if nGot != nWant || !slices.Equal(got.PowerOn, want.PowerOn) {
			t.Fatalf("slots %d extra %d max %d, order %v: booted %d %v; want %d %v",
				slots, extra, maxNodes, order, nGot, got.PowerOn, nWant, want.PowerOn)
		}
		switch {
		case !sameEfficiency(v.Groups) || v.OffNodes == 0:
		case buf == nil:
			fast++
		default:
			undone++
		}
	}
	if fast < 2000 || undone < 500 {
		t.Errorf("the ID-order walk decided %d of 20000 cases and gave up in %d", fast, undone)
	}
}

// hourOf gives the local hour and the next hour's start as computed from
// scratch, over a sequence of times that stays in an hour, moves on,
// jumps back and changes time zone.
func TestHourOf(t *testing.T) {
	fresh := func(now int64, tz int) (int, int64) {
		local := now + int64(tz)
		return int(((local % 86400) + 86400) % 86400 / 3600), (local - ((local%3600)+3600)%3600) + 3600 - int64(tz)
	}
	tests := []struct {
		now      int64
		tz       int
		hour     int
		nextHour int64
	}{
		{0, 0, 0, 3600},
		{3599, 0, 0, 3600},
		{3600, 0, 1, 7200},
		{3600, 3600, 2, 7200},
		{3600, -5400, 23, 5400}, // local −1800: 23:30 the day before
		{-1, 0, 23, 0},          // 23:59:59 on 31 Dec 1969
		{86400*3 + 7199, 0, 1, 86400*3 + 7200},
		{86400 * 3, 0, 0, 86400*3 + 3600}, // back in time
	}
	p := &hgfs{hour: localHour{from: NoTime, to: NoTime}}
	for _, tt := range tests {
		h, next := p.hourOf(tt.now, tt.tz)
		if h != tt.hour || next != tt.nextHour {
			t.Errorf("hourOf(%d, %d) = %d, %d; want %d, %d", tt.now, tt.tz, h, next, tt.hour, tt.nextHour)
		}
	}
	rng := rand.New(rand.NewPCG(1, 1))
	now, tz := int64(1_000_000_000), 3600
	for range 100000 {
		switch rng.IntN(100) {
		case 0:
			tz = 900 * (rng.IntN(57) - 28)
		case 1:
			now -= rng.Int64N(20000)
		default:
			now += rng.Int64N(120)
		}
		h, next := p.hourOf(now, tz)
		if wh, wnext := fresh(now, tz); h != wh || next != wnext {
			t.Fatalf("hourOf(%d, %d) = %d, %d; from scratch %d, %d", now, tz, h, next, wh, wnext)
		}
	}
}

func TestRecentSlots(t *testing.T) {
	arrivals := []Arrival{{Time: 100, Slots: 1}, {Time: 200, Slots: 2}, {Time: 200, Slots: 4}, {Time: 300, Slots: 8}}
	tests := []struct {
		since, slots, oldest int64
	}{
		{99, 15, 100},
		{100, 14, 200}, // after since: 100 itself is out
		{250, 8, 300},
		{300, 0, NoTime},
	}
	for _, tt := range tests {
		slots, oldest := recentSlots(arrivals, tt.since)
		if int64(slots) != tt.slots || oldest != tt.oldest {
			t.Errorf("since %d: %d slots, oldest %d; want %d, %d", tt.since, slots, oldest, tt.slots, tt.oldest)
		}
	}
	if slots, oldest := recentSlots(nil, 0); slots != 0 || oldest != NoTime {
		t.Errorf("no arrivals: %d slots, oldest %d", slots, oldest)
	}
}
