package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ecotune/ecotune/internal/slurmtest"
	"github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/tuner"
)

// waitFor polls ok every 100 ms for up to limit.
func waitFor(t *testing.T, limit time.Duration, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, limit)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// jobGone reports whether squeue no longer lists job id.
func jobGone(t *testing.T, cl *slurmtest.Cluster, id string) bool {
	t.Helper()
	return strings.TrimSpace(cl.Run(t, "squeue", "-h", "-j", id, "-o", "%i %T")) == ""
}

// slurmLogs logs, when t failed, the batch output files of dir's jobs.
func slurmLogs(t *testing.T, dir string) {
	t.Helper()
	if !t.Failed() {
		return
	}
	files, _ := filepath.Glob(filepath.Join(dir, tuner.IslandsDir, "slurm-*.out"))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		t.Logf("%s:\n%s", filepath.Base(f), b)
	}
}

// TestIslandsSlurm runs distributed tuning as a Slurm job array on a
// loopback cluster: `tune --islands 4 --slurm` (4 array tasks and an
// afterok merge job) writes the one-machine front byte for byte; a task
// cancelled mid-run (scancel JOBID_2) and resubmitted gives the same
// front; with a task that never starts the run still ends with a front
// and run.json names the missing island.
func TestIslandsSlurm(t *testing.T) {
	if testing.Short() && os.Getenv("CI") != "true" {
		t.Skip("-short: no loopback cluster")
	}
	bin, one := islandsBase(t)
	cl := slurmtest.Start(t, slurmtest.Options{Nodes: 4})
	env := cl.Env()
	const limit = 4 * time.Minute

	t.Run("array", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "dist")
		id := strings.TrimSpace(ecotune(t, bin, env, append([]string{"--quiet", "tune", "--slurm", "-o", dir}, islandArgs...)...))
		if _, err := strconv.ParseInt(id, 10, 64); err != nil {
			t.Fatalf("tune --slurm printed %q, not a job id", id)
		}
		waitFor(t, limit, "the merge job's run.json", func() bool {
			_, err := os.Stat(filepath.Join(dir, run.ManifestFile))
			return err == nil
		})
		defer slurmLogs(t, dir)
		sameFront(t, one, dir)
		for i := range 4 {
			if _, err := os.Stat(filepath.Join(dir, tuner.IslandsDir, "slurm-"+id+"_"+strconv.Itoa(i)+".out")); err != nil {
				t.Errorf("array task %s_%d left no output: %v", id, i, err)
			}
		}
	})

	t.Run("scancel", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "dist")
		id := strings.TrimSpace(ecotune(t, bin, env, append([]string{"--quiet", "tune", "--slurm", "-o", dir}, islandArgs...)...))
		defer slurmLogs(t, dir)
		waitFor(t, limit, "island 2 at generation 3", func() bool {
			st, ok, err := tuner.ReadIslandStatus(dir, 2)
			return err == nil && ok && st.Generation >= 3
		})
		cl.Run(t, "scancel", id+"_2")
		waitFor(t, time.Minute, "task "+id+"_2 gone", func() bool { return jobGone(t, cl, id+"_2") })
		st, _, err := tuner.ReadIslandStatus(dir, 2)
		if err != nil {
			t.Fatal(err)
		}
		if st.Done {
			t.Fatal("island 2 finished before scancel: the test proves nothing")
		}
		t.Logf("task %s_2 cancelled after generation %d", id, st.Generation)
		again := cl.Sbatch(t, "--array=2", filepath.Join(dir, "tune.sbatch"))
		merge := cl.Sbatch(t, "--dependency=afterok:"+strconv.FormatInt(again, 10), filepath.Join(dir, "merge.sbatch"))
		waitFor(t, limit, "the resubmitted merge's run.json", func() bool {
			_, err := os.Stat(filepath.Join(dir, run.ManifestFile))
			return err == nil && jobGone(t, cl, strconv.FormatInt(merge, 10))
		})
		cl.Run(t, "scancel", "--name=ecotune-merge") // the first merge, whose dependency failed
		sameFront(t, one, dir)
	})

	t.Run("never-starts", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "dist")
		ecotune(t, bin, env, append([]string{"--quiet", "tune", "--slurm", "--dry-run", "--island-timeout", "3s", "-o", dir}, islandArgs...)...)
		defer slurmLogs(t, dir)
		array := cl.Sbatch(t, "--array=0,1,3", filepath.Join(dir, "tune.sbatch"))
		cl.Sbatch(t, "--dependency=afterok:"+strconv.FormatInt(array, 10), filepath.Join(dir, "merge.sbatch"))
		waitFor(t, limit, "the merge job's run.json", func() bool {
			_, err := os.Stat(filepath.Join(dir, run.ManifestFile))
			return err == nil
		})
		m, f, err := run.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(f.Solutions) == 0 {
			t.Error("the merged front is empty")
		}
		if len(m.MissingIslands) != 1 || m.MissingIslands[0].Island != 2 || !strings.Contains(m.MissingIslands[0].Reason, "never ran") {
			t.Errorf("run.json missing_islands %+v, want island 2, never ran", m.MissingIslands)
		}
	})
}
