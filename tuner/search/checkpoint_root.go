package search

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/ecotune/ecotune/internal/atomicfile"
)

// ckFiles is where a checkpoint's two files are read and written: a
// directory by path (no symbolic link followed at the file), or an
// os.Root (nothing reached outside it, whatever links are planted).
type ckFiles struct {
	dir  string
	root *os.Root
}

func (d ckFiles) path(name string) string {
	if d.root != nil {
		return filepath.Join(d.root.Name(), name)
	}
	return filepath.Join(d.dir, name)
}

func (d ckFiles) open(name string, flag int, perm fs.FileMode) (*os.File, error) {
	if d.root != nil {
		f, err := d.root.OpenFile(name, flag|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, perm)
		if err != nil {
			return nil, pathErr(err, name, d.path(name))
		}
		return f, nil
	}
	return atomicfile.OpenNoFollow(d.path(name), flag, perm)
}

func (d ckFiles) remove(name string) error {
	if d.root != nil {
		return pathErr(d.root.Remove(name), name, d.path(name))
	}
	return os.Remove(d.path(name))
}

func (d ckFiles) writeFile(name string, b []byte) error {
	var err error
	if d.root != nil {
		err = atomicfile.WriteFileIn(d.root, name, b, atomicfile.Options{})
	} else {
		err = atomicfile.WriteFile(d.path(name), b, atomicfile.Options{})
	}
	if err != nil {
		return fmt.Errorf("tuner: writing %s: %w", d.path(name), err)
	}
	return nil
}

func (d ckFiles) readAll(name string) ([]byte, error) {
	f, err := d.open(name, os.O_RDONLY, 0)
	if err != nil {
		return nil, fmt.Errorf("tuner: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("tuner: %s: %w", d.path(name), err)
	}
	return b, nil
}

// pathErr names the whole path in an os.Root's *fs.PathError.
func pathErr(err error, name, path string) error {
	if pe, ok := err.(*fs.PathError); ok && pe.Path == name {
		return &fs.PathError{Op: pe.Op, Path: path, Err: pe.Err}
	}
	return err
}

// ReadCheckpointIn is ReadCheckpoint of the run directory open as root:
// nothing is read outside it, nor through a symbolic link at either file.
func ReadCheckpointIn(root *os.Root) (*Checkpoint, error) {
	return readCheckpoint(ckFiles{root: root})
}
