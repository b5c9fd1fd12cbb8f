package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// Perm is the mode new files ask for; the process umask then applies
// (0666 &^ umask), as for os.Create.
const Perm fs.FileMode = 0o666

// ErrExists is returned (wrapped) by Create and Commit with NoReplace when
// the destination exists.
var ErrExists = fs.ErrExist

// Options control a write.
type Options struct {
	// NoReplace refuses a destination that exists (a symbolic link
	// included): Create checks it first, Commit again before renaming.
	NoReplace bool
}

// File is a file being written: a temporary file in the destination's
// directory, created exclusively (O_EXCL, O_NOFOLLOW), that Commit syncs,
// closes and renames over the destination. Rename replaces a symbolic link
// at the destination instead of following it.
type File struct {
	*os.File
	target string
	opt    Options
	done   bool
}

// tempInfix separates a temporary file's destination name from its random
// suffix: "." + base + ".tmp" + suffix; IsTemp recognises them.
const tempInfix = ".tmp"

// Create starts writing path.
func Create(path string, opt Options) (*File, error) {
	if opt.NoReplace {
		if err := absent(path); err != nil {
			return nil, err
		}
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	for range 100 {
		name := filepath.Join(dir, "."+base+tempInfix+strconv.FormatUint(rand.Uint64(), 36))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, Perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return &File{File: f, target: path, opt: opt}, nil
	}
	return nil, fmt.Errorf("%s: no free temporary name", path)
}

// absent fails with ErrExists when path exists.
func absent(path string) error {
	if _, err := os.Lstat(path); err == nil {
		return &fs.PathError{Op: "create", Path: path, Err: ErrExists}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// Commit syncs and closes the temporary file and renames it over the
// destination. On error the temporary file is removed.
func (f *File) Commit() error {
	if f.done {
		return fmt.Errorf("%s: already committed or aborted", f.target)
	}
	f.done = true
	err := f.Sync()
	if cerr := f.File.Close(); err == nil {
		err = cerr
	}
	if err == nil && f.opt.NoReplace {
		err = absent(f.target)
	}
	if err == nil {
		err = os.Rename(f.Name(), f.target)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// Abort closes and removes the temporary file; after Commit it does
// nothing, so `defer f.Abort()` is safe.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.File.Close()
	os.Remove(f.Name())
}

// Write writes path with the output of write, atomically.
func Write(path string, opt Options, write func(w io.Writer) error) error {
	f, err := Create(path, opt)
	if err != nil {
		return err
	}
	defer f.Abort()
	if err := write(f); err != nil {
		return err
	}
	return f.Commit()
}

// WriteFile writes data to path atomically.
func WriteFile(path string, data []byte, opt Options) error {
	return Write(path, opt, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// IsTemp reports whether name (a base name) is a temporary file of this
// package for some destination.
func IsTemp(name string) bool {
	i := strings.LastIndex(name, tempInfix)
	return strings.HasPrefix(name, ".") && i > 1
}

// IsTempFor reports whether name (a base name) is a temporary file of
// this package for the destination base: "." + base + ".tmp" + a suffix
// of lower-case letters and digits.
func IsTempFor(name, base string) bool {
	rest, ok := strings.CutPrefix(name, "."+base+tempInfix)
	if !ok || rest == "" {
		return false
	}
	for _, c := range rest {
		if (c < '0' || c > '9') && (c < 'a' || c > 'z') {
			return false
		}
	}
	return true
}

// RemoveStale removes the temporary files a crash or a kill left in dir
// (names "." + destination + ".tmp" + suffix); it returns how many.
func RemoveStale(dir string) (int, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range entries {
		if e.Type().IsRegular() && IsTemp(e.Name()) {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, nil
}

// OpenNoFollow opens path with flag and perm (umask applies) but fails
// when path is a symbolic link, instead of following it.
func OpenNoFollow(path string, flag int, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(path, flag|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, perm)
}
