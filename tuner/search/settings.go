package search

import (
	"context"
	"fmt"
	"runtime"

	"github.com/ecotune/ecotune/internal/fingerprint"
)

// Settings say how long a search runs, how it is randomised and who
// watches it, whatever its method. Zero fields take the documented
// defaults.
type Settings struct {
	// Generations after the initial population; default
	// DefaultGenerations.
	Generations int
	// Evaluations stops the search after the first generation at which
	// this many distinct candidates have been evaluated; 0 = no limit. A
	// candidate whose canonical form (its policy with the genes that
	// cannot change a decision at fixed values) was evaluated before
	// counts too, though it is not replayed: the budget, and so the
	// front, do not depend on the memo.
	Evaluations int
	Seed        int64 // every random choice derives from it
	// Workers evaluate candidates in parallel; default GOMAXPROCS. The
	// result does not depend on it.
	Workers int
	// Pool, when it has Workers workers, is the worker pool the search
	// evaluates on (Tune shares its Scorer's); nil: a pool of its own.
	Pool *Workers
	// Initial candidates (one value per variable) start in every island's
	// first population, e.g. a policy's defaults.
	Initial [][]float64
	// Recorders observe every generation, the initial population included:
	// a progress display and a CheckpointWriter are both recorders.
	Recorders []Recorder
	// Resume continues the search saved in a checkpoint.
	Resume *Checkpoint
	// Fingerprint names what else identifies the problem (Tune: the
	// trace's digest, the split, cluster, scheduler, constraints,
	// presets): with Minimize's own fields (variables and bounds,
	// objectives, seed, the method's parameters) it makes the checkpoint's
	// fingerprint, and a resume whose fields differ is refused, naming
	// them.
	Fingerprint fingerprint.Fingerprint
}

// WithDefaults is s with its zero Generations and Workers replaced by
// their defaults.
func (s Settings) WithDefaults() Settings {
	c := config{Generations: s.Generations, Workers: s.Workers}.withDefaults()
	s.Generations, s.Workers = c.Generations, c.Workers
	return s
}

// DefaultGenerations is the generations a search runs when
// Settings.Generations is 0 (the command line's --generations default).
const DefaultGenerations = 150

// A Method is how a search makes each generation from the last. NSGA2 is
// the one method so far; a second one implements the same unexported
// methods in this package.
type Method interface {
	// config is the search's whole configuration under s.
	config(s Settings) config
}

// NSGA2 is the NSGA-II method (Deb et al. 2002) on islands: Islands
// populations of Population candidates evolve side by side and swap
// Migrants candidates along a ring every MigrationEvery generations. Zero
// fields take DefaultNSGA2's values (Migrants: Population/10, at least 1).
type NSGA2 struct {
	Population     int // candidates per island
	Islands        int // populations evolved side by side
	MigrationEvery int // generations between ring migrations
	Migrants       int // candidates exchanged per migration
	// Fixed[i], for the islands i < len(Fixed), holds variables (index →
	// value) that every candidate of island i keeps: that island searches
	// a subspace of its own, such as a learned policy's reactive core
	// (PolicyProblem.ReactiveFixed). Its initial candidates, its offspring
	// and the migrants it receives take those values; the other islands
	// search everything. Nil or empty: no variable fixed.
	Fixed     []map[int]float64
	Variation Variation
}

// DefaultNSGA2 is the method's defaults, the command line's and the
// workbench's: population 32, 2 islands, migration every 5 generations.
func DefaultNSGA2() NSGA2 { return NSGA2{Population: 32, Islands: 2, MigrationEvery: 5} }

func (m NSGA2) config(s Settings) config {
	return config{
		Population: m.Population, Generations: s.Generations, Islands: m.Islands,
		MigrationEvery: m.MigrationEvery, Migrants: m.Migrants, Seed: s.Seed,
		Workers: s.Workers, Evaluations: s.Evaluations, Variation: m.Variation,
		Initial: s.Initial, Fixed: m.Fixed, Recorders: s.Recorders, Resume: s.Resume,
		Fingerprint: s.Fingerprint, workers: s.Pool,
	}
}

// WithDefaults is m with its zero fields replaced by their defaults.
func (m NSGA2) WithDefaults() NSGA2 {
	c := m.config(Settings{Workers: 1, Generations: 1}).withDefaults()
	m.Population, m.Islands, m.MigrationEvery, m.Migrants = c.Population, c.Islands, c.MigrationEvery, c.Migrants
	return m
}

// Minimize searches p with method m (nil: DefaultNSGA2()) under s.
// Maximised objectives are handled by negation internally; results carry
// them in their own sense.
//
// When ctx is cancelled the search stops within the current generation:
// evaluations begun finish, no more begin, and the recorders see the last
// whole generation again with the evaluations finished since as Fresh (a
// checkpoint then keeps them, and a resume redoes only the rest).
// Minimize returns the result of the last whole generation with
// Interrupted set (no Members when the initial population was not
// complete).
func Minimize(ctx context.Context, p Problem, s Settings, m Method) (*Result, error) {
	if m == nil {
		m = DefaultNSGA2()
	}
	return minimize(ctx, p, m.config(s))
}

