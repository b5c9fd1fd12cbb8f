//go:build linux

package sim_test

import (
	"runtime"
	"syscall"
	"time"
)

// threadCPU returns the CPU time of the calling OS thread (the caller
// locks the goroutine to it): on a shared machine it measures the work of
// a benchmark, not the time others took.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	const rusageThread = 1
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func lockThread() func() {
	runtime.LockOSThread()
	return runtime.UnlockOSThread
}
