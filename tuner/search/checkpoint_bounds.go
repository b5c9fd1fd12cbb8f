package search

import (
	"fmt"
)

// maxCheckpointWidth bounds a checkpoint's values and objectives per
// record, so that a record's size cannot overflow (MaxCandidates bounds
// the populations the same way).
const maxCheckpointWidth = 1 << 16

// checkCounts checks the counts a checkpoint read from path declares,
// before anything is allocated for them: each non-negative and within
// its bound, its cache entries within its evaluations and within the
// cacheBytes the cache file holds.
func (ck *Checkpoint) checkCounts(path, cpath string, cacheBytes int64) error {
	switch {
	case ck.Vars < 1 || ck.Vars > maxCheckpointWidth:
		return fmt.Errorf("tuner: %s: vars %d: not within 1..%d", path, ck.Vars, maxCheckpointWidth)
	case ck.Objectives < 1 || ck.Objectives > maxCheckpointWidth:
		return fmt.Errorf("tuner: %s: objectives %d: not within 1..%d", path, ck.Objectives, maxCheckpointWidth)
	case ck.Generation < 0:
		return fmt.Errorf("tuner: %s: generation %d: negative", path, ck.Generation)
	case ck.Evaluations < 0:
		return fmt.Errorf("tuner: %s: evaluations %d: negative", path, ck.Evaluations)
	case ck.CacheEntries < 0 || ck.CacheEntries > ck.Evaluations:
		return fmt.Errorf("tuner: %s: cache_entries %d: not within 0..%d (its evaluations)", path, ck.CacheEntries, ck.Evaluations)
	}
	if n := int64(ck.CacheEntries); n > cacheBytes/recordSize(ck) {
		return fmt.Errorf("tuner: %s: shorter than the %d records (cache_entries) %s names: %d bytes, %d records of %d bytes at most", cpath, ck.CacheEntries, path, cacheBytes, cacheBytes/recordSize(ck), recordSize(ck))
	}
	return nil
}

// checkRun checks a checkpoint against the search resuming it: its
// generation within [0, s.Generations], its records as wide as the
// problem's, and its populations (islands of s.Population members, as
// many as islands: s.Islands, or 1 for an island run apart) matching
// the settings. A checkpoint of another search is refused before any of
// it is used.
func (ck *Checkpoint) checkRun(s config, vars, objectives, islands int) error {
	src := ck.Source()
	switch {
	case ck.Generation < 0 || ck.Generation > s.Generations:
		return fmt.Errorf("tuner: %s: generation %d: not within 0..%d, the run's generations", src, ck.Generation, s.Generations)
	case ck.Vars != vars || ck.Objectives != objectives:
		return fmt.Errorf("tuner: %s: %d values and %d objectives per record; the problem has %d and %d", src, ck.Vars, ck.Objectives, vars, objectives)
	case ck.CacheEntries > ck.Evaluations:
		return fmt.Errorf("tuner: %s: cache_entries %d exceed its evaluations %d", src, ck.CacheEntries, ck.Evaluations)
	case len(ck.Islands) != 0 && len(ck.Islands) != islands:
		return fmt.Errorf("tuner: %s: %d islands; the run has %d", src, len(ck.Islands), islands)
	}
	for i, isl := range ck.Islands {
		if len(isl) != s.Population {
			return fmt.Errorf("tuner: %s: island %d has %d members; the run's population is %d", src, i, len(isl), s.Population)
		}
	}
	return nil
}

// CheckIsland checks the checkpoint of an island run apart (MinimizeIsland)
// against its plan before a merge uses it: its generation within
// [0, generations], at most one island, of population members.
func (ck *Checkpoint) CheckIsland(generations, population int) error {
	src := ck.Source()
	switch {
	case ck.Generation < 0 || ck.Generation > generations:
		return fmt.Errorf("tuner: %s: generation %d: not within 0..%d, the run's generations", src, ck.Generation, generations)
	case len(ck.Islands) > 1:
		return fmt.Errorf("tuner: %s: %d islands; an island's checkpoint has one", src, len(ck.Islands))
	}
	for i, isl := range ck.Islands {
		if len(isl) != population {
			return fmt.Errorf("tuner: %s: island %d has %d members; the run's population is %d", src, i, len(isl), population)
		}
	}
	return nil
}
