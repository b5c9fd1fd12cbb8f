package run

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ecotune/ecotune/internal/atomicfile"
)

// Root is an open directory that every file beneath is reached through:
// an os.Root (no name leaves it, whatever links are planted, and a
// directory swapped for a link after it was opened is not followed)
// whose Sub and MkSub also refuse a symbolic link at any component, one
// inside the directory included. Only the top directory is opened by the
// user's own path (OpenRoot, CreateRoot); a Root is not safe for
// concurrent Close.
type Root struct {
	r    *os.Root
	path string
	// private roots create files 0600 and directories 0700 exactly,
	// whatever the umask; others ask for 0666 and 0777 less the umask.
	private bool
}

// OpenRoot opens the directory dir, named by the user (a link there is
// followed, by design).
func OpenRoot(dir string) (*Root, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("run: %w", err)
	}
	return &Root{r: r, path: dir}, nil
}

// CreateRoot creates dir (and its parents) if missing and opens it.
func CreateRoot(dir string) (*Root, error) {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, fmt.Errorf("run: %w", err)
	}
	return OpenRoot(dir)
}

// Private returns r making its files 0600 and its directories 0700
// exactly, whatever the umask; its Subs inherit this. It chmods r's
// directory to 0700.
func (r *Root) Private() (*Root, error) {
	if err := r.r.Chmod(".", 0o700); err != nil {
		return nil, fmt.Errorf("run: %s: %w", r.path, err)
	}
	return &Root{r: r.r, path: r.path, private: true}, nil
}

// Path is the directory's path, for messages and for code that still
// takes paths.
func (r *Root) Path() string { return r.path }

// Join is the path of name inside r, for messages.
func (r *Root) Join(name string) string { return filepath.Join(r.path, name) }

// OS is the underlying os.Root.
func (r *Root) OS() *os.Root { return r.r }

// Close closes the directory.
func (r *Root) Close() error { return r.r.Close() }

// components splits a slash-separated relative name, refusing empty, "."
// and ".." components and absolute names.
func (r *Root) components(name string) ([]string, error) {
	if name == "" || filepath.IsAbs(name) {
		return nil, fmt.Errorf("run: %q: not a name inside %s", name, r.path)
	}
	parts := strings.Split(filepath.ToSlash(name), "/")
	for _, p := range parts {
		if p == "" || p == "." || p == ".." {
			return nil, fmt.Errorf("run: %q: not a name inside %s", name, r.path)
		}
	}
	return parts, nil
}

// Sub opens the directory name (slash-separated components) beneath r;
// a symbolic link at any component is refused.
func (r *Root) Sub(name string) (*Root, error) { return r.sub(name, false) }

// MkSub is Sub creating missing directories (0777 less the umask; 0700
// exactly in a private root).
func (r *Root) MkSub(name string) (*Root, error) { return r.sub(name, true) }

func (r *Root) sub(name string, create bool) (*Root, error) {
	parts, err := r.components(name)
	if err != nil {
		return nil, err
	}
	cur := r
	for _, p := range parts {
		next, err := cur.child(p, create)
		if cur != r {
			cur.Close()
		}
		if err != nil {
			return nil, err
		}
		cur = next
	}
	return cur, nil
}

// child opens the directory name in r, refusing a symbolic link.
func (r *Root) child(name string, create bool) (*Root, error) {
	path := r.Join(name)
	if create {
		err := r.r.Mkdir(name, r.dirPerm())
		switch {
		case err == nil && r.private:
			if err := r.r.Chmod(name, 0o700); err != nil {
				return nil, fmt.Errorf("run: %w", err)
			}
		case err != nil && !errors.Is(err, fs.ErrExist):
			return nil, fmt.Errorf("run: %w", r.pathErr(err, name))
		}
	}
	if err := r.notLink(name, "a directory"); err != nil {
		return nil, err
	}
	sub, err := r.r.OpenRoot(name)
	if err != nil {
		return nil, fmt.Errorf("run: %w", r.pathErr(err, name))
	}
	// The name may have been swapped for a link between the check and
	// the open: what was opened must still be what the name is.
	if err := r.same(name, sub.Open, "a directory"); err != nil {
		sub.Close()
		return nil, err
	}
	if r.private {
		if err := sub.Chmod(".", 0o700); err != nil {
			sub.Close()
			return nil, fmt.Errorf("run: %s: %w", path, err)
		}
	}
	return &Root{r: sub, path: path, private: r.private}, nil
}