// MinimizeIsland runs island number island of the search Minimize(ctx, p,
// s, m) would run with m.Islands islands, on its own: the same initial
// population, the same generations and the same ring migration (eaopt's
// MigRing, which is a chain: island i's immigrants may come from any
// island before it, so island i reads the populations of islands 0..i+1)
// through ex. When every island takes its part, the union of their
// evaluations is the one search's, and MergeResults gives its result.
// A population that never arrives is skipped: the chain closes over the
// islands present. s.Evaluations (a budget over all islands) cannot be
// kept apart and is refused; s.Resume continues the island's own
// checkpoint. Cancelling ctx stops as Minimize does.
func MinimizeIsland(ctx context.Context, p Problem, s Settings, m NSGA2, island int, ex Exchange) (*Result, error) {
	return minimizeIsland(ctx, p, m.config(s), island, ex)
}

// IslandFingerprint is the fingerprint of island's checkpoint in the
// search MinimizeIsland(ctx, p, s, m, island, ex) runs.
func IslandFingerprint(p Problem, s Settings, m NSGA2, island int) fingerprint.Fingerprint {
	return islandFields(p, searchSettings(p, m.config(s)), island)
}

// CheckLimits checks the size of the search s and m describe (zero fields
// taking their defaults) against MaxCandidates and MaxWorkers, without
// allocating: a command line checks its flags with it before reading the
// trace. The error names the setting as its flag does.
func CheckLimits(s Settings, m NSGA2) error { return m.config(s).checkLimits() }

// config is the whole configuration of one search: its Settings and its
// method's parameters (the fields the search had before they were
// separated). Zero fields take the documented defaults.
type config struct {
	Population     int   // candidates per island
	Generations    int   // generations after the initial population
	Islands        int   // populations evolved side by side
	MigrationEvery int   // generations between ring migrations
	Migrants       int   // candidates exchanged per migration; default Population/10
	Seed           int64 // every random choice derives from it
	// Workers evaluate candidates in parallel; default GOMAXPROCS. The
	// result does not depend on it.
	Workers int
	// Evaluations stops the search after the first generation at which
	// this many distinct candidates have been evaluated; 0 = no limit. A
	// candidate whose canonical form (its policy with the genes that
	// cannot change a decision at fixed values) was evaluated before
	// counts too, though it is not replayed: the budget, and so the
	// front, do not depend on the memo.
	Evaluations int
	Variation   Variation
	// Initial candidates (one value per variable) start in every island's
	// first population, e.g. a policy's defaults.
	Initial [][]float64
	// Fixed[i], for the islands i < len(Fixed), holds variables (index →
	// value) that every candidate of island i keeps: that island searches
	// a subspace of its own, such as a learned policy's reactive core
	// (PolicyProblem.ReactiveFixed). Its initial candidates, its offspring
	// and the migrants it receives take those values; the other islands
	// search everything. Nil or empty: no variable fixed.
	Fixed []map[int]float64
	// Recorders observe every generation, the initial population included.
	Recorders []Recorder
	// Resume continues the search saved in a checkpoint.
	Resume *Checkpoint
	// Fingerprint names what else identifies the problem (Tune: the
	// trace's digest, the split, cluster, scheduler, constraints,
	// presets): with Minimize's own fields (variables and bounds,
	// objectives, seed, the settings above but the budget, workers and
	// recorders) it makes the checkpoint's fingerprint, and a resume whose
	// fields differ is refused, naming them.
	Fingerprint fingerprint.Fingerprint

	workers *Workers // Settings.Pool
}

func (s config) withDefaults() config {
	d := DefaultNSGA2()
	if s.Population == 0 {
		s.Population = d.Population
	}
	if s.Generations == 0 {
		s.Generations = DefaultGenerations
	}
	if s.Islands == 0 {
		s.Islands = d.Islands
	}
	if s.MigrationEvery == 0 {
		s.MigrationEvery = d.MigrationEvery
	}
	if s.Migrants == 0 {
		s.Migrants = max(1, s.Population/10)
	}
	if s.Workers == 0 {
		s.Workers = runtime.GOMAXPROCS(0)
	}
	return s
}

// Limits on the size of a search, far beyond real use (docs/experiments.md,
// "Search limits", says how far): larger settings are refused before
// anything is allocated for them.
const (
	// MaxCandidates bounds Population × Islands, the candidates of one
	// generation.
	MaxCandidates = 1 << 16
	// MaxWorkers bounds Workers, the parallel evaluations.
	MaxWorkers = 1 << 12
)

