package summary

import (
	"errors"
	"fmt"
	"github.com/ecotune/ecotune/run"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/ecotune/ecotune/tuner/scoring"
)

// SeedsJSON is the file TuneSeeds writes in its directory.
const SeedsJSON = run.SeedsJSON

// SeedsSummary is DIR/seeds.json of TuneSeeds: the same policy comparison
// (TunePolicies) repeated with each seed, and per policy the spread of its
// figures across the seeds. A search is random, so one seed's ranking of
// two policies whose hypervolumes differ by less than their spread across
// seeds is a coin toss; this tells the two cases apart.
type SeedsSummary struct {
	Trace       string   `json:"trace"`
	TraceSHA256 string   `json:"trace_sha256"`
	Split       string   `json:"split"`
	Scheduler   string   `json:"scheduler"`
	Seeds       []int64  `json:"seeds"`   // the seeds compared, in order
	Dirs        []string `json:"dirs"`    // each seed's comparison directory, relative to the summary's
	Presets     []string `json:"presets"` // the presets' names, in order
	// Policies in the order they were named.
	Policies []SeedsPolicy `json:"policies"`
	// Interrupted: a seed's comparison stopped; Seeds and Dirs list only
	// the seeds finished before it, and --resume continues.
	Interrupted bool `json:"interrupted,omitempty"`
}

// SeedsPolicy is one policy's figures across the seeds.
type SeedsPolicy struct {
	Policy      string               `json:"policy"`
	Hypervolume map[string]Spread    `json:"hypervolume"` // "train", "test"
	Picks       map[string]SeedsPick `json:"picks"`       // by preset name
}

// SeedsPick is one preset's picks across the seeds: on how many seeds the
// pick met the preset's bound on each split, and its test scores as a
// spread.
type SeedsPick struct {
	FeasibleTrain int `json:"feasible_train"` // seeds whose pick met the bound on train
	FeasibleTest  int `json:"feasible_test"`  // seeds whose pick met it on test
	Seeds         int `json:"seeds"`          // seeds with a pick
	// TestQoSP90 is the picks' p90 wait ratio on the test split, and
	// TestOffShare their test node-off seconds over the oracle's (absent
	// when the oracle switches nothing off).
	TestQoSP90   *Spread `json:"test_qos_p90,omitempty"`
	TestOffShare *Spread `json:"test_off_share_of_oracle,omitempty"`
	// HindsightOffShare is the same share for the member the preset
	// would have chosen on the test split (PresetPick.Hindsight), and
	// HindsightFeasible on how many seeds that member meets the bound on
	// test: the most the seeds' fronts offered a choice made on train.
	// Both are absent unless every seed's pick records its hindsight.
	HindsightOffShare *Spread `json:"hindsight_test_off_share_of_oracle,omitempty"`
	HindsightFeasible *int    `json:"hindsight_feasible_test,omitempty"`
}

// Spread is a figure over seeds: each seed's value, in the order of
// SeedsSummary.Seeds, and their mean, minimum and maximum.
type Spread struct {
	Mean    float64   `json:"mean"`
	Min     float64   `json:"min"`
	Max     float64   `json:"max"`
	PerSeed []float64 `json:"per_seed"`
}

// spreadOf summarises xs (at least one value).
func spreadOf(xs []float64) Spread {
	s := Spread{Min: xs[0], Max: xs[0], PerSeed: xs}
	sum := 0.0
	for _, x := range xs {
		sum += x
		s.Min, s.Max = min(s.Min, x), max(s.Max, x)
	}
	s.Mean = sum / float64(len(xs))
	return s
}

// SeedDir is the directory of seed s's comparison inside a TuneSeeds
// directory.
func SeedDir(s int64) string { return fmt.Sprintf("seed-%d", s) }

// Seeds gathers the finished comparisons of the seeds, in order, into a
// SeedsSummary, interrupted when cut (the comparison that was
// interrupted, left out) is not nil; runs and cut are not both empty.
func Seeds(runs []*PoliciesSummary, policies []string, cut *PoliciesSummary) *SeedsSummary {
	first := cut
	if len(runs) > 0 {
		first = runs[0]
	}
	s := &SeedsSummary{Trace: first.Trace, TraceSHA256: first.TraceSHA256, Split: first.Split,
		Scheduler: first.Scheduler, Presets: first.Presets, Seeds: []int64{}, Dirs: []string{}, Policies: []SeedsPolicy{}, Interrupted: cut != nil}
	for _, r := range runs {
		s.Seeds = append(s.Seeds, r.Seed)
		s.Dirs = append(s.Dirs, SeedDir(r.Seed))
	}
	for _, name := range policies {
		var per []PolicySummary
		var oracles []Pair
		for _, r := range runs {
			if i := slices.IndexFunc(r.Policies, func(p PolicySummary) bool { return p.Policy == name }); i >= 0 {
				per = append(per, r.Policies[i])
				oracles = append(oracles, r.References[scoring.Oracle])
			}
		}
		if len(per) > 0 {
			s.Policies = append(s.Policies, seedsPolicy(name, per, oracles, s.Presets))
		}
	}
	return s
}

