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
	// Mode, when not zero, is the new file's exact permission bits,
	// whatever the umask (Create chmods the temporary file); zero means
	// Perm less the umask.
	Mode fs.FileMode
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
	// root, when not nil, holds the file: tmp and target are names
	// inside it (CreateIn).
	root *os.Root
	tmp  string
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
	open := func(name string) (*os.File, error) {
		return os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, Perm)
	}
	f, name, err := createTemp(filepath.Join(dir, "."+base+tempInfix), open, os.Remove, opt)
	if err != nil {
		return nil, tempError(path, err)
	}
	return &File{File: f, target: path, opt: opt, tmp: name}, nil
}

// errNoTempName is createTemp's error when every name it tried was taken.
var errNoTempName = errors.New("no free temporary name")

// createTemp creates a temporary file named prefix and a random suffix
// with open, which must create it exclusively, trying another suffix
// while the name is taken; it gives the file opt's mode (removing the file
// with remove if it cannot) and returns the file and its name.
func createTemp(prefix string, open func(string) (*os.File, error), remove func(string) error, opt Options) (*os.File, string, error) {
	for range 100 {
		name := prefix + strconv.FormatUint(rand.Uint64(), 36)
		f, err := open(name)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, "", err
		}
		if err := setMode(f, opt); err != nil {
			f.Close()
			remove(name)
			return nil, "", err
		}
		return f, name, nil
	}
	return nil, "", errNoTempName
}

// tempError is err of createTemp for target: a full set of taken names
// names target; any other error is the system's own.
func tempError(target string, err error) error {
	if errors.Is(err, errNoTempName) {
		return fmt.Errorf("%s: %w", target, err)
	}
	return err
}

// CreateIn starts writing name inside root: the temporary file is created
// there exclusively and renamed there, so that neither step can leave
// root whatever links are planted on the way. name is one path component
// (a directory beneath is opened as a root of its own).
func CreateIn(root *os.Root, name string, opt Options) (*File, error) {
	if name == "" || name == "." || name == ".." || strings.ContainsRune(name, '/') {
		return nil, fmt.Errorf("%s: %q is not a file name", root.Name(), name)
	}
	target := filepath.Join(root.Name(), name)
	if opt.NoReplace {
		if err := absentIn(root, name, target); err != nil {
			return nil, err
		}
	}
	open := func(tmp string) (*os.File, error) {
		return root.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL|syscall.O_CLOEXEC, Perm)
	}
	f, tmp, err := createTemp("."+name+tempInfix, open, root.Remove, opt)
	if err != nil {
		return nil, tempError(target, err)
	}
	return &File{File: f, target: name, opt: opt, root: root, tmp: tmp}, nil
}

// setMode gives f the exact mode opt asks for, if any.
func setMode(f *os.File, opt Options) error {
	if opt.Mode == 0 {
		return nil
	}
	return f.Chmod(opt.Mode.Perm())
}

// absentIn fails with ErrExists when name exists in root.
func absentIn(root *os.Root, name, path string) error {
	if _, err := root.Lstat(name); err == nil {
		return &fs.PathError{Op: "create", Path: path, Err: ErrExists}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
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
		err = f.absent()
	}
	if err == nil {
		err = f.rename()
	}
	if err != nil {
		f.remove()
	}
	return err
}

func (f *File) absent() error {
	if f.root != nil {
		return absentIn(f.root, f.target, filepath.Join(f.root.Name(), f.target))
	}
	return absent(f.target)
}

func (f *File) rename() error {
	if f.root != nil {
		return f.root.Rename(f.tmp, f.target)
	}
	return os.Rename(f.tmp, f.target)
}

func (f *File) remove() {
	if f.root != nil {
		f.root.Remove(f.tmp)
		return
	}
	os.Remove(f.tmp)
}

// Abort closes and removes the temporary file; after Commit it does
// nothing, so `defer f.Abort()` is safe.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.File.Close()
	f.remove()
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

// WriteIn writes name inside root with the output of write, atomically
// (CreateIn).
func WriteIn(root *os.Root, name string, opt Options, write func(w io.Writer) error) error {
	f, err := CreateIn(root, name, opt)
	if err != nil {
		return err
	}
	defer f.Abort()
	if err := write(f); err != nil {
		return err
	}
	return f.Commit()
}

// WriteFileIn writes data to name inside root atomically.
func WriteFileIn(root *os.Root, name string, data []byte, opt Options) error {
	return WriteIn(root, name, opt, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
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

// RemoveStaleIn removes the temporary files a crash or a kill left in
// root's directory; it returns how many.
func RemoveStaleIn(root *os.Root) (int, error) {
	d, err := root.Open(".")
	if err != nil {
		return 0, err
	}
	entries, err := d.ReadDir(-1)
	d.Close()
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range entries {
		if e.Type().IsRegular() && IsTemp(e.Name()) {
			if err := root.Remove(e.Name()); err != nil {
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
