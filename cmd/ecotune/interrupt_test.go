package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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
// the evaluations it finished in the checkpoint (exit status 130, issue
// 36), and resumes to the same front bytes as an uninterrupted run; a
// second signal exits at once.
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
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 130 {
			t.Fatalf("interrupted run: %v, want exit status 130\n%s", err, stderr.String())
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

// exitStatus waits for cmd (up to 30 s) and returns its exit status, or
// fails if a signal killed it.
func exitStatus(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		switch {
		case err == nil:
			return 0
		case !errors.As(err, &ee):
			t.Fatal(err)
		case ee.ExitCode() < 0:
			t.Fatalf("killed by the signal (%v), want an exit status", err)
		}
		return ee.ExitCode()
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("still running 30 s after the signal")
	}
	return -1
}

// Issue 36 item 6: tune, import, synth, simulate and report exit with
// status 130 on SIGINT and 143 on SIGTERM (import and synth exited 1, tune
// 0, simulate and report died by the signal). simulate and report are
// held inside their action by a named pipe for an input, so the signal
// lands at a known point; tune is stopped once its first checkpoint is
// written, which it keeps. (import and synth: TestInterruptLeavesNoTempFiles.)
func TestSignalExitStatus(t *testing.T) {
	base := t.TempDir()
	bin := buildBinary(t, base)
	fifo := filepath.Join(base, "trace.swf")
	runDir := filepath.Join(base, "run")
	if err := os.Mkdir(runDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, filepath.Join(runDir, "run.json")} {
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Skipf("no named pipe: %v", err)
		}
	}
	trace := writeJobs(t, base, 300)
	for _, c := range []struct {
		name string
		sig  syscall.Signal
		want int
		args []string
	}{
		{"simulate SIGINT", syscall.SIGINT, 130, []string{"simulate", "--trace", fifo, "--policy", "idle-timeout", "--nodes", "4"}},
		{"simulate SIGTERM", syscall.SIGTERM, 143, []string{"simulate", "--trace", fifo, "--policy", "idle-timeout", "--nodes", "4"}},
		{"report SIGINT", syscall.SIGINT, 130, []string{"report", runDir}},
		{"report SIGTERM", syscall.SIGTERM, 143, []string{"report", runDir}},
		{"tune SIGTERM", syscall.SIGTERM, 143, []string{"--quiet", "tune", "--trace", trace, "--policy", "idle-timeout",
			"--population", "400", "--islands", "1", "--generations", "50", "--seed", "3", "--no-report", "-o", filepath.Join(base, "tune")}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(bin, c.args...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			if c.args[1] == "tune" {
				waitFile(t, filepath.Join(base, "tune", tuner.CheckpointJSON), time.Minute, nil)
			} else {
				time.Sleep(500 * time.Millisecond) // blocked opening the pipe
			}
			if err := cmd.Process.Signal(c.sig); err != nil {
				t.Fatal(err)
			}
			if got := exitStatus(t, cmd); got != c.want {
				t.Errorf("exit status %d, want %d; stderr %q", got, c.want, stderr.String())
			}
			if !strings.Contains(stderr.String(), "interrupted") {
				t.Errorf("stderr %q does not say interrupted", stderr.String())
			}
			if c.args[1] == "tune" {
				if ck := readCheckpoint(t, filepath.Join(base, "tune")); ck.CacheEntries == 0 {
					t.Error("the interrupted tune kept no evaluation")
				}
			}
		})
	}
}
