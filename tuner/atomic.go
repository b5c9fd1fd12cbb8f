package tuner

import (
	"fmt"
	"os"
	"path/filepath"
)

// writeFileAtomic writes data to path so that readers see either the old
// file or the whole new one: a temporary file in the same directory,
// synced, then renamed over path.
func writeFileAtomic(path string, data []byte) error {
	return writeAtomic(path, func(f *os.File) error {
		_, err := f.Write(data)
		return err
	})
}

// writeAtomic is writeFileAtomic with a writer function.
func writeAtomic(path string, write func(f *os.File) error) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("tuner: %w", err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err = write(f); err != nil {
		return fmt.Errorf("tuner: writing %s: %w", path, err)
	}
	if err = f.Chmod(0o644); err != nil {
		return fmt.Errorf("tuner: %w", err)
	}
	if err = f.Sync(); err != nil {
		return fmt.Errorf("tuner: %w", err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("tuner: %w", err)
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("tuner: %w", err)
	}
	return nil
}
