//go:build long

package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// memoryJobs is the size of the synthetic trace of the memory checks.
const memoryJobs = 5_000_000

// TestMemoryPerJob5M replays and inspects a 5-million-job synthetic trace
// in a child process and checks the peak resident memory per job (issue
// 22: at most 100 bytes), then replays it under a 1 GiB address-space
// limit (ulimit -v 1048576). The binary is built without cgo: glibc's
// per-thread malloc arenas (64 MB of address space each) would count
// against the limit. Run: go test -tags long -run Memory ./cmd/ecotune/
func TestMemoryPerJob5M(t *testing.T) {
	dir := t.TempDir()
	bin := buildCgoFree(t, dir)
	trace := filepath.Join(dir, "5m.parquet")
	if out, err := exec.Command(bin, "synth", "--jobs", "5000000", "--nodes", "128", "-o", trace).CombinedOutput(); err != nil {
		t.Fatalf("synth: %v\n%s", err, out)
	}
	for _, args := range [][]string{{"simulate", trace}, {"inspect", trace}} {
		t.Run(args[0], func(t *testing.T) {
			cmd := exec.Command(bin, args...)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%v: %v\n%s", args, err, out)
			}
			if !strings.Contains(string(out), "5000000") {
				t.Fatalf("%v: no job count of 5000000 in\n%s", args, out)
			}
			rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss * 1024 // kB on Linux
			perJob := float64(rss) / memoryJobs
			t.Logf("%s: peak RSS %d MB, %.1f bytes a job", args[0], rss>>20, perJob)
			if perJob > 100 {
				t.Errorf("%s: peak RSS %.1f bytes a job, more than 100", args[0], perJob)
			}
		})
	}
	t.Run("simulate-ulimit-1GiB", func(t *testing.T) {
		out, err := exec.Command("sh", "-c", `ulimit -v 1048576 && exec "$0" simulate "$1"`, bin, trace).CombinedOutput()
		if err != nil {
			head, _, _ := strings.Cut(string(out), "\n")
			t.Fatalf("simulate under ulimit -v 1048576: %v: %s", err, head)
		}
	})
}
