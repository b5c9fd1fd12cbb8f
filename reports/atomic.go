package reports

import (
	"errors"
	"fmt"

	"github.com/ecotune/ecotune/internal/atomicfile"
	"github.com/ecotune/ecotune/run"
)

// ErrExists is returned when an output file exists and overwriting was not
// asked for.
var ErrExists = errors.New("file exists (use --force to overwrite)")

// writeFile writes data to name inside root atomically (internal/atomicfile
// in the root: readers never see half a file, a symbolic link at name is
// replaced, not followed, and nothing is written outside root). An
// existing file is an error unless force is set.
func writeFile(root *run.Root, name string, data []byte, force bool) error {
	err := root.WriteFile(name, data, atomicfile.Options{NoReplace: !force})
	switch {
	case errors.Is(err, atomicfile.ErrExists):
		return fmt.Errorf("reports: %s: %w", root.Join(name), ErrExists)
	case err != nil:
		return fmt.Errorf("reports: %w", err)
	}
	return nil
}
