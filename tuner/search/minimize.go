package search

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	mathrand "math/rand"
	"slices"
	"strings"

	"github.com/MaxHalford/eaopt"
	"github.com/ecotune/ecotune/internal/fingerprint"
)

// minimize runs NSGA-II on p (Minimize): eaopt drives the generations,
// the islands and their ring migration, and calls the recorders; the
// nsga2 model does the multiobjective work.
func minimize(ctx context.Context, p Problem, s config) (*Result, error) {
	vars := p.Vars()
	if err := ValidateVars(vars); err != nil {
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
	pl, err := newPool(p, s.Workers, s.workers) // Tune's Scorer's workers: one pool for the whole run
	if err != nil {
		return nil, err
	}
	defer pl.close()
	r := &run{ctx: ctx, problem: p, vars: vars, settings: s, pool: pl, fields: fingerprintOf(p, s)}
	r.fingerprint = r.fields.Sum()
	islands, err := r.start()
	if errors.Is(err, errInterrupted) {
		return r.interrupted()
	}
	if err != nil {
		return nil, err
	}
	if r.offset >= s.Generations || ctx.Err() != nil {
		if err := r.record(islands); err != nil {
			return nil, err
		}
		return r.result(islands, ctx.Err() != nil), nil
	}
	if err := r.evolve(ctx, islands); errors.Is(err, errInterrupted) {
		return r.interrupted()
	} else if err != nil {
		return nil, err
	}
	return r.result(r.islandMembers(), ctx.Err() != nil && r.generation() < s.Generations), nil
}

// run is the state of one Minimize call.
type run struct {
	ctx         context.Context
	problem     Problem
	vars        []Var
	settings    config
	pool        *pool
	fingerprint string
	fields      fingerprint.Fingerprint
	offset      int // generation the eaopt GA starts from (resume)
	// last is the checkpoint of the last generation recorded, lastIslands
	// and lastFront its islands and first front: what an interruption
	// within the next generation falls back to.
	last        *Checkpoint
	lastIslands [][]*member
	lastFront   []Member
	ga          *eaopt.GA
	recordErr   error
	apart       int // generations done by an island that runs apart (no ga)
}

// generation is the number of generations done.
func (r *run) generation() int {
	if r.ga == nil {
		return r.offset + r.apart
	}
	return r.offset + int(r.ga.Generations)
}

// start makes (or restores) the initial islands.
func (r *run) start() ([][]*member, error) {
	s := r.settings
	if ck := s.Resume; ck != nil {
		if err := fingerprint.Check(ck.Source(), ck.Fields, r.fields); err != nil {
			return nil, fmt.Errorf("tuner: %w", err)
		}
		if err := ck.checkRun(s, len(r.vars), len(r.pool.sense), s.Islands); err != nil {
			return nil, err
		}
		if ck.Fingerprint != r.fingerprint {
			return nil, fmt.Errorf("tuner: %s: fingerprint %s, now %s", ck.Source(), ck.Fingerprint, r.fingerprint)
		}
		r.pool.restore(ck.Cache)
	}
	if ck := s.Resume; ck != nil && len(ck.Islands) > 0 {
		r.offset = ck.Generation
		islands := make([][]*member, len(ck.Islands))
		for i, isl := range ck.Islands {
			xs := make([][]float64, len(isl))
			for j, m := range isl {
				xs[j] = m.X
			}
			ms, err := r.pool.evaluate(r.ctx, xs) // all cached
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
		ms, err := r.initial(i)
		if err != nil {
			return nil, err
		}
		islands[i] = ms
	}
	return islands, nil
}

// initial makes and evaluates island i's first population.
func (r *run) initial(i int) ([]*member, error) {
	s := r.settings
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
	ms, err := r.pool.evaluate(r.ctx, xs)
	if err != nil {
		return nil, err
	}
	sortByKey(ms)
	rankAndCrowd(ms)
	return ms, nil
}

// fix sets the variables island fixes (NSGA2.Fixed) in x and reports
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
	fixed, err := r.pool.evaluate(r.ctx, xs)
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
	gen := r.generation()
	ck := r.checkpoint(gen)
	ck.Islands = make([][]Member, len(islands))
	for i, isl := range islands {
		ck.Islands[i] = r.export(isl)
	}
	front := r.export(firstFront(islands))
	r.last, r.lastIslands, r.lastFront = ck, islands, front
	return r.tell(ck, front)
}

// checkpoint is a checkpoint of generation gen without islands, with
// every evaluation so far.
func (r *run) checkpoint(gen int) *Checkpoint {
	ck := &Checkpoint{
		Version:     CheckpointVersion,
		Fingerprint: r.fingerprint,
		Fields:      r.fields,
		Seed:        r.settings.Seed,
		Generation:  gen,
		Evaluations: r.pool.evaluations(),
		Vars:        len(r.vars),
		Objectives:  len(r.pool.sense),
	}
	ck.CacheEntries = ck.Evaluations
	return ck
}

// tell gives the recorders the status of checkpoint ck.
func (r *run) tell(ck *Checkpoint, front []Member) error {
	st := &Status{
		Generation:  ck.Generation,
		Generations: r.settings.Generations,
		Evaluations: ck.Evaluations,
		Budget:      r.settings.Evaluations,
		Front:       front,
		Fresh:       r.pool.takeFresh(),
		Checkpoint:  ck,
		Hypervolume: math.NaN(),
	}
	for _, rec := range r.settings.Recorders {
		if err := rec.Record(st); err != nil {
			return fmt.Errorf("tuner: recorder: %w", err)
		}
	}
	return nil
}

// interrupted ends a search whose context was cancelled within a
// generation: the recorders see the last whole generation again (none:
// an empty checkpoint) with the evaluations finished since, and the result
// is that generation's.
func (r *run) interrupted() (*Result, error) {
	gen := r.offset
	var ck *Checkpoint
	if r.last != nil {
		gen = r.last.Generation
		ck = r.checkpoint(gen)
		ck.Islands = r.last.Islands
	} else {
		ck = r.checkpoint(gen) // the initial population was not complete
	}
	if err := r.tell(ck, r.lastFront); err != nil {
		return nil, err
	}
	if r.lastIslands == nil {
		return &Result{Archive: r.export(r.archive()), Generations: gen, Evaluations: r.pool.evaluations(), Interrupted: true}, nil
	}
	res := r.result(r.lastIslands, true)
	res.Generations = gen
	return res, nil
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
	gen := r.generation()
	return &Result{
		Members:     r.export(all),
		Archive:     r.export(r.archive()),
		Generations: gen,
		Evaluations: r.pool.evaluations(),
		Interrupted: interrupted,
	}
}

// fingerprint identifies the problem and the settings a checkpoint can be
// resumed with, field by field (the generation limit, budget, workers and
// recorders may change), with the caller's fields (Settings.Fingerprint).
func fingerprintOf(p Problem, s config) fingerprint.Fingerprint {
	f := fingerprint.Fingerprint{
		"vars":            fingerprint.Value(p.Vars()),
		"objectives":      fingerprint.Value(p.Objectives()),
		"population":      fingerprint.Value(s.Population),
		"islands":         fingerprint.Value(s.Islands),
		"migration_every": fingerprint.Value(s.MigrationEvery),
		"migrants":        fingerprint.Value(s.Migrants),
		"seed":            fingerprint.Value(s.Seed),
		"variation":       fingerprint.Value(s.Variation),
		"initial":         fingerprint.Value(s.Initial),
		"fixed":           fingerprint.Value(s.Fixed),
	}
	for k, v := range s.Fingerprint {
		f[k] = v
	}
	return f
}

// archive returns the candidates no other evaluated candidate
// constrained-dominates: the best front of the whole search, not only of
// the final populations.
func (r *run) archive() []*member { return archiveOf(r.pool.all()) }

// archiveOf returns the members of entries (in key order) that no other
// constrained-dominates, in key order.
func archiveOf(entries []*member) []*member {
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
