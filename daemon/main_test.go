package daemon

import (
	"flag"
	"os"
	"testing"
)

// TestMain lets the live tests, which mostly wait on Slurm, run side by
// side on a small machine: at least four parallel tests unless -parallel
// is given. Each runs its own loopback cluster.
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if p := flag.Lookup("test.parallel"); !set && p != nil && p.Value.(flag.Getter).Get().(int) < 4 {
		p.Value.Set("4")
	}
	os.Exit(m.Run())
}
