package datasets_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/ecotune/ecotune/datasets"
)

// The embedded default trace needs no files.
func ExampleDefault() {
	t, err := datasets.Default()
	if err != nil {
		log.Fatal(err)
	}
	first := t.Jobs[0]
	fmt.Println(t.Meta.Name, len(t.Jobs), "jobs on", t.Meta.Nodes, "nodes")
	fmt.Println("first job:", first.ID, "submitted at", first.Submit, "ran", first.Run, "s on", first.Procs, "procs")
	// Output:
	// NASA-iPSC-1993-3.1-cln 18239 jobs on 128 nodes
	// first job: 1 submitted at 749458803 ran 1451 s on 128 procs
}

// Open reads any supported log; doubtful jobs are dropped or adjusted by
// documented rules and counted.
func ExampleOpen() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "tiny.swf")
	os.WriteFile(path, []byte(`; MaxNodes: 8
; UnixStartTime: 1000000000
2 60 5 300 4 -1 -1 4 600 -1 1 7 1 -1 1 -1 -1 -1
1 0 0 100 -1 -1 -1 2 200 -1 1 7 1 -1 1 -1 -1 -1
3 90 -1 -1 2 -1 -1 2 200 -1 5 8 1 -1 1 -1 -1 -1
`), 0o644)
	t, err := datasets.Open(path, datasets.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	for _, j := range t.Jobs {
		fmt.Println(j.ID, j.Submit, j.Run, j.Procs)
	}
	fmt.Println("skipped:", t.Meta.Skipped, "adjusted:", t.Meta.Adjusted)
	// Output:
	// 1 1000000000 100 2
	// 2 1000000060 300 4
	// skipped: map[run_unknown:1] adjusted: map[procs_from_requested:1]
}

// A chronological holdout split: the first 70 % of the jobs train.
func ExampleSplit() {
	t, _ := datasets.Default()
	train, test, err := datasets.Split(t, datasets.SplitOptions{Train: 0.7})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(train.Jobs), len(test.Jobs))
	// Output: 12767 5472
}

// Inspect summarises a trace.
func ExampleInspect() {
	t, _ := datasets.Default()
	s := datasets.Inspect(t)
	fmt.Printf("%d jobs over %.1f days, utilization %.3f, median size %d\n",
		s.Jobs, float64(s.SpanS)/86400, s.Utilization, s.ProcsQuantiles.P50)
	// Output: 18239 jobs over 92.0 days, utilization 0.466, median size 4
}

// A seeded synthetic workload from the Lublin–Feitelson model.
func ExampleSynthTrace() {
	t, err := datasets.SynthTrace(datasets.SynthOptions{Jobs: 1000, Nodes: 256, Seed: 42})
	if err != nil {
		log.Fatal(err)
	}
	again, _ := datasets.SynthTrace(datasets.SynthOptions{Jobs: 1000, Nodes: 256, Seed: 42})
	fmt.Println(len(t.Jobs), t.Meta.Procs, t.Jobs[999] == again.Jobs[999])
	// Output: 1000 256 true
}
