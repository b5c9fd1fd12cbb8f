package summary

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/ecotune/ecotune/internal/atomicfile"
)

// writeJSON writes v as indented JSON and a newline to path, atomically.
func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("summary: %s: %w", path, err)
	}
	if err := atomicfile.WriteFile(path, append(b, '\n'), atomicfile.Options{}); err != nil {
		return fmt.Errorf("summary: writing %s: %w", path, err)
	}
	return nil
}

// writeAtomic writes path with a writer function, atomically.
func writeAtomic(path string, write func(w io.Writer) error) error {
	if err := atomicfile.Write(path, atomicfile.Options{}, write); err != nil {
		return fmt.Errorf("summary: writing %s: %w", path, err)
	}
	return nil
}
