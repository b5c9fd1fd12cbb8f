package tuner

import (
	"errors"
	"io/fs"
	"path/filepath"

	rundir "github.com/ecotune/ecotune/run"
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