func (r *Root) dirPerm() fs.FileMode {
	if r.private {
		return 0o700
	}
	return 0o777
}

// notLink fails when name in r is a symbolic link.
func (r *Root) notLink(name, what string) error {
	fi, err := r.r.Lstat(name)
	if err != nil {
		return fmt.Errorf("run: %w", r.pathErr(err, name))
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return r.linkError(name, what)
	}
	return nil
}

// pathErr names the whole path in an os.Root's *fs.PathError (the root
// names only the name inside it).
func (r *Root) pathErr(err error, name string) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == name {
		return &fs.PathError{Op: pe.Op, Path: r.Join(name), Err: pe.Err}
	}
	return err
}

func (r *Root) linkError(name, what string) error {
	return fmt.Errorf("run: %s is a symbolic link, not %s: refusing to use it", r.Join(name), what)
}

// same checks that the file open returns for "." (the opened directory,
// or f) is the file name is now, not through a link.
func (r *Root) same(name string, open func(string) (*os.File, error), what string) error {
	f, err := open(".")
	if err != nil {
		return fmt.Errorf("run: %s: %w", r.Join(name), err)
	}
	defer f.Close()
	return r.sameFile(name, f, what)
}

func (r *Root) sameFile(name string, f *os.File, what string) error {
	opened, err := f.Stat()
	if err != nil {
		return fmt.Errorf("run: %s: %w", r.Join(name), err)
	}
	now, err := r.r.Lstat(name)
	if err != nil {
		return fmt.Errorf("run: %w", r.pathErr(err, name))
	}
	if now.Mode()&fs.ModeSymlink != 0 {
		return r.linkError(name, what)
	}
	if !os.SameFile(opened, now) {
		return fmt.Errorf("run: %s changed while it was opened: refusing to use it", r.Join(name))
	}
	return nil
}

// file checks that name is one component.
func (r *Root) file(name string) error {
	parts, err := r.components(name)
	if err != nil {
		return err
	}
	if len(parts) != 1 {
		return fmt.Errorf("run: %q: a file of %s is named by one component (open its directory with Sub)", name, r.path)
	}
	return nil
}

// Open opens the file name in r for reading, refusing a symbolic link.
func (r *Root) Open(name string) (*os.File, error) {
	if err := r.file(name); err != nil {
		return nil, err
	}
	if err := r.notLink(name, "a file"); err != nil {
		return nil, err
	}
	f, err := r.r.Open(name)
	if err != nil {
		return nil, fmt.Errorf("run: %w", r.pathErr(err, name))
	}
	if err := r.sameFile(name, f, "a file"); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// ReadFile reads the file name in r, refusing a symbolic link.
func (r *Root) ReadFile(name string) ([]byte, error) {
	f, err := r.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("run: %s: %w", r.Join(name), err)
	}
	return b, nil
}

// ReadJSON reads the JSON file name in r into v.
func (r *Root) ReadJSON(name string, v any) error {
	b, err := r.ReadFile(name)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("run: %s: %w", r.Join(name), err)
	}
	return nil
}

// Lstat describes name in r without following a link there.
func (r *Root) Lstat(name string) (fs.FileInfo, error) {
	if err := r.file(name); err != nil {
		return nil, err
	}
	return r.r.Lstat(name)
}

// Remove removes the file or empty directory name in r (a link there is
// removed, not followed).
func (r *Root) Remove(name string) error {
	if err := r.file(name); err != nil {
		return err
	}
	return r.r.Remove(name)
}

