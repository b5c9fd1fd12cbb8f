package search

import (
	"fmt"
	mathrand "math/rand"
	"math/rand/v2"
	"strconv"

	"github.com/MaxHalford/eaopt"
)

// nsga2 is NSGA-II (Deb et al. 2002) as an eaopt.Model. Each Apply makes
// one generation of one island: binary tournaments on (rank, crowding),
// SBX and polynomial mutation (uniform crossover and random reset for
// categorical variables), evaluation of the offspring, then the best
// population-size members of parents and offspring by constrained
// non-domination and crowding. The scalar fitness it leaves on each
// individual (rank + 1/(1+crowding)) keeps eaopt's sorting consistent.
type nsga2 struct {
	run *run
}

// Apply evolves one island by one generation.
func (m *nsga2) Apply(pop *eaopt.Population) error {
	r := m.run
	island := -1
	for i := range r.ga.Populations {
		if &r.ga.Populations[i] == pop {
			island = i
		}
	}
	if island < 0 {
		return fmt.Errorf("tuner: population %s is not an island of this search", pop.ID)
	}
	gen := r.generation()
	next, err := r.step(island, gen, popMembers(*pop))
	if err != nil {
		return err
	}
	for i, mem := range next {
		pop.Individuals[i] = eaopt.Individual{
			Genome:    &genome{run: r, m: mem},
			Fitness:   mem.fitness(),
			Evaluated: true,
			ID:        "g" + strconv.Itoa(gen) + "i" + strconv.Itoa(island) + "n" + strconv.Itoa(i),
		}
	}
	return nil
}

// step makes generation gen of island from its members pop (in key
// order): the same in-process and in an island that runs apart.
func (r *run) step(island, gen int, pop []*member) ([]*member, error) {
	rng := newRNG(r.settings.Seed, island, gen)
	parents, err := r.conform(island, pop) // key order: independent of eaopt's sorting
	if err != nil {
		return nil, err
	}
	rankAndCrowd(parents)
	n := len(parents)
	xs := make([][]float64, 0, n+1)
	for len(xs) < n {
		a, b := tournament(parents, rng), tournament(parents, rng)
		c1, c2 := make([]float64, len(r.vars)), make([]float64, len(r.vars))
		r.settings.Variation.recombine(r.vars, a.x, b.x, c1, c2, rng)
		r.fix(island, c1)
		r.fix(island, c2)
		xs = append(xs, c1, c2)
	}
	kids, err := r.pool.evaluate(r.ctx, xs[:n])
	if err != nil {
		return nil, err
	}
	return survivors(append(parents, kids...), n), nil
}

// Validate implements eaopt.Model.
func (m *nsga2) Validate() error { return nil }

// ringMigration is eaopt's MigRing driven by a generator derived from the
// seed and the absolute generation, on islands in key order, every
// MigrationEvery generations.
type ringMigration struct {
	run *run
}

// Apply implements eaopt.Migrator.
func (g *ringMigration) Apply(pops eaopt.Populations, _ *mathrand.Rand) {
	r := g.run
	gen := r.generation()
	if gen%r.settings.MigrationEvery != 0 {
		return
	}
	ms := make([][]*member, len(pops))
	for i := range pops {
		ms[i] = popMembers(pops[i])
	}
	migrateRing(ms, r.settings.Seed, gen, r.settings.Migrants)
	for i := range pops {
		for j, mem := range ms[i] {
			pops[i].Individuals[j] = eaopt.Individual{Genome: &genome{run: r, m: mem}, Fitness: mem.fitness(), Evaluated: true, ID: pops[i].Individuals[j].ID}
		}
	}
}

// migrateRing is eaopt's MigRing on islands in key order, with a generator
// derived from the seed and the absolute generation gen: one island after
// another, island i swaps the members at migrants random places with
// island i+1 (so a member may travel down the chain). An island that runs
// apart computes it over the islands it has (Exchange), skipping missing
// ones, and keeps its own.
func migrateRing(pops [][]*member, seed int64, gen, migrants int) {
	rng := mathrand.New(mathrand.NewSource(newRNG(seed, -1, gen).Int64()))
	for i := 0; i < len(pops)-1; i++ {
		for _, k := range randomInts(migrants, len(pops[i]), rng) {
			pops[i][k], pops[i+1][k] = pops[i+1][k], pops[i][k]
		}
	}
}

// randomInts is eaopt's randomInts(k, 0, n, rng): k distinct indices in
// [0, n) by reservoir sampling, drawing exactly as eaopt does.
func randomInts(k, n int, rng *mathrand.Rand) []int {
	ints := make([]int, k)
	for i := range k {
		ints[i] = i
	}
	for i := k; i < n; i++ {
		if j := rng.Intn(i + 1); j < k {
			ints[j] = i
		}
	}
	return ints
}

// Validate implements eaopt.Migrator.
func (g *ringMigration) Validate() error {
	if g.run.settings.Migrants < 1 {
		return fmt.Errorf("tuner: migrants %d < 1", g.run.settings.Migrants)
	}
	return nil
}

// genome is a candidate as eaopt sees it. Its Evaluate returns the scalar
// fitness the nsga2 model assigned; Mutate and Crossover use the same
// operators as the model, for use with eaopt's other models.
type genome struct {
	run *run
	m   *member
}

// Evaluate implements eaopt.Genome. A candidate changed outside the nsga2
// model is evaluated through the search's worker pool and cache; its
// fitness is then its constraint violation plus the sum of its
// (minimisation) objectives, since rank needs a population.
func (g *genome) Evaluate() (float64, error) {
	if g.m.f == nil {
		ms, err := g.run.pool.evaluate(g.run.ctx, [][]float64{g.m.x})
		if err != nil {
			return 0, err
		}
		g.m = ms[0]
		sum := g.m.cv
		for _, v := range g.m.f {
			sum += v
		}
		return sum, nil
	}
	return g.m.fitness(), nil
}

// Mutate implements eaopt.Genome.
func (g *genome) Mutate(rng *mathrand.Rand) {
	r := g.run
	v2 := rand.New(rand.NewPCG(uint64(rng.Int63()), uint64(rng.Int63())))
	x := make([]float64, len(r.vars))
	for k, vr := range r.vars {
		x[k] = vr.fromSearch(r.settings.Variation.mutate(vr, r.settings.Variation.mutationProb(k), vr.toSearch(g.m.x[k]), v2))
	}
	g.m = &member{x: x, key: genomeKey(x)}
}

// Crossover implements eaopt.Genome.
func (g *genome) Crossover(other eaopt.Genome, rng *mathrand.Rand) {
	r := g.run
	o := other.(*genome)
	v2 := rand.New(rand.NewPCG(uint64(rng.Int63()), uint64(rng.Int63())))
	c1, c2 := make([]float64, len(r.vars)), make([]float64, len(r.vars))
	v := r.settings.Variation
	v.CrossoverProb = 1
	v.MutationProb, v.perVar = 0, nil // no mutation
	v.recombine(r.vars, g.m.x, o.m.x, c1, c2, v2)
	g.m = &member{x: c1, key: genomeKey(c1)}
	o.m = &member{x: c2, key: genomeKey(c2)}
}

// Clone implements eaopt.Genome.
func (g *genome) Clone() eaopt.Genome {
	c := *g.m
	return &genome{run: g.run, m: &c}
}
