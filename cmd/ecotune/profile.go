package main

import (
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/urfave/cli/v2"
)

// cpuProfileFlag names the file a CPU profile of the whole command is
// written to (for `go tool pprof`, or as default.pgo for a PGO build).
var cpuProfileFlag = &cli.StringFlag{Name: "cpuprofile", Usage: "write a CPU profile of the command to `FILE`"}

// startProfile starts the CPU profile the flag asks for and returns the
// function that stops it and closes the file.
func startProfile(c *cli.Context) (stop func() error, err error) {
	path := c.String(cpuProfileFlag.Name)
	if path == "" {
		return func() error { return nil }, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("cpu profile %s: %w", path, err)
	}
	return func() error {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			return fmt.Errorf("cpu profile: %w", err)
		}
		return nil
	}, nil
}