// ReadDir lists r's directory.
func (r *Root) ReadDir() ([]fs.DirEntry, error) {
	d, err := r.r.Open(".")
	if err != nil {
		return nil, fmt.Errorf("run: %w", err)
	}
	defer d.Close()
	entries, err := d.ReadDir(-1)
	if err != nil {
		return nil, fmt.Errorf("run: %s: %w", r.path, err)
	}
	return entries, nil
}

func (r *Root) options(opt atomicfile.Options) atomicfile.Options {
	if r.private && opt.Mode == 0 {
		opt.Mode = 0o600
	}
	return opt
}

// Write writes the file name in r with the output of write, atomically
// (internal/atomicfile inside the root: a link at name is replaced, never
// followed). The error is atomicfile's, wrapped with the path.
func (r *Root) Write(name string, opt atomicfile.Options, write func(w io.Writer) error) error {
	if err := r.file(name); err != nil {
		return err
	}
	if err := atomicfile.WriteIn(r.r, name, r.options(opt), write); err != nil {
		return fmt.Errorf("run: writing %s: %w", r.Join(name), err)
	}
	return nil
}

// WriteFile writes data to the file name in r atomically.
func (r *Root) WriteFile(name string, data []byte, opt atomicfile.Options) error {
	return r.Write(name, opt, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteJSON writes v as indented JSON (and a newline) to name in r,
// atomically.
func (r *Root) WriteJSON(name string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("run: %s: %w", name, err)
	}
	return r.WriteFile(name, append(b, '\n'), atomicfile.Options{})
}

// CreateExcl creates the file name in r for writing, failing if it
// exists (a link included).
func (r *Root) CreateExcl(name string) (*os.File, error) {
	if err := r.file(name); err != nil {
		return nil, err
	}
	perm := fs.FileMode(0o666)
	if r.private {
		perm = 0o600
	}
	f, err := r.r.OpenFile(name, os.O_CREATE|os.O_EXCL|os.O_WRONLY, perm)
	if err != nil {
		return nil, fmt.Errorf("run: %w", r.pathErr(err, name))
	}
	if r.private {
		if err := f.Chmod(0o600); err != nil {
			f.Close()
			return nil, fmt.Errorf("run: %w", err)
		}
	}
	return f, nil
}

// RemoveStale removes the temporary files a killed writer left in r.
func (r *Root) RemoveStale() (int, error) {
	n, err := atomicfile.RemoveStaleIn(r.r)
	if err != nil {
		return n, fmt.Errorf("run: %s: %w", r.path, err)
	}
	return n, nil
}

// Restrict makes every directory beneath r (r's own included) 0700 and
// every regular file 0600, skipping symbolic links: for a private tree
// that code writing by path (with the umask's modes) has added to.
func (r *Root) Restrict() error {
	if err := r.r.Chmod(".", 0o700); err != nil {
		return fmt.Errorf("run: %s: %w", r.path, err)
	}
	entries, err := r.ReadDir()
	if err != nil {
		return err
	}
	for _, e := range entries {
		switch {
		case e.Type().IsRegular():
			if err := r.r.Chmod(e.Name(), 0o600); err != nil {
				return fmt.Errorf("run: %w", r.pathErr(err, e.Name()))
			}
		case e.IsDir():
			sub, err := r.Sub(e.Name())
			if err != nil {
				return err
			}
			err = sub.Restrict()
			sub.Close()
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// SubDir is the path of the run directory name beneath parent (window-K,
// POLICY, seed-S, islands, islands/island-I) after checking, through
// parent opened as a run.Root, that no component of it is a symbolic
// link: a link planted there (to a directory outside the run) is refused
// with its path named, before anything is read or written beneath it. A
// name not there yet is returned as it is (the run creates it).
func SubDir(parent, name string) (string, error) {
	r, err := OpenRoot(parent)
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
