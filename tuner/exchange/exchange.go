package exchange

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/ecotune/ecotune/internal/atomicfile"
	"github.com/ecotune/ecotune/tuner/search"
)

// IslandsDir is the directory of a distributed run directory that holds
// each island's checkpoint and status (island-I/) and the migrants of
// each epoch (epoch-K/island-I.json, K = generation / migration
// interval).
const IslandsDir = "islands"

// IslandDir is the directory of island i's checkpoint and status in the
// distributed run directory dir.
func IslandDir(dir string, i int) string {
	return filepath.Join(dir, IslandsDir, fmt.Sprintf("island-%d", i))
}

// Skip records a neighbour's migrants that never arrived.
type Skip struct {
	Generation int `json:"generation"` // the migration's
	Island     int `json:"island"`     // the neighbour skipped
}

// FileExchange is an Exchange through files in a run directory on a
// file system every island sees: at the migration of generation gen,
// island I writes its population atomically (temporary file, sync,
// rename) to Dir/islands/epoch-K/island-I.json (K = gen /
// MigrationEvery) and waits, polling, for the files of the islands it
// wants. One whose heartbeat (Beat) is older than Timeout when Timeout
// has passed is skipped, and later epochs do not wait for it again
// unless its heartbeat is fresh (they take its file if it is there).
type FileExchange struct {
	Dir            string
	Fingerprint    string // the plan's: files of another plan are refused
	MigrationEvery int
	Timeout        time.Duration
	Poll           time.Duration // default 20 ms

	mu      sync.Mutex
	gone    map[int]bool
	skipped []Skip
}

// migrants is the file of one island's population at one epoch.
type migrants struct {
	Fingerprint string          `json:"fingerprint"`
	Generation  int             `json:"generation"`
	Island      int             `json:"island"`
	Members     []search.Member `json:"members"`
}

// EpochPath is the file of island's migrants at the migration of
// generation gen.
func (x *FileExchange) EpochPath(gen, island int) string {
	return filepath.Join(x.Dir, IslandsDir, fmt.Sprintf("epoch-%d", gen/max(1, x.MigrationEvery)), fmt.Sprintf("island-%d.json", island))
}

// Migrate implements Exchange.
func (x *FileExchange) Migrate(ctx context.Context, gen, island int, pop []search.Member, want []int) (map[int][]search.Member, error) {
	if err := x.writeMigrants(gen, island, pop); err != nil {
		return nil, err
	}
	poll := x.Poll
	if poll <= 0 {
		poll = 20 * time.Millisecond
	}
	deadline := time.Now().Add(x.Timeout)
	got := map[int][]search.Member{}
	for {
		waiting, err := x.collect(gen, want, got)
		if err != nil {
			return nil, err
		}
		if !waiting {
			break
		}
		if time.Now().After(deadline) && !x.markGone(want, got) {
			break
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(poll):
		}
	}
	x.recordSkips(gen, want, got)
	return got, nil
}

// writeMigrants writes pop, island's population at generation gen, to
// its epoch's file.
func (x *FileExchange) writeMigrants(gen, island int, pop []search.Member) error {
	b, err := json.Marshal(migrants{Fingerprint: x.Fingerprint, Generation: gen, Island: island, Members: pop})
	if err != nil {
		return fmt.Errorf("tuner: migrants: %w", err)
	}
	return x.writeEpochFile(gen, island, append(b, '\n'))
}

// collect reads into got the migrants of generation gen of the islands
// in want it has not got yet, and reports whether it must wait on for
// some of them: those not marked gone, or marked gone but beating again.
func (x *FileExchange) collect(gen int, want []int, got map[int][]search.Member) (waiting bool, err error) {
	for _, j := range want {
		if _, ok := got[j]; ok {
			continue
		}
		ms, ok, err := x.read(gen, j)
		if err != nil {
			return false, err
		}
		if ok {
			got[j] = ms
			continue
		}
		x.mu.Lock()
		gone := x.gone[j]
		x.mu.Unlock()
		if !gone || x.alive(j) {
			waiting = true
		}
	}
	return waiting, nil
}

// markGone marks gone the islands in want missing from got whose
// heartbeat has stopped, once the timeout has passed, and reports
// whether any missing island still beats (it runs, only slower: wait on).
func (x *FileExchange) markGone(want []int, got map[int][]search.Member) (alive bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.gone == nil {
		x.gone = map[int]bool{}
	}
	for _, j := range want {
		if _, ok := got[j]; ok {
			continue
		}
		if x.alive(j) {
			alive = true
			continue
		}
		x.gone[j] = true
	}
	return alive
}

// recordSkips records as skipped the islands in want missing from got at
// generation gen.
func (x *FileExchange) recordSkips(gen int, want []int, got map[int][]search.Member) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, j := range want {
		if _, ok := got[j]; !ok {
			x.skipped = append(x.skipped, Skip{Generation: gen, Island: j})
		}
	}
}

// heartbeat is the file an island touches while it runs.
const heartbeat = "heartbeat"

