package tuner

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Files of a run directory.
const (
	FrontJSON      = "front.json"
	FrontParquet   = "front.parquet"
	FrontCSV       = "front.csv"
	RunJSON        = "run.json"
	CheckpointJSON = "checkpoint.json"
)

// LoadRun reads a run directory's run.json and front.json.
func LoadRun(dir string) (*RunMeta, *Front, error) {
	var m RunMeta
	if err := readJSON(filepath.Join(dir, RunJSON), &m); err != nil {
		return nil, nil, err
	}
	var f Front
	if err := readJSON(filepath.Join(dir, FrontJSON), &f); err != nil {
		return nil, nil, err
	}
	return &m, &f, nil
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("tuner: %w", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("tuner: %s: %w", path, err)
	}
	return nil
}
