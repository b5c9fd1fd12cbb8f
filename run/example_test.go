package run_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ecotune/ecotune/internal/atomicfile"
	"github.com/ecotune/ecotune/run"
)

// A run's split is typed; run.json holds its text.
func ExampleParseSplit() {
	s, err := run.ParseSplit("chronological jobs 0:1000 train 1000:2000 test")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Jobs.Cut, s.HasTest())
	fmt.Println(run.Holdout(0.7))
	fmt.Println(run.Dir("runs/x").Manifest())
	// Output:
	// 1000 true
	// chronological jobs 0.7
	// runs/x/run.json
}

// A run directory is opened by its path; everything beneath goes through
// the Root, which refuses a symbolic link at any component.
func ExampleRoot() {
	dir, _ := os.MkdirTemp("", "run")
	defer os.RemoveAll(dir)
	r, err := run.OpenRoot(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer r.Close()
	rep, err := r.MkSub(run.ReportDir)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rep.Close()
	if err := rep.WriteFile("report.md", []byte("# report\n"), atomicfile.Options{}); err != nil {
		fmt.Println(err)
	}
	b, _ := rep.ReadFile("report.md")
	fmt.Printf("%s", b)

	os.Symlink(os.TempDir(), filepath.Join(dir, "hgfs"))
	_, err = r.Sub("hgfs")
	fmt.Println(strings.ReplaceAll(err.Error(), dir, "R"))
	// Output:
	// # report
	// run: R/hgfs is a symbolic link, not a directory: refusing to use it
}