// checkLimits is CheckLimits.
func (s config) checkLimits() error {
	s = s.withDefaults()
	switch {
	case s.Population > MaxCandidates:
		return fmt.Errorf("tuner: population %d: more than the limit, %d candidates a generation", s.Population, MaxCandidates)
	case s.Islands > MaxCandidates:
		return fmt.Errorf("tuner: islands %d: more than the limit, %d candidates a generation", s.Islands, MaxCandidates)
	case s.Population > 0 && s.Islands > 0 && s.Population*s.Islands > MaxCandidates: // both ≤ 2^16: no overflow
		return fmt.Errorf("tuner: population %d × islands %d = %d candidates a generation: more than the limit, %d", s.Population, s.Islands, s.Population*s.Islands, MaxCandidates)
	case s.Workers > MaxWorkers:
		return fmt.Errorf("tuner: workers %d: more than the limit, %d", s.Workers, MaxWorkers)
	}
	return nil
}

// validate checks s, with its defaults filled in, for a problem of nvars
// variables: its limits, its counts, then its fixed and initial
// candidates' variables.
func (s config) validate(nvars int) error {
	if err := s.checkLimits(); err != nil {
		return err
	}
	switch {
	case s.Population < 4:
		return fmt.Errorf("tuner: population %d: need at least 4", s.Population)
	case s.Generations < 0 || s.Islands < 1 || s.MigrationEvery < 1 || s.Workers < 1 || s.Evaluations < 0:
		return fmt.Errorf("tuner: generations %d, islands %d, migration every %d, workers %d, evaluations %d: need generations, evaluations ≥ 0 and the others ≥ 1",
			s.Generations, s.Islands, s.MigrationEvery, s.Workers, s.Evaluations)
	case s.Migrants < 1 || s.Migrants > s.Population:
		return fmt.Errorf("tuner: migrants %d: need 1..population (%d)", s.Migrants, s.Population)
	}
	return s.checkCandidates(nvars)
}

// checkCandidates checks that s fixes variables of at most its islands,
// among a problem's nvars variables, and that its initial candidates have
// nvars values each.
func (s config) checkCandidates(nvars int) error {
	if len(s.Fixed) > s.Islands {
		return fmt.Errorf("tuner: fixed variables for %d islands, but %d islands", len(s.Fixed), s.Islands)
	}
	for i, fix := range s.Fixed {
		for k := range fix {
			if k < 0 || k >= nvars {
				return fmt.Errorf("tuner: island %d fixes variable %d of %d", i, k, nvars)
			}
		}
	}
	for i, x := range s.Initial {
		if len(x) != nvars {
			return fmt.Errorf("tuner: initial candidate %d has %d values, the problem %d variables", i, len(x), nvars)
		}
	}
	return nil
}

// Recorder observes a search after every generation. An error stops the
// search after that generation; Minimize returns it.
type Recorder interface {
	Record(s *Status) error
}

// RecorderFunc adapts a function to Recorder.
type RecorderFunc func(s *Status) error

// Record calls f.
func (f RecorderFunc) Record(s *Status) error { return f(s) }

// Status is the state of a search after one generation.
type Status struct {
	Generation  int // generations done; 0 is the initial population
	Generations int // generations the search runs at most
	Evaluations int // distinct candidates evaluated so far
	Budget      int // Settings.Evaluations
	// Front is the first front (constrained non-domination) over all
	// islands, distinct candidates, in key order.
	Front []Member
	// Fresh are the candidates first evaluated in this generation, in key
	// order (a checkpoint appends them to its cache).
	Fresh []Member
	// Checkpoint is what resuming needs, except the cache (see Fresh).
	Checkpoint *Checkpoint
	// Hypervolume is what Tune gives its Monitor: the hypervolume, in the
	// train split's fixed box (in [0, 1]), of the best-so-far archive of
	// every Front seen (Progress), so it never falls; NaN from Minimize.
	Hypervolume float64
}

// Member is one evaluated candidate.
type Member struct {
	X         []float64 `json:"x"`         // one value per variable
	F         []float64 `json:"f"`         // one value per objective, in its own sense
	Violation float64   `json:"violation"` // total constraint violation, 0 = feasible
	Rank      int       `json:"rank"`      // non-domination rank, 0 = first front
}

// Result is the outcome of a search.
type Result struct {
	// Members are the distinct candidates of the final populations, by
	// rank, then by objectives.
	Members []Member
	// Archive is every evaluated candidate that no other evaluated
	// candidate constrained-dominates, in key order: the best front of the
	// whole search. It is usually larger and better than the first front of
	// the final populations, which a population of N can only sample with N
	// points.
	Archive     []Member
	Generations int  // generations done
	Evaluations int  // distinct candidates evaluated
	Interrupted bool // the context was cancelled before the last generation
}

// Front returns the members of rank 0.
func (r *Result) Front() []Member {
	n := 0
	for n < len(r.Members) && r.Members[n].Rank == 0 {
		n++
	}
	return r.Members[:n]
}
