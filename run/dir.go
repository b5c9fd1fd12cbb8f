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

// Files of a run directory.
const (
	ManifestFile    = "run.json"
	FrontJSON       = "front.json"
	FrontParquet    = "front.parquet"
	FrontCSV        = "front.csv"
	CheckpointJSON  = "checkpoint.json"
	CheckpointCache = "checkpoint.cache"
	ReportDir       = "report"

	// The files of the runs made of several runs (tuner/summary), and of
	// a distributed run (its plan and its islands' directory).
	WindowsJSON = "windows.json"
	SeedsJSON   = "seeds.json"
	SummaryJSON = "summary.json"
	PlanJSON    = "plan.json"
	IslandsDir  = "islands"
)

// Dir is a run directory's path, with the paths of its files.
type Dir string

// Path is the path of name inside d.
func (d Dir) Path(name string) string { return filepath.Join(string(d), name) }

// Manifest is the path of run.json.
func (d Dir) Manifest() string { return d.Path(ManifestFile) }

// Front is the path of front.json.
func (d Dir) Front() string { return d.Path(FrontJSON) }

// Checkpoint is the path of checkpoint.json.
func (d Dir) Checkpoint() string { return d.Path(CheckpointJSON) }

// Cache is the path of checkpoint.cache.
func (d Dir) Cache() string { return d.Path(CheckpointCache) }

// Report is the path of the report directory.
func (d Dir) Report() string { return d.Path(ReportDir) }

// Target is where and how a run is written: its directory, whether to
// continue its checkpoint or overwrite it, and its provenance (run.json).
type Target struct {
	Dir string
	// Within, for a run made inside another (a window, a policy, a seed:
	// Beneath), is the directory its user named; Dir lies beneath it and
	// is reached through Within opened as a root, refusing a symbolic
	// link at every component below Within. Empty: Dir is the user's own.
	Within     string
	Resume     bool // continue from Dir's checkpoint
	Force      bool // write into a non-empty Dir
	Provenance Provenance
}

// Prepare makes t.Dir ready for a run: it creates it, or refuses a
// non-empty one unless resuming or forced; resuming needs it to exist. It
// removes the temporary files a killed run left there.
func (t Target) Prepare() error {
	dir := t.Dir
	if dir == "" {
		return errors.New("run: no run directory")
	}
	if t.Within != "" {
		return t.prepareWithin()
	}
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if t.Resume {
			return fmt.Errorf("run: --resume: %s does not exist", dir)
		}
		if err := os.MkdirAll(dir, 0o777); err != nil {
			return fmt.Errorf("run: %w", err)
		}
		return nil
	case err != nil:
		return fmt.Errorf("run: %w", err)
	}
	if err := t.checkEmpty(entries); err != nil {
		return err
	}
	r, err := OpenRoot(dir)
	if err != nil {
		return err
	}
	defer r.Close()
	_, err = r.RemoveStale()
	return err
}

// checkEmpty refuses a run directory holding entries unless resuming or
// forced.
func (t Target) checkEmpty(entries []fs.DirEntry) error {
	if len(entries) > 0 && !t.Resume && !t.Force {
		return fmt.Errorf("run: %s is not empty (use --force to overwrite or --resume to continue)", t.Dir)
	}
	return nil
}

// prepareWithin is Prepare of a run beneath t.Within, through its root:
// each component below it made or opened with a symbolic link refused.
func (t Target) prepareWithin() error {
	r, name, err := t.within()
	if err != nil {
		return err
	}
	defer r.Close()
	sub, err := r.Sub(name)
	if errors.Is(err, fs.ErrNotExist) {
		if t.Resume {
			return fmt.Errorf("run: --resume: %s does not exist", t.Dir)
		}
		sub, err = r.MkSub(name)
	}
	if err != nil {
		return err
	}
	defer sub.Close()
	entries, err := sub.ReadDir()
	if err != nil {
		return err
	}
	if err := t.checkEmpty(entries); err != nil {
		return err
	}
	_, err = sub.RemoveStale()
	return err
}

