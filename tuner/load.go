package tuner

import (
	"encoding/json"
	"fmt"

	rundir "github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/sim"
)

// Files of a run directory (package run owns them).
const (
	FrontJSON      = rundir.FrontJSON
	FrontParquet   = rundir.FrontParquet
	FrontCSV       = rundir.FrontCSV
	RunJSON        = rundir.ManifestFile
	CheckpointJSON = rundir.CheckpointJSON
)

// LoadRun reads a run directory's run.json and front.json (rundir.Load).
func LoadRun(dir string) (*RunMeta, *Front, error) { return rundir.Load(dir) }

func readJSON(path string, v any) error { return rundir.ReadJSON(path, v) }

// ClusterJSON is c as run.json records it (RunMeta.Cluster).
func ClusterJSON(c sim.Cluster) json.RawMessage {
	b, err := json.Marshal(c)
	if err != nil {
		panic(err) // plain data always marshals
	}
	return b
}

// ClusterOf decodes the cluster run.json records.
func ClusterOf(m *RunMeta) (sim.Cluster, error) {
	var c sim.Cluster
	if len(m.Cluster) == 0 {
		return c, fmt.Errorf("tuner: run.json has no cluster")
	}
	if err := json.Unmarshal(m.Cluster, &c); err != nil {
		return c, fmt.Errorf("tuner: run.json: cluster: %w", err)
	}
	return c, nil
}