// alive reports whether island j's heartbeat is younger than the timeout.
func (x *FileExchange) alive(j int) bool {
	r, err := x.islandRoot(j)
	if err != nil {
		return false
	}
	defer r.Close()
	fi, err := r.Stat(heartbeat)
	return err == nil && time.Since(fi.ModTime()) < x.Timeout
}

// islandRoot opens island i's directory beneath x.Dir as a root, refusing
// a symbolic link at islands/ or at the island's directory.
func (x *FileExchange) islandRoot(i int) (*os.Root, error) {
	r, err := os.OpenRoot(x.Dir)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	name := IslandsDir + "/" + filepath.Base(IslandDir(x.Dir, i))
	for _, p := range []string{IslandsDir, name} {
		if err := dirNoLink(r, p, filepath.Join(x.Dir, p), false); err != nil {
			return nil, err
		}
	}
	return r.OpenRoot(name)
}

// Beat touches island's heartbeat now and then until ctx is done: while
// it beats, its neighbours wait for it however slow it is; one whose
// heartbeat is older than the timeout (it never started, or died) is
// skipped.
func (x *FileExchange) Beat(ctx context.Context, island int) error {
	touch := func() error {
		r, err := x.islandRoot(island)
		if err != nil {
			return err
		}
		defer r.Close()
		now := time.Now()
		if err := r.Chtimes(heartbeat, now, now); errors.Is(err, fs.ErrNotExist) {
			return r.WriteFile(heartbeat, nil, 0o666)
		} else if err != nil {
			return err
		}
		return nil
	}
	if err := touch(); err != nil {
		return fmt.Errorf("tuner: heartbeat: %w", err)
	}
	every := min(max(x.Timeout/5, 100*time.Millisecond), 10*time.Second)
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				touch()
			}
		}
	}()
	return nil
}

// read reads island j's migrants of generation gen, if they are there.
func (x *FileExchange) read(gen, j int) ([]search.Member, bool, error) {
	path := x.EpochPath(gen, j)
	b, err := x.readMigrants(gen, j)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("tuner: %w", err)
	}
	var m migrants
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, false, fmt.Errorf("tuner: %s: %w", path, err)
	}
	if m.Fingerprint != x.Fingerprint || m.Generation != gen || m.Island != j {
		return nil, false, fmt.Errorf("tuner: %s: fingerprint %s, generation %d, island %d: want %s, %d, %d (a file of another run?)", path, m.Fingerprint, m.Generation, m.Island, x.Fingerprint, gen, j)
	}
	return m.Members, true, nil
}

// TakeSkipped returns the skips since the last call (for the island's
// status).
func (x *FileExchange) TakeSkipped() []Skip {
	x.mu.Lock()
	defer x.mu.Unlock()
	s := x.skipped
	x.skipped = nil
	return s
}

// epochDir is the directory of the migrants of generation gen's
// migration, relative to the run directory.
func (x *FileExchange) epochDir(gen int) string {
	return IslandsDir + "/" + fmt.Sprintf("epoch-%d", gen/max(1, x.MigrationEvery))
}

// epochRoot opens the epoch directory of generation gen beneath x.Dir
// (creating it when create) as an os.Root, which no name or link leads
// out of; a symbolic link at islands/ or at the epoch's directory is
// refused outright, naming it.
func (x *FileExchange) epochRoot(gen int, create bool) (*os.Root, error) {
	r, err := os.OpenRoot(x.Dir)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	name := x.epochDir(gen)
	for _, p := range []string{IslandsDir, name} {
		if err := dirNoLink(r, p, filepath.Join(x.Dir, p), create); err != nil {
			return nil, err
		}
	}
	return r.OpenRoot(name)
}

// dirNoLink checks that name (path, for messages) in r is a directory and
// no symbolic link, making it first when create and it is missing.
func dirNoLink(r *os.Root, name, path string, create bool) error {
	fi, err := r.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) && create {
		if err := r.Mkdir(name, 0o777); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
		fi, err = r.Lstat(name)
	}
	switch {
	case err != nil:
		return err
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("run: %s is a symbolic link, not a directory: refusing to use it", path)
	case !fi.IsDir():
		return fmt.Errorf("run: %s is not a directory", path)
	}
	return nil
}

// writeEpochFile writes island's migrants file of generation gen
// atomically inside the epoch's directory opened as a root.
func (x *FileExchange) writeEpochFile(gen, island int, b []byte) error {
	ep, err := x.epochRoot(gen, true)
	if err != nil {
		return fmt.Errorf("tuner: %w", err)
	}
	defer ep.Close()
	if err := atomicfile.WriteFileIn(ep, filepath.Base(x.EpochPath(gen, island)), b, atomicfile.Options{}); err != nil {
		return fmt.Errorf("tuner: writing %s: %w", x.EpochPath(gen, island), err)
	}
	return nil
}

// readMigrants reads island's migrants file of generation gen inside the
// epoch's directory opened as a root; a file (or epoch) not there yet is
// an error that is fs.ErrNotExist.
func (x *FileExchange) readMigrants(gen, island int) ([]byte, error) {
	ep, err := x.epochRoot(gen, false)
	if err != nil {
		return nil, err
	}
	defer ep.Close()
	return ep.ReadFile(filepath.Base(x.EpochPath(gen, island)))
}