// seedsPolicy is one policy's SeedsPolicy from its summaries per seed and
// the oracle's scores of the same seeds.
func seedsPolicy(name string, per []PolicySummary, oracles []Pair, presets []string) SeedsPolicy {
	sp := SeedsPolicy{Policy: name, Hypervolume: seedsHypervolume(per), Picks: map[string]SeedsPick{}}
	for _, preset := range presets {
		var t seedsTally
		for i, p := range per {
			if pick, ok := p.Picks[preset]; ok {
				t.add(pick, oracles[i])
			}
		}
		if t.pk.Seeds > 0 {
			sp.Picks[preset] = t.pick()
		}
	}
	return sp
}

// seedsHypervolume is the spread of the policy's hypervolume over seeds
// on each split that all its seeds' summaries have.
func seedsHypervolume(per []PolicySummary) map[string]Spread {
	hv := map[string]Spread{}
	for _, split := range []string{"train", "test"} {
		var xs []float64
		for _, p := range per {
			if v, ok := p.Hypervolume[split]; ok {
				xs = append(xs, v)
			}
		}
		if len(xs) == len(per) {
			hv[split] = spreadOf(xs)
		}
	}
	return hv
}

// seedsTally gathers one preset's picks over the seeds that have one.
type seedsTally struct {
	pk                      SeedsPick // the counts so far
	qos, share, hind        []float64 // test qos_p90, off shares of the pick and of hindsight's
	hindSeeds, hindFeasible int       // seeds with a hindsight pick, and those feasible on test
}

// add counts pick, the preset's pick of one seed, whose oracle's scores
// are oracle.
func (t *seedsTally) add(pick PresetPick, oracle Pair) {
	t.pk.Seeds++
	if pick.FeasibleTrain {
		t.pk.FeasibleTrain++
	}
	if pick.FeasibleTest != nil && *pick.FeasibleTest {
		t.pk.FeasibleTest++
	}
	if h := pick.Hindsight; h != nil {
		t.hindSeeds++
		if h.FeasibleTest {
			t.hindFeasible++
		}
	}
	if pick.Test == nil {
		return
	}
	t.qos = append(t.qos, pick.Test.QoSP90)
	o := oracle.Test
	if o == nil || o.OffNodeSeconds == 0 {
		return
	}
	t.share = append(t.share, float64(pick.Test.OffNodeSeconds)/float64(o.OffNodeSeconds))
	if h := pick.Hindsight; h != nil {
		t.hind = append(t.hind, float64(h.Test.OffNodeSeconds)/float64(o.OffNodeSeconds))
	}
}

// pick is the tally's SeedsPick: each spread is there only when every
// counted seed gave its value.
func (t *seedsTally) pick() SeedsPick {
	pk := t.pk
	if len(t.qos) == pk.Seeds {
		q := spreadOf(t.qos)
		pk.TestQoSP90 = &q
	}
	if len(t.share) == pk.Seeds {
		sh := spreadOf(t.share)
		pk.TestOffShare = &sh
	}
	if t.hindSeeds == pk.Seeds {
		hf := t.hindFeasible
		pk.HindsightFeasible = &hf
		if len(t.hind) == pk.Seeds {
			h := spreadOf(t.hind)
			pk.HindsightOffShare = &h
		}
	}
	return pk
}

// WriteSeeds writes s as dir's seeds.json, atomically.
func WriteSeeds(dir string, s *SeedsSummary) error {
	return writeJSON(filepath.Join(dir, SeedsJSON), s)
}

// ParseSeeds reads a comma-separated list of whole numbers (the --seeds
// flag): at least one.
func ParseSeeds(list string) ([]int64, error) {
	var seeds []int64
	for _, f := range strings.Split(list, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		s, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a whole number", f)
		}
		seeds = append(seeds, s)
	}
	if len(seeds) == 0 {
		return nil, errors.New("no seed")
	}
	return seeds, nil
}