// within opens t.Within as a root and gives Dir's name beneath it.
func (t Target) within() (*Root, string, error) {
	name, err := filepath.Rel(t.Within, t.Dir)
	if err != nil || name == "." || strings.HasPrefix(name, "..") {
		return nil, "", fmt.Errorf("run: %s is not beneath %s", t.Dir, t.Within)
	}
	r, err := OpenRoot(t.Within)
	if err != nil {
		return nil, "", err
	}
	return r, filepath.ToSlash(name), nil
}

// OpenRoot opens t.Dir as a root: by its path when it is the user's own
// directory, else through t.Within's root (Root.Sub: a symbolic link at
// any component below Within is refused, with no window between a check
// and the open).
func (t Target) OpenRoot() (*Root, error) {
	if t.Within == "" {
		return OpenRoot(t.Dir)
	}
	r, name, err := t.within()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.Sub(name)
}

// Beneath is the target of a run inside t's directory, in its
// subdirectory name (window-K, POLICY, seed-S), reached through the
// directory t's user named (Within). A symbolic link already at name is
// refused here, naming it; one planted later is refused when the run
// opens its directory (OpenRoot, Prepare).
func (t Target) Beneath(name string) (Target, error) {
	sub := t
	if sub.Within == "" {
		sub.Within = t.Dir
	}
	sub.Dir = filepath.Join(t.Dir, name)
	r, err := sub.OpenRoot()
	switch {
	case err == nil:
		r.Close()
	case !errors.Is(err, fs.ErrNotExist): // not made yet is fine
		return t, err
	}
	return sub, nil
}

// Load reads a run directory's run.json and front.json.
func Load(dir string) (*Manifest, *Front, error) {
	r, err := OpenRoot(dir)
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	return r.Load()
}

// Load reads the run directory r's run.json and front.json.
func (r *Root) Load() (*Manifest, *Front, error) {
	m, err := r.LoadManifest()
	if err != nil {
		return nil, nil, err
	}
	var f Front
	if err := r.ReadJSON(FrontJSON, &f); err != nil {
		return nil, nil, err
	}
	return m, &f, nil
}

// LoadManifest reads a run directory's run.json (also as the code before
// the typed split wrote it).
func LoadManifest(dir string) (*Manifest, error) {
	r, err := OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.LoadManifest()
}

// LoadManifest reads the run directory r's run.json.
func (r *Root) LoadManifest() (*Manifest, error) {
	var m Manifest
	if err := r.ReadJSON(ManifestFile, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

// ReadJSON reads the JSON file path into v.
func ReadJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("run: %w", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("run: %s: %w", path, err)
	}
	return nil
}

// WriteJSON writes v as indented JSON (and a newline) to path,
// atomically, inside path's directory opened as a Root.
func WriteJSON(path string, v any) error {
	r, err := OpenRoot(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer r.Close()
	return r.WriteJSON(filepath.Base(path), v)
}

// Save writes front.json, front.csv, front.parquet and run.json into dir,
// each atomically (a symbolic link planted at one is replaced, never
// followed), run.json last, recording front.json's SHA-256 in it
// (m.FrontSHA256).
func Save(dir string, m *Manifest, f *Front) error {
	r, err := OpenRoot(dir)
	if err != nil {
		return err
	}
	defer r.Close()
	return r.Save(m, f)
}

// Save writes front.json, front.csv, front.parquet and run.json into the
// run directory r, as Save does.
func (r *Root) Save(m *Manifest, f *Front) error {
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return fmt.Errorf("run: %s: %w", FrontJSON, err)
	}
	b = append(b, '\n') // as WriteJSON writes it
	if err := r.WriteFile(FrontJSON, b, atomicfile.Options{}); err != nil {
		return err
	}
	m.FrontSHA256 = frontSum(b)
	cols, rows, err := FlatFront(f)
	if err != nil {
		return err
	}
	if err := r.Write(FrontCSV, atomicfile.Options{}, func(w io.Writer) error { return writeCSV(w, cols, rows) }); err != nil {
		return err
	}
	pcols, prows, err := ParquetFront(f)
	if err != nil {
		return err
	}
	if err := r.Write(FrontParquet, atomicfile.Options{}, func(w io.Writer) error { return writeParquet(w, pcols, prows) }); err != nil {
		return err
	}
	return r.WriteJSON(ManifestFile, m)
}
