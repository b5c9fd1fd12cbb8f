package tuner_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/sim"
	"github.com/ecotune/ecotune/tuner"
	"github.com/ecotune/ecotune/tuner/search"
)

// Tune idle-timeout on the first 2000 jobs of the embedded trace with a
// tiny budget: the run directory holds the front, its manifest and the
// checkpoint a resume continues from.
func ExampleTune() {
	tr, err := datasets.Default()
	if err != nil {
		fmt.Println(err)
		return
	}
	tr = &datasets.Trace{Meta: tr.Meta, Jobs: tr.Jobs[:2000]}
	dir, err := os.MkdirTemp("", "tune-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	o := tuner.Options{
		Policy:   "idle-timeout",
		Trace:    tr,
		Sim:      sim.Options{Scheduler: sim.EASY},
		Settings: search.Settings{Generations: 2, Seed: 1, Workers: 1},
		Method:   search.NSGA2{Population: 8, Islands: 1},
	}
	out, err := tuner.Tune(context.Background(), o, run.Target{Dir: filepath.Join(dir, "run")})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("generations:", out.Meta.Generations, "front:", len(out.Front.Solutions) > 0)
	for _, f := range []string{tuner.FrontJSON, tuner.FrontCSV, tuner.RunJSON, tuner.CheckpointJSON} {
		_, err := os.Stat(filepath.Join(dir, "run", f))
		fmt.Println(f, err == nil)
	}
	// Output:
	// generations: 2 front: true
	// front.json true
	// front.csv true
	// run.json true
	// checkpoint.json true
}
