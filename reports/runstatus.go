package reports

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/tuner"
)

// RunStatus is where a distributed run stands (`ecotune tune status`):
// each island's progress and whether the run is merged.
type RunStatus struct {
	Dir     string      `json:"dir"`
	Islands []IslandRow `json:"islands"`
	Merged  bool        `json:"merged"`
	// generations and migrationEvery are the plan's, for the epochs.
	generations, migrationEvery int
}

// IslandRow is one island of a RunStatus.
type IslandRow struct {
	tuner.IslandStatus
	Epoch   int  `json:"epoch"` // migration epochs passed: generation / migration interval
	Started bool `json:"started"`
}

// ReadRunStatus reads the plan of the distributed run in dir and each
// island's status (an island that never started: generation 0, not
// started); the run is merged when its manifest is there.
func ReadRunStatus(dir string) (RunStatus, error) {
	p, err := tuner.ReadPlan(dir)
	if err != nil {
		return RunStatus{}, err
	}
	s := RunStatus{Dir: dir, Islands: make([]IslandRow, p.Islands), generations: p.Generations, migrationEvery: p.MigrationEvery}
	for i := range s.Islands {
		st, ok, err := tuner.ReadIslandStatus(dir, i)
		if err != nil {
			return RunStatus{}, err
		}
		if !ok {
			st = tuner.IslandStatus{Island: i, Generations: p.Generations}
		}
		s.Islands[i] = IslandRow{IslandStatus: st, Epoch: st.Generation / p.MigrationEvery, Started: ok}
	}
	_, err = os.Stat(filepath.Join(dir, run.ManifestFile))
	s.Merged = err == nil
	return s, nil
}

// WriteRunStatus prints s as a table, one island a row, and the
// manifest's path once merged.
func WriteRunStatus(w io.Writer, s RunStatus) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "island\tepoch\tgeneration\tevaluations\thypervolume\tstate\tskipped")
	for _, r := range s.Islands {
		state := "running"
		switch {
		case !r.Started:
			state = "not started"
		case r.Done:
			state = "done"
		case r.Interrupted:
			state = "interrupted"
		}
		var sk []string
		for _, k := range r.Skipped {
			sk = append(sk, fmt.Sprintf("%d@g%d", k.Island, k.Generation))
		}
		fmt.Fprintf(tw, "%d\t%d/%d\t%d/%d\t%d\t%.4f\t%s\t%s\n", r.Island, r.Epoch, s.generations/s.migrationEvery,
			r.Generation, r.Generations, r.Evaluations, r.Hypervolume, state, strings.Join(sk, " "))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if !s.Merged {
		return nil
	}
	_, err := fmt.Fprintf(w, "merged: %s\n", filepath.Join(s.Dir, run.ManifestFile))
	return err
}
