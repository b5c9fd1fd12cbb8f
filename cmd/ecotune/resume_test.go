package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/tuner"
	"github.com/ecotune/ecotune/tuner/search"
)

// writeJobs writes the first n jobs of the embedded trace as an SWF file
// in dir and returns its path.
func writeJobs(t *testing.T, dir string, n int) string {
	t.Helper()
	tr, err := datasets.Default()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "jobs.swf")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w, err := datasets.NewSWFWriter(f, tr.Meta)
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range tr.Jobs[:n] {
		if err := w.Write(j); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return path
}

// quickTune is a tune of idle-timeout on trace that takes well under a
// second: one island of 4, one generation, no report.
func quickTune(trace, dir string, extra ...string) []string {
	return append([]string{"--quiet", "tune", "--trace", trace, "--policy", "idle-timeout", "--population", "4", "--islands", "1",
		"--generations", "1", "--seed", "5", "--no-report", "-o", dir}, extra...)
}

// TestResumeRefusesOtherProblem reproduces issue 22 item 1: resuming a
// run's checkpoint with another trace, scheduler, train split or
// constraint is refused, naming the field that differs; the same command
// resumes.
func TestResumeRefusesOtherProblem(t *testing.T) {
	base := t.TempDir()
	trace := writeJobs(t, base, 1500)
	other := writeJobs(t, t.TempDir(), 1400)
	dir := filepath.Join(base, "run")
	if _, err := runApp(t, quickTune(trace, dir)...); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		args  []string
		field string
	}{
		{"different trace", quickTune(other, dir, "--resume"), "trace"},
		{"scheduler", quickTune(trace, dir, "--resume", "--scheduler", "fcfs"), "scheduler"},
		{"train split", quickTune(trace, dir, "--resume", "--train", "0.5"), "split"},
		{"constraint", quickTune(trace, dir, "--resume", "--constraint", "qos_p90<=1"), "constraints"},
		{"seed", quickTune(trace, dir, "--resume", "--seed", "6"), "seed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := runApp(t, tc.args...)
			if err == nil || !strings.Contains(err.Error(), "differs in") || !strings.Contains(err.Error(), tc.field) {
				t.Errorf("resume: error %v, want a refusal naming %q", err, tc.field)
			}
		})
	}
	if _, err := runApp(t, quickTune(trace, dir, "--resume")...); err != nil {
		t.Errorf("resuming with the same command: %v", err)
	}
}

// TestCheckpointTampered: an edited cache or checkpoint.json is an error,
// never a silent resume.
func TestCheckpointTampered(t *testing.T) {
	base := t.TempDir()
	trace := writeJobs(t, base, 1500)
	for _, tc := range []struct {
		name string
		file string
		edit func([]byte) []byte
		want string
	}{
		{"cache value", search.CheckpointCache, func(b []byte) []byte { b[len(b)-3] ^= 1; return b }, "edited or corrupt"},
		{"cache cut", search.CheckpointCache, func(b []byte) []byte { return b[:len(b)-8] }, "shorter"},
		{"checkpoint.json", tuner.CheckpointJSON, func(b []byte) []byte {
			return []byte(strings.Replace(string(b), `"evaluations":`, `"evaluations":1`, 1))
		}, "checksum"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "run")
			if _, err := runApp(t, quickTune(trace, dir)...); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, tc.file)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, tc.edit(b), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := runApp(t, quickTune(trace, dir, "--resume")...); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("resume after editing %s: error %v, want one containing %q", tc.file, err, tc.want)
			}
		})
	}
}

// TestRunFilesSymlinks reproduces issue 22 item 4: links planted at the
// run's files (checkpoint.cache above all) are never followed: their
// targets stay untouched under --force and --resume.
func TestRunFilesSymlinks(t *testing.T) {
	base := t.TempDir()
	trace := writeJobs(t, base, 1500)
	victim := filepath.Join(t.TempDir(), "victim")
	const precious = "precious bytes"
	plant := func(dir string, names ...string) {
		for _, name := range names {
			p := filepath.Join(dir, name)
			os.Remove(p)
			if err := os.Symlink(victim, p); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, mode := range []string{"--force", "--resume"} {
		t.Run(mode, func(t *testing.T) {
			if err := os.WriteFile(victim, []byte(precious), 0o644); err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(t.TempDir(), "run")
			if _, err := runApp(t, quickTune(trace, dir)...); err != nil {
				t.Fatal(err)
			}
			if mode == "--force" {
				plant(dir, search.CheckpointCache, tuner.CheckpointJSON, tuner.FrontJSON, tuner.FrontCSV, tuner.FrontParquet, tuner.RunJSON)
				if _, err := runApp(t, quickTune(trace, dir, "--force")...); err != nil {
					t.Fatal(err)
				}
				if fi, err := os.Lstat(filepath.Join(dir, search.CheckpointCache)); err != nil || !fi.Mode().IsRegular() {
					t.Errorf("checkpoint.cache is not a regular file after --force (%v)", err)
				}
			} else {
				plant(dir, search.CheckpointCache)
				if _, err := runApp(t, quickTune(trace, dir, "--resume")...); err == nil {
					t.Error("resume through a linked checkpoint.cache: no error")
				}
			}
			if b, err := os.ReadFile(victim); err != nil || string(b) != precious {
				t.Errorf("%s: the link's target now holds %q (%v)", mode, b, err)
			}
		})
	}
}
