//go:build long

package datasets

import (
	"io"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkSWF10M parses a 10-million-job synthetic SWF log from a file
// (written once, about 650 MB): go test -tags long -run '^$' -bench SWF10M ./datasets/
func BenchmarkSWF10M(b *testing.B) {
	path := filepath.Join(b.TempDir(), "10m.swf")
	if _, err := WriteSynth(path, SynthOptions{Jobs: 10_000_000, Nodes: 1024, Seed: 1}, false); err != nil {
		b.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	benchmarkSWF(b, func() io.Reader {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { f.Close() })
		return f
	}, st.Size())
}
