package tuner

import (
	"fmt"
	"io"

	"github.com/ecotune/ecotune/internal/atomicfile"
)

// writeFileAtomic writes data to path so that readers see either the old
// file or the whole new one (internal/atomicfile).
func writeFileAtomic(path string, data []byte) error {
	if err := atomicfile.WriteFile(path, data, atomicfile.Options{}); err != nil {
		return fmt.Errorf("tuner: writing %s: %w", path, err)
	}
	return nil
}

// writeAtomic is writeFileAtomic with a writer function.
func writeAtomic(path string, write func(w io.Writer) error) error {
	if err := atomicfile.Write(path, atomicfile.Options{}, write); err != nil {
		return fmt.Errorf("tuner: writing %s: %w", path, err)
	}
	return nil
}
