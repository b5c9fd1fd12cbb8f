package summary

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/ecotune/ecotune/objectives"
)

// seedPick is a rel10 pick with test node-off seconds off (no test split
// when off < 0) and, when hind ≥ 0, a hindsight member with off seconds
// hind, feasible on test when hindOK.
func seedPick(off, hind int64, hindOK bool) PresetPick {
	yes := true
	pk := PresetPick{FeasibleTrain: true}
	if off >= 0 {
		pk.Test = &objectives.Scores{OffNodeSeconds: off, QoSP90: float64(off) / 10}
		pk.FeasibleTest = &yes
	}
	if hind >= 0 {
		pk.Hindsight = &HindsightPick{Test: objectives.Scores{OffNodeSeconds: hind}, FeasibleTest: hindOK}
	}
	return pk
}

// TestSeedsPolicy checks which of a preset's spreads and counts appear
// when some seed lacks a test split, an oracle, a hindsight member or
// the pick itself.
func TestSeedsPolicy(t *testing.T) {
	oracle := Pair{Test: &objectives.Scores{OffNodeSeconds: 100}}
	noOracle := Pair{}
	for _, c := range []struct {
		name    string
		picks   []PresetPick // nil: no seed has a rel10 pick
		oracles []Pair
		want    string // "": no rel10 entry; else seeds/feasTrain/feasTest/qos/share/hindFeasible/hindShare
	}{
		{"both with hindsight", []PresetPick{seedPick(50, 80, true), seedPick(70, 90, false)}, []Pair{oracle, oracle}, "2/2/2/6/0.6/1/0.85"},
		{"one without hindsight", []PresetPick{seedPick(50, 80, true), seedPick(70, -1, false)}, []Pair{oracle, oracle}, "2/2/2/6/0.6/-/-"},
		{"one without oracle", []PresetPick{seedPick(50, 80, true), seedPick(70, 90, true)}, []Pair{oracle, noOracle}, "2/2/2/6/-/2/-"},
		{"one without test split", []PresetPick{seedPick(50, 80, true), seedPick(-1, 90, true)}, []Pair{oracle, oracle}, "2/2/1/-/-/2/-"},
		{"no picks", nil, []Pair{oracle, oracle}, ""},
	} {
		per := make([]PolicySummary, len(c.oracles))
		for i := range per {
			per[i] = PolicySummary{Hypervolume: map[string]float64{"train": 0.5}, Picks: map[string]PresetPick{}}
			if c.picks != nil {
				per[i].Picks["rel10"] = c.picks[i]
			}
		}
		per[0].Hypervolume["test"] = 0.4
		sp := seedsPolicy("p", per, c.oracles, []string{"rel10"})
		if _, ok := sp.Hypervolume["test"]; ok || sp.Hypervolume["train"].Mean != 0.5 {
			t.Errorf("%s: hypervolume %+v, want train's alone (one seed lacks test)", c.name, sp.Hypervolume)
		}
		pk, ok := sp.Picks["rel10"]
		if got := describePick(pk, ok); got != c.want {
			t.Errorf("%s: pick %s, want %s", c.name, got, c.want)
		}
	}
}

// describePick writes pk as TestSeedsPolicy's want strings do.
func describePick(pk SeedsPick, ok bool) string {
	if !ok {
		return ""
	}
	mean := func(s *Spread) string {
		if s == nil {
			return "-"
		}
		return strconv.FormatFloat(s.Mean, 'g', 6, 64)
	}
	hf := "-"
	if pk.HindsightFeasible != nil {
		hf = strconv.Itoa(*pk.HindsightFeasible)
	}
	return fmt.Sprintf("%d/%d/%d/%s/%s/%s/%s", pk.Seeds, pk.FeasibleTrain, pk.FeasibleTest, mean(pk.TestQoSP90), mean(pk.TestOffShare), hf, mean(pk.HindsightOffShare))
}
