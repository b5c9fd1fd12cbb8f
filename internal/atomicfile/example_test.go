package atomicfile_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/ecotune/ecotune/internal/atomicfile"
)

func Example() {
	dir, _ := os.MkdirTemp("", "atomicfile")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "run.json")
	if err := atomicfile.WriteFile(path, []byte("{}\n"), atomicfile.Options{}); err != nil {
		fmt.Println(err)
	}
	b, _ := os.ReadFile(path)
	fmt.Printf("%s", b)
	// Output: {}
}
