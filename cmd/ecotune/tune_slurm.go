package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/ecotune/ecotune/internal/atomicfile"
	"github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/slurm"
	"github.com/ecotune/ecotune/tuner"
)

// tuneSlurmFlags are tune's flags of distributed tuning.
func tuneSlurmFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{Name: "slurm", Usage: "run the islands as a Slurm job array (see DISTRIBUTED below); prints the job ids"},
		&cli.StringFlag{Name: "sbatch-args", Usage: "extra sbatch arguments for the array and merge jobs, e.g. \"--partition batch --time 2:00:00\""},
		&cli.BoolFlag{Name: "dry-run", Usage: "with --slurm: write DIR and the scripts, print the array script, submit nothing"},
		&cli.DurationFlag{Name: "island-timeout", Value: tuner.DefaultIslandTimeout, Usage: "how long an island waits at a migration for a neighbour's migrants before skipping it"},
	}
}

// slurmOnlyFlag names a flag given that only --slurm takes.
func slurmOnlyFlag(c *cli.Context) string {
	for _, name := range []string{"dry-run", "sbatch-args", "island-timeout"} {
		if c.IsSet(name) {
			return name
		}
	}
	return ""
}

// runTuneSlurm is `tune --slurm`: the plan, the scripts and the jobs.
func runTuneSlurm(c *cli.Context, o tuner.Options, t run.Target) error {
	if !c.Bool("slurm") {
		return fmt.Errorf("tune: --%s goes with --slurm (distributed tuning)", slurmOnlyFlag(c))
	}
	if c.Int("windows") != 0 {
		return fmt.Errorf("tune: --slurm and --windows exclude each other")
	}
	if c.Bool("resume") {
		return fmt.Errorf("tune: --slurm --resume: resubmit the array (sbatch %s) instead: each island resumes from its checkpoint", filepath.Join(t.Dir, slurm.ArrayScript))
	}
	p, err := tuner.NewPlan(o, t.Provenance, c.Duration("island-timeout"))
	if err != nil {
		return err
	}
	dir, err := filepath.Abs(t.Dir)
	if err != nil {
		return fmt.Errorf("tune: %w", err)
	}
	t.Dir = dir
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("tune: the path of ecotune: %w", err)
	}
	if err := tuner.WritePlan(p, t); err != nil {
		return err
	}
	array, merge := slurm.IslandJobs(exe, dir, filepath.Join(dir, tuner.IslandsDir), p.Islands)
	arrayPath, mergePath := filepath.Join(dir, slurm.ArrayScript), filepath.Join(dir, slurm.MergeScript)
	for path, text := range map[string]string{arrayPath: array, mergePath: merge} {
		if err := atomicfile.WriteFile(path, []byte(text), atomicfile.Options{Mode: 0o755}); err != nil {
			return fmt.Errorf("tune: %w", err)
		}
	}
	if c.Bool("dry-run") {
		_, err := fmt.Fprint(c.App.Writer, array)
		return err
	}
	id, mid, err := slurm.NewClient(nil).SubmitIslands(c.Context, arrayPath, mergePath, strings.Fields(c.String("sbatch-args")))
	if err != nil {
		return fmt.Errorf("tune: %w", err)
	}
	fmt.Fprintf(c.App.ErrWriter, "array job %s: %d islands; merge job %s after it; progress: ecotune tune status %s\n", id, p.Islands, mid, dir)
	_, err = fmt.Fprintln(c.App.Writer, id)
	return err
}
