package search

import (
	"math"
	"math/rand/v2"
)

// Variation sets NSGA-II's operators. Zero fields take the defaults of
// Deb's reference implementation as pymoo uses them.
type Variation struct {
	CrossoverProb float64 `json:"crossover_prob"` // probability that a pair is recombined; default 0.9
	CrossoverEta  float64 `json:"crossover_eta"`  // SBX distribution index; default 15
	MutationEta   float64 `json:"mutation_eta"`   // polynomial-mutation distribution index; default 20
	// MutationProb is the probability that a variable is mutated. By
	// default each group of variables (Var.Group) is given an equal share
	// of one expected mutation per child: 1/(groups × size of the
	// variable's group), which is 1/number of variables when all are in
	// one group. For hgfs the five crisp thresholds would otherwise be
	// mutated 1/46 of the time each, drowned by 41 rule and shift genes.
	MutationProb float64   `json:"mutation_prob"`
	perVar       []float64 // per-variable probabilities when MutationProb is 0
}

func (v Variation) withDefaults(vars []Var) Variation {
	if v.CrossoverProb == 0 {
		v.CrossoverProb = 0.9
	}
	if v.CrossoverEta == 0 {
		v.CrossoverEta = 15
	}
	if v.MutationEta == 0 {
		v.MutationEta = 20
	}
	if v.MutationProb == 0 {
		v.perVar = groupMutationProbs(vars)
	}
	return v
}

// groupMutationProbs returns 1/(groups × size of the variable's group) for
// each variable.
func groupMutationProbs(vars []Var) []float64 {
	size := map[string]int{}
	for _, vr := range vars {
		size[vr.Group]++
	}
	probs := make([]float64, len(vars))
	for i, vr := range vars {
		probs[i] = 1 / float64(len(size)*size[vr.Group])
	}
	return probs
}

// mutationProb is the probability that variable i is mutated.
func (v Variation) mutationProb(i int) float64 {
	if v.perVar != nil {
		return v.perVar[i]
	}
	return v.MutationProb
}

// recombine writes two children of parents a and b into c1 and c2: SBX on
// real variables and uniform crossover on categorical ones (with
// probability CrossoverProb, else copies), then mutation, all in search
// coordinates, then back to valid values.
func (v Variation) recombine(vars []Var, a, b, c1, c2 []float64, rng *rand.Rand) {
	cross := rng.Float64() < v.CrossoverProb
	for i, vr := range vars {
		y1, y2 := vr.toSearch(a[i]), vr.toSearch(b[i])
		if cross && rng.Float64() < 0.5 {
			if vr.categorical() {
				y1, y2 = y2, y1
			} else {
				y1, y2 = sbx(y1, y2, vr.lower(), vr.upper(), v.CrossoverEta, rng)
			}
		}
		c1[i] = vr.fromSearch(v.mutate(vr, v.mutationProb(i), y1, rng))
		c2[i] = vr.fromSearch(v.mutate(vr, v.mutationProb(i), y2, rng))
	}
}

// mutate applies, with probability prob, polynomial mutation to a real
// variable or a random reset to a categorical one.
func (v Variation) mutate(vr Var, prob, y float64, rng *rand.Rand) float64 {
	if rng.Float64() >= prob {
		return y
	}
	if vr.categorical() {
		return float64(rng.IntN(vr.Levels))
	}
	return polynomial(y, vr.lower(), vr.upper(), v.MutationEta, rng)
}

// sbx is simulated binary crossover bounded to [lo, hi] (Deb and Agrawal
// 1995, in the bounded form of Deb's NSGA-II code).
func sbx(p1, p2, lo, hi, eta float64, rng *rand.Rand) (float64, float64) {
	if math.Abs(p1-p2) <= 1e-14 || hi <= lo {
		return p1, p2
	}
	y1, y2 := math.Min(p1, p2), math.Max(p1, p2)
	u := rng.Float64()
	spread := func(beta float64) float64 {
		alpha := 2 - math.Pow(beta, -(eta+1))
		if u <= 1/alpha {
			return math.Pow(u*alpha, 1/(eta+1))
		}
		return math.Pow(1/(2-u*alpha), 1/(eta+1))
	}
	bq := spread(1 + 2*(y1-lo)/(y2-y1))
	c1 := 0.5 * ((y1 + y2) - bq*(y2-y1))
	bq = spread(1 + 2*(hi-y2)/(y2-y1))
	c2 := 0.5 * ((y1 + y2) + bq*(y2-y1))
	c1 = math.Min(math.Max(c1, lo), hi)
	c2 = math.Min(math.Max(c2, lo), hi)
	if rng.Float64() < 0.5 {
		return c2, c1
	}
	return c1, c2
}

// polynomial is bounded polynomial mutation (Deb and Goyal 1996).
func polynomial(y, lo, hi, eta float64, rng *rand.Rand) float64 {
	if hi <= lo {
		return y
	}
	d1, d2 := (y-lo)/(hi-lo), (hi-y)/(hi-lo)
	u := rng.Float64()
	pow := 1 / (eta + 1)
	var dq float64
	if u < 0.5 {
		val := 2*u + (1-2*u)*math.Pow(1-d1, eta+1)
		dq = math.Pow(val, pow) - 1
	} else {
		val := 2*(1-u) + 2*(u-0.5)*math.Pow(1-d2, eta+1)
		dq = 1 - math.Pow(val, pow)
	}
	return math.Min(math.Max(y+dq*(hi-lo), lo), hi)
}

// randomValue draws a value uniformly in search coordinates.
func randomValue(vr Var, rng *rand.Rand) float64 {
	if vr.categorical() {
		return float64(rng.IntN(vr.Levels))
	}
	return vr.fromSearch(vr.lower() + rng.Float64()*(vr.upper()-vr.lower()))
}

// Random is a uniformly random valid value of v from rng (the search's
// initial candidates are made so).
func (v Var) Random(rng *rand.Rand) float64 { return randomValue(v, rng) }

// newRNG is the generator of one island at one generation: every
// generation's randomness derives from (seed, island, generation) alone, so
// a run resumed from a checkpoint continues exactly as an uninterrupted one.
// Island −1 is the migration stream.
func newRNG(seed int64, island, generation int) *rand.Rand {
	stream := SplitMix64(uint64(int64(island))<<32 ^ uint64(generation))
	return rand.New(rand.NewPCG(uint64(seed), stream))
}

// SplitMix64 is the SplitMix64 finaliser: the tuner derives the stream of
// every seeded generator with it.
func SplitMix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
