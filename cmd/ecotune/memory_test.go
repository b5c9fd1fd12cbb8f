package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The address-space model of `simulate` that the 1 GiB promise for a
// 5-million-job trace rests on (docs/performance.md): the Go runtime's own
// reservation (the floor, measured, about 744 MB on linux/amd64 with Go
// 1.26), plus a fixed part for the binary's work beyond it, plus a part
// proportional to the jobs. At 5,000,000 jobs the model stays within
// 1 GiB for a floor of up to 760 MB.
const (
	addressFixedKB = 64 << 10 // 64 MiB
	addressPerJob  = 40       // bytes of address space a job
)

// limitKB is the model's address-space limit, in kB (ulimit -v's unit),
// for a floor of floorKB and jobs jobs.
func limitKB(floorKB, jobs int) int { return floorKB + addressFixedKB + jobs*addressPerJob/1024 }

// TestAddressModelKeepsPromise checks that the model keeps the documented
// promise: 5 million jobs within 1 GiB on a floor as measured.
func TestAddressModelKeepsPromise(t *testing.T) {
	const measuredFloorKB = 761856 // linux/amd64, Go 1.26, CGO_ENABLED=0
	if got := limitKB(measuredFloorKB, 5_000_000); got > 1<<20 {
		t.Fatalf("model: 5M jobs need %d kB over a floor of %d kB, more than 1 GiB", got, measuredFloorKB)
	}
}

// TestSimulateAddressSpaceProportional replays a 1-million-job synthetic
// trace under an address-space limit (ulimit -v) proportional to its size:
// the measured floor of this binary (the smallest limit under which it
// runs at all) plus the model's fixed and per-job parts. The long test
// TestMemoryPerJob5M checks the 5M-job promise itself. Built without cgo,
// whose per-thread malloc arenas would count against the limit.
func TestSimulateAddressSpaceProportional(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("ulimit -v is measured on Linux")
	}
	if testing.Short() {
		t.Skip("builds a binary and a 1M-job trace")
	}
	const jobs = 1_000_000
	dir := t.TempDir()
	bin := buildCgoFree(t, dir)
	trace := filepath.Join(dir, "1m.parquet")
	if out, err := exec.Command(bin, "synth", "--jobs", fmt.Sprint(jobs), "--nodes", "128", "-o", trace).CombinedOutput(); err != nil {
		t.Fatalf("synth: %v\n%s", err, out)
	}
	floor := addressFloorKB(t, bin)
	limit := limitKB(floor, jobs)
	out, err := runUnderLimit(limit, bin, "simulate", trace)
	if err != nil {
		head, _, _ := strings.Cut(out, "\n")
		t.Fatalf("simulate of %d jobs under ulimit -v %d (floor %d kB + %d kB + %d B a job): %v: %s",
			jobs, limit, floor, addressFixedKB, addressPerJob, err, head)
	}
	if !strings.Contains(out, fmt.Sprint(jobs)) {
		t.Fatalf("simulate: no job count of %d in\n%s", jobs, out)
	}
	t.Logf("floor %d kB; simulate of %d jobs ran under %d kB", floor, jobs, limit)
}

// buildCgoFree builds this command without cgo into dir: glibc's
// per-thread malloc arenas (64 MB of address space each) would count
// against an address-space limit.
func buildCgoFree(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "ecotune")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// addressFloorKB bisects, to 4 MiB, the smallest address-space limit
// under which bin answers `policies`: what the runtime reserves before
// any work.
func addressFloorKB(t *testing.T, bin string) int {
	t.Helper()
	lo, hi := 64<<10, 2<<20 // kB
	if _, err := runUnderLimit(hi, bin, "policies"); err != nil {
		t.Fatalf("policies under ulimit -v %d: %v", hi, err)
	}
	for hi-lo > 4<<10 {
		mid := (lo + hi) / 2
		if _, err := runUnderLimit(mid, bin, "policies"); err == nil {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// runUnderLimit runs bin with args under ulimit -v kb, returning its
// combined output.
func runUnderLimit(kb int, bin string, args ...string) (string, error) {
	script := fmt.Sprintf(`ulimit -v %d && exec "$@"`, kb)
	out, err := exec.Command("sh", append([]string{"-c", script, "sh", bin}, args...)...).CombinedOutput()
	return string(out), err
}
