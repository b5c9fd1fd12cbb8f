package slurm

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// The scripts of a distributed tuning run, in its run directory.
const (
	ArrayScript = "tune.sbatch"  // the job array, one task per island
	MergeScript = "merge.sbatch" // the merge job, after the array
)

// IslandJobs are the sbatch scripts of the distributed tuning run in dir
// (an absolute path): array runs `EXE tune island DIR --index
// $SLURM_ARRAY_TASK_ID` as an array of islands tasks, requeued when
// killed, and merge runs `EXE tune merge DIR`; both write their Slurm
// output under logDir.
func IslandJobs(exe, dir, logDir string, islands int) (array, merge string) {
	q := shellQuote
	array = fmt.Sprintf(`#!/bin/sh
#SBATCH --job-name=ecotune-islands
#SBATCH --array=0-%d
#SBATCH --output=%s
#SBATCH --requeue
# One island of the distributed run in %s per array task; a task killed
# or requeued resumes from its own checkpoint. After a task failed or was
# cancelled (the merge job's afterok then never holds), resubmit it and
# the merge:
#   sbatch --parsable --array=I %s
#   sbatch --dependency=afterok:NEWID %s
exec %s tune island %s --index "$SLURM_ARRAY_TASK_ID" --workers "${SLURM_CPUS_PER_TASK:-0}"
`, islands-1, filepath.Join(logDir, "slurm-%A_%a.out"), dir, filepath.Join(dir, ArrayScript), filepath.Join(dir, MergeScript), q(exe), q(dir))
	merge = fmt.Sprintf(`#!/bin/sh
#SBATCH --job-name=ecotune-merge
#SBATCH --output=%s
# Merges the islands of %s into the run's front, presets and report.
exec %s tune merge %s --workers "${SLURM_CPUS_PER_TASK:-0}"
`, filepath.Join(logDir, "slurm-merge-%j.out"), dir, q(exe), q(dir))
	return array, merge
}

// shellQuote quotes s for sh.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// SubmitIslands submits the array script at arrayPath and then the merge
// script at mergePath, dependent on the array (afterok), each with
// `sbatch --parsable` and the extra arguments, and returns both job ids.
// When the merge fails to submit, the error says the array is submitted.
func (c *Client) SubmitIslands(ctx context.Context, arrayPath, mergePath string, extra []string) (arrayID, mergeID string, err error) {
	arrayID, err = c.sbatch(ctx, append(append([]string{}, extra...), arrayPath))
	if err != nil {
		return "", "", err
	}
	mergeID, err = c.sbatch(ctx, append(append([]string{}, extra...), "--dependency=afterok:"+arrayID, mergePath))
	if err != nil {
		return arrayID, "", fmt.Errorf("%w (the array job %s is submitted)", err, arrayID)
	}
	return arrayID, mergeID, nil
}

// sbatch runs sbatch --parsable with args and returns the job id it
// prints (before any ";cluster").
func (c *Client) sbatch(ctx context.Context, args []string) (string, error) {
	out, err := c.runner.Run(ctx, nil, "sbatch", append([]string{"--parsable"}, args...)...)
	if err != nil {
		return "", err
	}
	id, _, _ := strings.Cut(strings.TrimSpace(string(out)), ";")
	if _, err := strconv.ParseInt(id, 10, 64); err != nil {
		return "", fmt.Errorf("sbatch %s printed %q, not a job id", strings.Join(args, " "), out)
	}
	return id, nil
}
