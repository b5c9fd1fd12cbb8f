package tuner

import (
	"errors"
	"io/fs"
	"path/filepath"

	"github.com/ecotune/ecotune/internal/atomicfile"
	rundir "github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/tuner/search"
)

// subDir is the path of the run directory name beneath parent (window-K,
// POLICY, seed-S, islands, islands/island-I) after checking, through
// parent opened as a run.Root, that no component of it is a symbolic
// link: a link planted there (to a directory outside the run) is refused
// with its path named, before anything is read or written beneath it. A
// name not there yet is returned as it is (the run creates it).
func subDir(parent, name string) (string, error) {
	r, err := rundir.OpenRoot(parent)
	if err != nil {
		return "", err
	}
	defer r.Close()
	sub, err := r.Sub(name)
	switch {
	case err == nil:
		sub.Close()
	case errors.Is(err, fs.ErrNotExist):
	default:
		return "", err
	}
	return filepath.Join(parent, name), nil
}

// islandRoot opens island i's directory beneath the distributed run dir
// (creating it when create), refusing a symbolic link at islands/ or at
// islands/island-I.
func islandRoot(dir string, i int, create bool) (*rundir.Root, error) {
	r, err := rundir.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	name := IslandsDir + "/" + filepath.Base(IslandDir(dir, i))
	if create {
		return r.MkSub(name)
	}
	return r.Sub(name)
}

// readIslandCheckpoint reads island i's checkpoint through its directory
// opened as a root (islandRoot); an island that never ran gives an error
// that is fs.ErrNotExist.
func readIslandCheckpoint(dir string, i int) (*search.Checkpoint, error) {
	r, err := islandRoot(dir, i, false)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return search.ReadCheckpointIn(r.OS())
}

// epochDir is the directory of the migrants of generation gen's
// migration, beneath the run directory.
func (x *FileExchange) epochDir(gen int) string {
	return IslandsDir + "/" + filepath.Base(filepath.Dir(x.EpochPath(gen, 0)))
}

// writeMigrants writes island's migrants file of generation gen
// atomically through the run directory opened as a root, creating the
// epoch's directory; a symbolic link at islands/ or at the epoch's
// directory is refused.
func (x *FileExchange) writeMigrants(gen, island int, b []byte) error {
	r, err := rundir.OpenRoot(x.Dir)
	if err != nil {
		return err
	}
	defer r.Close()
	ep, err := r.MkSub(x.epochDir(gen))
	if err != nil {
		return err
	}
	defer ep.Close()
	return ep.WriteFile(filepath.Base(x.EpochPath(gen, island)), b, atomicfile.Options{})
}

// readMigrants reads island's migrants file of generation gen through
// the run directory opened as a root, refusing a symbolic link; a file
// not there yet is an error that is fs.ErrNotExist.
func (x *FileExchange) readMigrants(gen, island int) ([]byte, error) {
	r, err := rundir.OpenRoot(x.Dir)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	ep, err := r.Sub(x.epochDir(gen))
	if err != nil {
		return nil, err
	}
	defer ep.Close()
	return ep.ReadFile(filepath.Base(x.EpochPath(gen, island)))
}
