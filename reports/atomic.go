package reports

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrExists is returned when an output file exists and overwriting was not
// asked for.
var ErrExists = errors.New("file exists (use --force to overwrite)")

// writeFile writes data to path atomically: a temporary file in the same
// directory is written, synced, closed and renamed over path, so readers
// never see half a file. An existing path is an error unless force is set.
func writeFile(path string, data []byte, force bool) error {
	if !force {
		if _, err := os.Lstat(path); err == nil {
			return fmt.Errorf("reports: %s: %w", path, ErrExists)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("reports: %w", err)
		}
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("reports: %w", err)
	}
	tmp := f.Name()
	if err := writeSyncClose(f, data); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("reports: writing %s: %w", path, err)
	}
	if err := os.Chmod(tmp, 0o644); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("reports: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("reports: %w", err)
	}
	return nil
}

func writeSyncClose(f *os.File, data []byte) error {
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
