package search

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/ecotune/ecotune/internal/fingerprint"
)

// Exchange carries migrants between islands that run apart (separate
// processes, Slurm array tasks). Migration epochs are synchronous: at
// each migration generation every island publishes its population and
// reads the ones it needs, so the result depends on the seed alone.
type Exchange interface {
	// Migrate publishes island's population (key order, objectives in
	// their own sense) for the migration at generation gen and returns the
	// populations of the islands in want, by island. An island absent
	// from the result is skipped (it never arrived).
	Migrate(ctx context.Context, gen, island int, pop []Member, want []int) (map[int][]Member, error)
}

// minimizeIsland is MinimizeIsland with the search's whole configuration.
func minimizeIsland(ctx context.Context, p Problem, s config, island int, ex Exchange) (*Result, error) {
	vars := p.Vars()
	s, err := islandSettings(p, vars, s, island, ex)
	if err != nil {
		return nil, err
	}
	pl, err := newPool(p, s.Workers, s.workers)
	if err != nil {
		return nil, err
	}
	defer pl.close()
	r := &run{ctx: ctx, problem: p, vars: vars, settings: s, pool: pl, fields: islandFields(p, s, island)}
	r.fingerprint = r.fields.Sum()
	own, err := r.startIsland(island)
	if errors.Is(err, errInterrupted) {
		return r.interrupted()
	}
	if err != nil {
		return nil, err
	}
	if err := r.record([][]*member{own}); err != nil {
		return nil, err
	}
	for r.generation() < s.Generations {
		if ctx.Err() != nil {
			return r.interrupted()
		}
		var stop bool
		own, stop, err = r.islandGeneration(ctx, ex, island, r.generation()+1, own)
		if stop {
			return r.interrupted()
		}
		if err != nil {
			return nil, err
		}
	}
	return r.result([][]*member{own}, false), nil
}

// islandSettings are s with the defaults a search on p fills in, checked
// for an island (numbered island) that runs apart from the others and
// exchanges migrants through ex.
func islandSettings(p Problem, vars []Var, s config, island int, ex Exchange) (config, error) {
	if err := ValidateVars(vars); err != nil {
		return s, err
	}
	if len(p.Objectives()) == 0 {
		return s, fmt.Errorf("tuner: a problem needs at least one objective")
	}
	s = searchSettings(p, s)
	if err := s.validate(len(vars)); err != nil {
		return s, err
	}
	switch {
	case island < 0 || island >= s.Islands:
		return s, fmt.Errorf("tuner: island %d: the search has islands 0..%d", island, s.Islands-1)
	case s.Evaluations > 0:
		return s, fmt.Errorf("tuner: an evaluation budget (%d) counts all islands' evaluations and cannot be kept by islands that run apart: give generations instead", s.Evaluations)
	case s.Islands > 1 && ex == nil:
		return s, errors.New("tuner: islands that run apart need an Exchange")
	}
	return s, nil
}

// islandGeneration makes generation gen of island from own, its
// population before: migration through ex when gen is a migration
// generation, then a step, recorded. stop reports that the search was
// interrupted (ctx done); the caller then returns what is recorded.
func (r *run) islandGeneration(ctx context.Context, ex Exchange, island, gen int, own []*member) (next []*member, stop bool, err error) {
	s := r.settings
	if s.Islands > 1 && gen%s.MigrationEvery == 0 {
		if own, err = r.immigrate(ctx, ex, island, gen, own); err != nil {
			return nil, ctx.Err() != nil, err
		}
	}
	next, err = r.step(island, gen, own)
	if errors.Is(err, errInterrupted) {
		return nil, true, err
	}
	if err != nil {
		return nil, false, err
	}
	sortByKey(next)
	r.apart++
	if err := r.record([][]*member{next}); err != nil {
		return nil, false, err
	}
	return next, false, nil
}

// searchSettings are s with the defaults a search on p fills in.
func searchSettings(p Problem, s config) config {
	s = s.withDefaults()
	s.Variation = s.Variation.withDefaults(p.Vars())
	return s
}

// islandFields is the fingerprint of island's checkpoint: the search's
// and the island's number.
func islandFields(p Problem, s config, island int) fingerprint.Fingerprint {
	f := fingerprintOf(p, s)
	f["island"] = fingerprint.Value(island)
	return f
}

