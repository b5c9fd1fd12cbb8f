package search_test

import (
	"context"

	"github.com/ecotune/ecotune/tuner/search"
)

// flat is a search's Settings and NSGA2 parameters in one value, as the
// tests below were written before they were separated.
type flat struct {
	Population, Generations, Islands, MigrationEvery, Migrants int
	Seed                                                       int64
	Workers, Evaluations                                       int
	Variation                                                  search.Variation
	Initial                                                    [][]float64
	Fixed                                                      []map[int]float64
	Recorders                                                  []search.Recorder
	Resume                                                     *search.Checkpoint
}

func (f flat) split() (search.Settings, search.NSGA2) {
	return search.Settings{Generations: f.Generations, Evaluations: f.Evaluations, Seed: f.Seed, Workers: f.Workers,
			Initial: f.Initial, Recorders: f.Recorders, Resume: f.Resume},
		search.NSGA2{Population: f.Population, Islands: f.Islands, MigrationEvery: f.MigrationEvery, Migrants: f.Migrants,
			Fixed: f.Fixed, Variation: f.Variation}
}

func minimize(ctx context.Context, p search.Problem, f flat) (*search.Result, error) {
	s, m := f.split()
	return search.Minimize(ctx, p, s, m)
}

func minimizeIsland(ctx context.Context, p search.Problem, f flat, island int, ex search.Exchange) (*search.Result, error) {
	s, m := f.split()
	return search.MinimizeIsland(ctx, p, s, m, island, ex)
}

func (f flat) CheckLimits() error {
	s, m := f.split()
	return search.CheckLimits(s, m)
}
