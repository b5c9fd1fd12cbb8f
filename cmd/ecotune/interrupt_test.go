package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/ecotune/ecotune/tuner"
)

// buildBinary builds this command into dir.
func buildBinary(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "ecotune")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// waitFile waits up to limit for path to exist.
func waitFile(t *testing.T, path string, limit time.Duration, done <-chan error) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(path); err == nil {
			return
		}
		select {
		case err := <-done:
			t.Fatalf("the run ended (%v) before %s appeared", err, path)
		case <-time.After(5 * time.Millisecond):
		}
	}
	t.Fatalf("%s did not appear within %s", path, limit)
}

// checkpointHead is what the SIGINT test reads of checkpoint.json.
type checkpointHead struct {
	Generation   int `json:"generation"`
	CacheEntries int `json:"cache_entries"`
}

func readCheckpoint(t *testing.T, dir string) checkpointHead {
	t.Helper()
	var ck checkpointHead
	b, err := os.ReadFile(filepath.Join(dir, tuner.CheckpointJSON))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &ck); err != nil {
		t.Fatal(err)
	}
	return ck
}

// TestTuneSIGINT reproduces issue 22 item 5: tune with a population of
// 3000 stops within 2 s of SIGINT in the middle of a generation, keeping
// the evaluations it finished in the checkpoint, and resumes to the same
// front bytes as an uninterrupted run; a second signal exits at once.
func TestTuneSIGINT(t *testing.T) {
	base := t.TempDir()
	bin := buildBinary(t, base)
	trace := writeJobs(t, base, 1500)
	args := func(dir string, extra ...string) []string {
		return append([]string{"--quiet", "tune", "--trace", trace, "--policy", "idle-timeout", "--population", "3000",
			"--islands", "1", "--generations", "1", "--seed", "2", "--no-report", "-o", dir}, extra...)
	}
	whole := filepath.Join(base, "whole")
	if out, err := exec.Command(bin, args(whole)...).CombinedOutput(); err != nil {
		t.Fatalf("uninterrupted run: %v\n%s", err, out)
	}

	cut := filepath.Join(base, "cut")
	cmd := exec.Command(bin, args(cut)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	// The checkpoint appears when generation 0 is done: generation 1's
	// 3000 evaluations are under way.
	waitFile(t, filepath.Join(cut, tuner.CheckpointJSON), time.Minute, done)
	gen0 := readCheckpoint(t, cut)
	time.Sleep(time.Second) // generation 1 under way whatever the load
	sent := time.Now()
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("interrupted run: %v\n%s", err, stderr.String())
		}
		if d := time.Since(sent); d > 2*time.Second {
			t.Errorf("stopped %s after SIGINT, want at most 2 s", d.Round(time.Millisecond))
		}
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("still running 30 s after SIGINT")
	}
	ck := readCheckpoint(t, cut)
	if ck.Generation != 0 || gen0.Generation != 0 {
		t.Fatalf("checkpoints of generations %d then %d: SIGINT did not land inside generation 1", gen0.Generation, ck.Generation)
	}
	if ck.CacheEntries <= gen0.CacheEntries {
		t.Errorf("the checkpoint keeps %d evaluations, as many as generation 0's %d: generation 1's finished ones were lost", ck.CacheEntries, gen0.CacheEntries)
	}
	if out, err := exec.Command(bin, args(cut, "--resume")...).CombinedOutput(); err != nil {
		t.Fatalf("resume: %v\n%s", err, out)
	}
	for _, name := range []string{tuner.FrontJSON, tuner.FrontCSV, tuner.FrontParquet} {
		a, err := os.ReadFile(filepath.Join(whole, name))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(cut, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("resumed %s differs from the uninterrupted run's", name)
		}
	}

	// A second signal exits at once, with status 130.
	again := exec.Command(bin, args(filepath.Join(base, "again"))...)
	if err := again.Start(); err != nil {
		t.Fatal(err)
	}
	done2 := make(chan error, 1)
	go func() { done2 <- again.Wait() }()
	time.Sleep(500 * time.Millisecond) // in the initial population
	// Two different signals: the kernel would merge a second SIGINT sent
	// before the first is handled.
	sent = time.Now()
	again.Process.Signal(syscall.SIGINT)
	again.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-done2:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 130 {
			t.Errorf("second signal: exit %v, want status 130", err)
		}
		if d := time.Since(sent); d > time.Second {
			t.Errorf("exited %s after the second signal", d.Round(time.Millisecond))
		}
	case <-time.After(30 * time.Second):
		again.Process.Kill()
		t.Fatal("still running 30 s after two signals")
	}
}