// startIsland makes (or restores from s.Resume) the island's population.
func (r *run) startIsland(island int) ([]*member, error) {
	s := r.settings
	if ck := s.Resume; ck != nil {
		if err := fingerprint.Check(ck.Source(), ck.Fields, r.fields); err != nil {
			return nil, fmt.Errorf("tuner: %w", err)
		}
		if err := ck.checkRun(s, len(r.vars), len(r.pool.sense), 1); err != nil {
			return nil, err
		}
		if ck.Fingerprint != r.fingerprint {
			return nil, fmt.Errorf("tuner: %s: fingerprint %s, now %s", ck.Source(), ck.Fingerprint, r.fingerprint)
		}
		r.pool.restore(ck.Cache)
		if len(ck.Islands) == 1 {
			r.offset = ck.Generation
			xs := make([][]float64, len(ck.Islands[0]))
			for j, m := range ck.Islands[0] {
				xs[j] = m.X
			}
			ms, err := r.pool.evaluate(r.ctx, xs) // all cached
			if err != nil {
				return nil, err
			}
			rankAndCrowd(ms)
			return ms, nil
		}
	}
	return r.initial(island)
}

// immigrate publishes own (island's population before generation gen)
// and returns what the ring migration of generation gen leaves in island.
func (r *run) immigrate(ctx context.Context, ex Exchange, island, gen int, own []*member) ([]*member, error) {
	last := min(island+1, r.settings.Islands-1)
	var want []int
	for j := 0; j <= last; j++ {
		if j != island {
			want = append(want, j)
		}
	}
	got, err := ex.Migrate(ctx, gen, island, r.export(own), want)
	if err != nil {
		return nil, err
	}
	var pops [][]*member
	pos := 0
	for j := 0; j <= last; j++ {
		if j == island {
			pos = len(pops)
			pops = append(pops, slices.Clone(own))
			continue
		}
		ms, ok := got[j]
		if !ok {
			continue // skipped: the chain closes over the islands present
		}
		if err := r.checkMembers(ms); err != nil {
			return nil, fmt.Errorf("tuner: island %d's migrants of generation %d: %w", j, gen, err)
		}
		pop := make([]*member, len(ms))
		for k, m := range ms {
			pop[k] = r.importMember(m)
		}
		sortByKey(pop)
		pops = append(pops, pop)
	}
	migrateRing(pops, r.settings.Seed, gen, r.settings.Migrants)
	out := pops[pos]
	sortByKey(out)
	return out, nil
}

// checkMembers checks that ms is a population of this search.
func (r *run) checkMembers(ms []Member) error {
	if len(ms) != r.settings.Population {
		return fmt.Errorf("%d members, the population is %d", len(ms), r.settings.Population)
	}
	for i, m := range ms {
		if len(m.X) != len(r.vars) || len(m.F) != len(r.pool.sense) {
			return fmt.Errorf("member %d has %d values and %d objectives, want %d and %d", i, len(m.X), len(m.F), len(r.vars), len(r.pool.sense))
		}
		if err := checkEvaluation(m.F, m.Violation); err != nil {
			return fmt.Errorf("member %d: %w", i, err)
		}
	}
	return nil
}

// importMember is m as the search holds it (minimisation objectives).
func (r *run) importMember(m Member) *member {
	return &member{x: m.X, f: orient(slices.Clone(m.F), r.pool.sense), cv: m.Violation, key: genomeKey(m.X)}
}

// MergeResults is the result of a search whose islands ran apart, from
// each island's last checkpoint (nil: the island never ran): the archive
// of every candidate any island evaluated, their count and the most
// generations an island did. It is Minimize's result when every island
// took its whole part, except Members (left empty: the populations are
// the islands').
func MergeResults(p Problem, cks []*Checkpoint) (*Result, error) {
	objs := p.Objectives()
	pl := &pool{sense: make([]bool, len(objs)), cache: map[string]*entry{}}
	for k, o := range objs {
		pl.sense[k] = o.Maximize
	}
	res := &Result{}
	for i, ck := range cks {
		if ck == nil {
			continue
		}
		for j, m := range ck.Cache {
			if len(m.X) != len(p.Vars()) || len(m.F) != len(objs) {
				return nil, fmt.Errorf("tuner: island %d: cache record %d has %d values and %d objectives, want %d and %d", i, j, len(m.X), len(m.F), len(p.Vars()), len(objs))
			}
		}
		pl.restore(ck.Cache)
		res.Generations = max(res.Generations, ck.Generation)
	}
	r := &run{pool: pl}
	res.Archive = r.export(r.archive())
	res.Evaluations = pl.evaluations()
	return res, nil
}
