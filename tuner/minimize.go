package tuner

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	mathrand "math/rand"
	"slices"
	"strings"

	"github.com/MaxHalford/eaopt"
)

// Minimize runs NSGA-II on p: eaopt drives the generations, the islands and
// their ring migration, and calls the recorders; the nsga2 model does the
// multiobjective work. Maximised objectives are handled by negation
// internally; results carry them in their own sense.
//
// When ctx is cancelled the search stops after the current generation (the
// recorders have seen it, so a checkpoint is valid) and Minimize returns
// the result so far with Interrupted set.
func Minimize(ctx context.Context, p Problem, s Settings) (*Result, error) {
	vars := p.Vars()
	if err := validateVars(vars); err != nil {
		return nil, err
	}
	if len(p.Objectives()) == 0 {
		return nil, fmt.Errorf("tuner: a problem needs at least one objective")
	}
	s = s.withDefaults()
	s.Variation = s.Variation.withDefaults(vars)
	if err := s.validate(len(vars)); err != nil {
		return nil, err
	}
	pl, err := newPool(p, s.Workers)
	if err != nil {
		return nil, err
	}
	defer pl.close()
	r := &run{problem: p, vars: vars, settings: s, pool: pl, fingerprint: fingerprint(p, s)}
	islands, err := r.start()
	if err != nil {
		return nil, err
	}
	if r.offset >= s.Generations || ctx.Err() != nil {
		if err := r.record(islands); err != nil {
			return nil, err
		}
		return r.result(islands, ctx.Err() != nil), nil
	}
	if err := r.evolve(ctx, islands); err != nil {
		return nil, err
	}
	return r.result(r.islandMembers(), ctx.Err() != nil && r.generation() < s.Generations), nil
}

// run is the state of one Minimize call.
type run struct {
	problem     Problem
	vars        []Var
	settings    Settings
	pool        *pool
	fingerprint string
	offset      int // generation the eaopt GA starts from (resume)
	ga          *eaopt.GA
	recordErr   error
}

// generation is the number of generations done.
func (r *run) generation() int { return r.offset + int(r.ga.Generations) }

// start makes (or restores) the initial islands.
func (r *run) start() ([][]*member, error) {
	s := r.settings
	if ck := s.Resume; ck != nil {
		if ck.Fingerprint != r.fingerprint {
			return nil, fmt.Errorf("tuner: the checkpoint was made by a different problem or settings (fingerprint %s, now %s)", ck.Fingerprint, r.fingerprint)
		}
		r.pool.restore(ck.Cache)
		r.offset = ck.Generation
		islands := make([][]*member, len(ck.Islands))
		for i, isl := range ck.Islands {
			xs := make([][]float64, len(isl))
			for j, m := range isl {
				xs[j] = m.X
			}
			ms, err := r.pool.evaluate(xs) // all cached
			if err != nil {
				return nil, err
			}
			rankAndCrowd(ms)
			islands[i] = ms
		}
		return islands, nil
	}
	islands := make([][]*member, s.Islands)
	for i := range islands {
		rng := newRNG(s.Seed, i, 0)
		xs := make([][]float64, 0, s.Population)
		for _, x := range s.Initial {
			if len(xs) < s.Population {
				xs = append(xs, r.repair(x))
			}
		}
		for len(xs) < s.Population {
			x := make([]float64, len(r.vars))
			for k, v := range r.vars {
				x[k] = randomValue(v, rng)
			}
			xs = append(xs, x)
		}
		for _, x := range xs {
			r.fix(i, x)
		}
		ms, err := r.pool.evaluate(xs)
		if err != nil {
			return nil, err
		}
		sortByKey(ms)
		rankAndCrowd(ms)
		islands[i] = ms
	}
	return islands, nil
}

// fix sets the variables island fixes (Settings.Fixed) in x and reports
// whether any changed.
func (r *run) fix(island int, x []float64) bool {
	if island >= len(r.settings.Fixed) {
		return false
	}
	changed := false
	for k, v := range r.settings.Fixed[island] {
		if x[k] != v {
			x[k], changed = v, true
		}
	}
	return changed
}

// conform replaces the members of island that do not keep its fixed
// variables (migrants from other islands) by their projections, evaluated.
func (r *run) conform(island int, ms []*member) ([]*member, error) {
	if island >= len(r.settings.Fixed) {
		return ms, nil // the island fixes nothing
	}
	var idx []int
	var xs [][]float64
	for j, m := range ms {
		x := slices.Clone(m.x)
		if r.fix(island, x) {
			idx, xs = append(idx, j), append(xs, x)
		}
	}
	if len(xs) == 0 {
		return ms, nil
	}
	fixed, err := r.pool.evaluate(xs)
	if err != nil {
		return nil, err
	}
	out := slices.Clone(ms)
	for n, j := range idx {
		out[j] = fixed[n]
	}
	sortByKey(out)
	return out, nil
}

// repair maps a given candidate to valid values.
func (r *run) repair(x []float64) []float64 {
	y := make([]float64, len(x))
	for k, v := range r.vars {
		y[k] = v.fromSearch(v.toSearch(x[k]))
	}
	return y
}

