package reports

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// checkGolden compares got with testdata/name byte for byte, or rewrites
// it under -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		out := filepath.Join(t.TempDir(), name)
		os.WriteFile(out, got, 0o644)
		t.Errorf("%s differs from its golden file (got written to %s; run go test -update if the change is meant)", name, out)
	}
}
