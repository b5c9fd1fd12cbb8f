package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

func tempFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	return names
}

// startUntilTemp starts the binary with args in dir and waits until
// there are more than before temporary files there (then the command is
// in mid-write).
func startUntilTemp(t *testing.T, bin, dir string, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	before := len(tempFiles(t, dir))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for len(tempFiles(t, dir)) <= before {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("ecotune %s: no temporary file within 60 s (stderr %q)", strings.Join(args, " "), stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	return cmd, &stderr
}

// TestInterruptLeavesNoTempFiles reproduces issue 22's item 6 with the
// built binary: SIGINT or SIGTERM during import and during synth used to
// leave their temporary files (up to gigabytes); now the command exits
// 130 or 143 (issue 36) saying so, with no output and no temporary file left. A
// command killed outright (SIGKILL) leaves them, and the next one into the
// same directory removes them: the runs directory of a dead process at
// once, a temporary output once an hour old.
func TestInterruptLeavesNoTempFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and writes about 100 MB")
	}
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT to send")
	}
	bin := buildBinary(t, t.TempDir())
	in := t.TempDir()
	// 800,000 jobs: the import spills runs (262,144 jobs each) and takes seconds.
	if out, err := exec.Command(bin, "-q", "synth", "--jobs", "800000", "--nodes", "256", "-o", filepath.Join(in, "big.swf")).CombinedOutput(); err != nil {
		t.Fatalf("synth: %v\n%s", err, out)
	}
	for _, c := range []struct {
		name string
		sig  syscall.Signal
		args []string
	}{
		{"import SIGINT", syscall.SIGINT, []string{"import", filepath.Join(in, "big.swf"), "-o", "t.parquet"}},
		{"import SIGTERM", syscall.SIGTERM, []string{"import", filepath.Join(in, "big.swf"), "-o", "t.parquet"}},
		{"synth SIGINT", syscall.SIGINT, []string{"synth", "--jobs", "20000000", "-o", "s.swf.gz"}},
		{"synth parquet SIGTERM", syscall.SIGTERM, []string{"synth", "--jobs", "20000000", "-o", "s.parquet"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			cmd, stderr := startUntilTemp(t, bin, dir, c.args...)
			cmd.Process.Signal(c.sig)
			start := time.Now()
			err := cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 128+int(c.sig) || !strings.Contains(stderr.String(), "interrupted") {
				t.Errorf("exit %v, stderr %q: want exit status %d saying interrupted", err, stderr.String(), 128+int(c.sig))
			}
			if took := time.Since(start); took > 2*time.Second {
				t.Errorf("stopped %v after the signal", took)
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 0 {
				t.Errorf("left %v", entries)
			}
		})
	}
	t.Run("SIGKILL then next run", func(t *testing.T) {
		dir := t.TempDir()
		cmd, _ := startUntilTemp(t, bin, dir, "synth", "--jobs", "20000000", "-o", "t.parquet")
		cmd.Process.Kill()
		cmd.Wait()
		cmd, _ = startUntilTemp(t, bin, dir, "import", filepath.Join(in, "big.swf"), "-o", "t.parquet")
		cmd.Process.Kill()
		cmd.Wait()
		left := tempFiles(t, dir)
		if len(left) != 2 {
			t.Fatalf("killed import and synth left %v, want a runs directory and an output", left)
		}
		// The next run removes the dead import's runs directory, but not
		// yet the temporary output: a live writer might own it.
		small := filepath.Join(in, "small.swf")
		if out, err := exec.Command(bin, "-q", "synth", "--jobs", "100", "-o", small, "--force").CombinedOutput(); err != nil {
			t.Fatalf("synth: %v\n%s", err, out)
		}
		run := func() {
			if out, err := exec.Command(bin, "-q", "import", small, "-o", filepath.Join(dir, "t.parquet"), "--force").CombinedOutput(); err != nil {
				t.Fatalf("import: %v\n%s", err, out)
			}
		}
		run()
		if got := tempFiles(t, dir); len(got) != 1 || !strings.HasPrefix(got[0], ".t.parquet.tmp") {
			t.Fatalf("after the next import: %v, want only the recent temporary output", got)
		}
		old := time.Now().Add(-2 * time.Hour)
		if err := os.Chtimes(filepath.Join(dir, tempFiles(t, dir)[0]), old, old); err != nil {
			t.Fatal(err)
		}
		run()
		if got := tempFiles(t, dir); len(got) != 0 {
			t.Fatalf("after an import with a 2-hour-old temporary output: %v", got)
		}
	})
}