// evolve hands the islands to eaopt for the remaining generations.
func (r *run) evolve(ctx context.Context, islands [][]*member) error {
	s := r.settings
	model := &nsga2{run: r}
	conf := eaopt.GAConfig{
		NPops:        uint(s.Islands),
		PopSize:      uint(s.Population),
		NGenerations: uint(s.Generations - r.offset),
		HofSize:      1,
		Model:        model,
		Callback: func(ga *eaopt.GA) {
			if r.recordErr == nil {
				r.recordErr = r.record(r.islandMembers())
			}
		},
		EarlyStop: func(ga *eaopt.GA) bool {
			return ctx.Err() != nil || r.recordErr != nil ||
				(s.Evaluations > 0 && r.pool.evaluations() >= s.Evaluations)
		},
		// eaopt draws individual IDs from it; every choice that matters
		// uses newRNG.
		RNG: mathrand.New(mathrand.NewSource(s.Seed)),
	}
	if s.Islands > 1 {
		conf.Migrator = &ringMigration{run: r}
		conf.MigFrequency = 1 // ringMigration counts absolute generations itself
	}
	ga, err := conf.NewGA()
	if err != nil {
		return fmt.Errorf("tuner: %w", err)
	}
	r.ga = ga
	next := 0
	newGenome := func(*mathrand.Rand) eaopt.Genome {
		i, j := next/s.Population, next%s.Population
		next++
		return &genome{run: r, m: islands[i][j]}
	}
	if err := ga.Minimize(newGenome); err != nil {
		return fmt.Errorf("tuner: %w", err)
	}
	return r.recordErr
}

// islandMembers returns the members of each island, in key order.
func (r *run) islandMembers() [][]*member {
	out := make([][]*member, len(r.ga.Populations))
	for i, pop := range r.ga.Populations {
		out[i] = popMembers(pop)
	}
	return out
}

func popMembers(pop eaopt.Population) []*member {
	ms := make([]*member, len(pop.Individuals))
	for j, ind := range pop.Individuals {
		ms[j] = ind.Genome.(*genome).m
	}
	sortByKey(ms)
	return ms
}

func sortByKey(ms []*member) {
	slices.SortStableFunc(ms, func(a, b *member) int { return strings.Compare(a.key, b.key) })
}

// record tells the recorders about the current generation.
func (r *run) record(islands [][]*member) error {
	gen := r.offset
	if r.ga != nil {
		gen = r.generation()
	}
	ck := &Checkpoint{
		Version:     CheckpointVersion,
		Fingerprint: r.fingerprint,
		Seed:        r.settings.Seed,
		Generation:  gen,
		Evaluations: r.pool.evaluations(),
		Islands:     make([][]Member, len(islands)),
	}
	for i, isl := range islands {
		ck.Islands[i] = r.export(isl)
	}
	ck.CacheEntries = ck.Evaluations
	st := &Status{
		Generation:  gen,
		Generations: r.settings.Generations,
		Evaluations: ck.Evaluations,
		Budget:      r.settings.Evaluations,
		Front:       r.export(firstFront(islands)),
		Fresh:       r.pool.takeFresh(),
		Checkpoint:  ck,
	}
	for _, rec := range r.settings.Recorders {
		if err := rec.Record(st); err != nil {
			return fmt.Errorf("tuner: recorder: %w", err)
		}
	}
	return nil
}

// firstFront returns copies of the distinct members of rank 0 over all
// islands, in key order.
func firstFront(islands [][]*member) []*member {
	all := distinct(islands)
	rankAndCrowd(all)
	front := all[:0]
	for _, m := range all {
		if m.rank == 0 {
			front = append(front, m)
		}
	}
	return front
}

// distinct returns copies of the distinct members of islands, in key order.
func distinct(islands [][]*member) []*member {
	seen := map[string]bool{}
	var all []*member
	for _, isl := range islands {
		for _, m := range isl {
			if !seen[m.key] {
				seen[m.key] = true
				c := *m
				all = append(all, &c)
			}
		}
	}
	sortByKey(all)
	return all
}

// export converts members to the public form, objectives in their own sense.
func (r *run) export(ms []*member) []Member {
	out := make([]Member, len(ms))
	for i, m := range ms {
		out[i] = Member{X: m.x, F: orient(slices.Clone(m.f), r.pool.sense), Violation: m.cv, Rank: m.rank}
	}
	return out
}

// result ranks the distinct members of the final islands.
func (r *run) result(islands [][]*member, interrupted bool) *Result {
	all := distinct(islands)
	rankAndCrowd(all)
	slices.SortStableFunc(all, func(a, b *member) int {
		if c := cmp.Compare(a.rank, b.rank); c != 0 {
			return c
		}
		return slices.Compare(a.f, b.f)
	})
	gen := r.offset
	if r.ga != nil {
		gen = r.generation()
	}
	return &Result{
		Members:     r.export(all),
		Archive:     r.export(r.archive()),
		Generations: gen,
		Evaluations: r.pool.evaluations(),
		Interrupted: interrupted,
	}
}

// fingerprint identifies the problem and the settings a checkpoint can be
// resumed with (the generation limit, budget, workers and recorders may
// change).
func fingerprint(p Problem, s Settings) string {
	b, err := json.Marshal(struct {
		Vars                               []Var
		Objectives                         []Objective
		Population, Islands, Every, Migran int
		Seed                               int64
		Variation                          Variation
		Initial                            [][]float64
		Fixed                              []map[int]float64 `json:",omitempty"`
	}{p.Vars(), p.Objectives(), s.Population, s.Islands, s.MigrationEvery, s.Migrants, s.Seed, s.Variation, s.Initial, s.Fixed})
	if err != nil {
		panic(err) // plain data always marshals
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:8])
}

// archive returns the candidates no other evaluated candidate
// constrained-dominates: the best front of the whole search, not only of
// the final populations.
func (r *run) archive() []*member {
	entries := r.pool.all()
	var arch []*member
	for _, m := range entries {
		dominated := false
		for _, a := range arch {
			if dominates(a, m) {
				dominated = true
				break
			}
		}
		if dominated {
			continue
		}
		kept := arch[:0]
		for _, a := range arch {
			if !dominates(m, a) {
				kept = append(kept, a)
			}
		}
		arch = append(kept, m)
	}
	sortByKey(arch)
	return arch
}
