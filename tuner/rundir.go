package tuner

import (
	"path/filepath"

	rundir "github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/tuner/search"
)

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
