package reports

import (
	"errors"
	"fmt"

	"github.com/ecotune/ecotune/internal/atomicfile"
)

// ErrExists is returned when an output file exists and overwriting was not
// asked for.
var ErrExists = errors.New("file exists (use --force to overwrite)")

// writeFile writes data to path atomically (internal/atomicfile: readers
// never see half a file, a symbolic link at path is replaced, not
// followed). An existing path is an error unless force is set.
func writeFile(path string, data []byte, force bool) error {
	err := atomicfile.WriteFile(path, data, atomicfile.Options{NoReplace: !force})
	switch {
	case errors.Is(err, atomicfile.ErrExists):
		return fmt.Errorf("reports: %s: %w", path, ErrExists)
	case err != nil:
		return fmt.Errorf("reports: writing %s: %w", path, err)
	}
	return nil
}
