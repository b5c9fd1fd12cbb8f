package tuner

import (
	"errors"
	"io/fs"
	"path/filepath"

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
