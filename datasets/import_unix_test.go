//go:build unix

package datasets

import (
	"os"
	"path/filepath"
	"reflect"
	"syscall"
	"testing"
)

// A log read from a pipe (a FIFO here) cannot be read twice: Import sorts
// it in runs at once, and writes the trace of the same log in a file.
func TestImportFromPipe(t *testing.T) {
	dir := t.TempDir()
	content := swfLog("; MaxProcs: 64\n", 3000, map[int]string{2999: "2999 5 5 100 4 -1 -1 4 200 -1 1 7 3 -1 1 -1 -1 -1"})
	file := writeTemp(t, "log.swf", content)
	fifo := filepath.Join(dir, "log.swf")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if rereadable([]string{fifo}) || !rereadable([]string{file}) {
		t.Fatal("rereadable: a FIFO is, or a file is not")
	}
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		f.WriteString(content)
		f.Close()
	}()
	out := filepath.Join(t.TempDir(), "t.parquet")
	if _, err := Import([]string{fifo}, out, ImportOptions{RunJobs: 500}); err != nil {
		t.Fatal(err)
	}
	got, err := ReadParquetFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want, err := ReadLogs([]string{file}, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got.Meta.Sources, want.Meta.Sources = nil, nil // other paths
	if !reflect.DeepEqual(got, want) {
		t.Errorf("from the pipe %+v\nfrom the file %+v", got.Meta, want.Meta)
	}
}
