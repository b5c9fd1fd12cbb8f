package datasets

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// BenchmarkSWF parses the decompressed SDSC-SP2 log (5.6 MB, 59,715 jobs)
// from memory: the SWF scanner alone, without gzip, validation or sorting.
func BenchmarkSWF(b *testing.B) {
	data := gunzipFile(b, tracePath(b, "SDSC-SP2-1998-4.2-cln.swf.gz"))
	benchmarkSWF(b, func() io.Reader { return bytes.NewReader(data) }, int64(len(data)))
}

func benchmarkSWF(b *testing.B, open func() io.Reader, size int64) {
	b.SetBytes(size)
	b.ReportAllocs()
	var jobs int64
	for b.Loop() {
		r, err := newSWFReader(open(), "bench.swf", ReadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		for {
			_, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			jobs++
		}
	}
	b.ReportMetric(float64(jobs)/b.Elapsed().Seconds(), "jobs/s")
}

// BenchmarkOpenSDSCSP2 is the whole import into memory: gunzip, parse,
// validate and sort.
func BenchmarkOpenSDSCSP2(b *testing.B) {
	path := tracePath(b, "SDSC-SP2-1998-4.2-cln.swf.gz")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Open(path, ReadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func gunzipFile(b *testing.B, path string) []byte {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		b.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkImport1M imports a 1-million-job synthetic SWF log (sorted by
// submit time, as most logs are) into a Parquet trace: parse, validate,
// write zstd, in one pass. It reports the process's CPU time per import
// too (cpu-s/op; all goroutines, the garbage collector's included).
func BenchmarkImport1M(b *testing.B) {
	benchmarkImport(b, false, false)
}

// BenchmarkImportGzip1M is BenchmarkImport1M from the log gzipped, as
// logs are published: decompression runs on a goroutine of its own,
// ahead of the parser.
func BenchmarkImportGzip1M(b *testing.B) {
	benchmarkImport(b, false, true)
}

// BenchmarkImportUnsorted1M is BenchmarkImport1M with the log's last job
// moved to its start: the import finds it out of order at once and sorts
// in runs (spill, merge).
func BenchmarkImportUnsorted1M(b *testing.B) {
	benchmarkImport(b, true, false)
}

func benchmarkImport(b *testing.B, unsorted, gz bool) {
	dir := b.TempDir()
	log := filepath.Join(dir, "1m.swf")
	if _, err := WriteSynth(log, SynthOptions{Jobs: 1_000_000, Nodes: 1024, Seed: 1}, false); err != nil {
		b.Fatal(err)
	}
	if unsorted {
		text, err := os.ReadFile(log)
		if err != nil {
			b.Fatal(err)
		}
		body := bytes.TrimSuffix(text, []byte("\n"))
		cut := bytes.LastIndexByte(body, '\n') + 1
		first := 0 // the first job line, after the header's comments
		for first < len(text) && text[first] == ';' {
			first += bytes.IndexByte(text[first:], '\n') + 1
		}
		moved := append(append(slices.Clip(text[:first]), text[cut:]...), text[first:cut]...)
		if err := os.WriteFile(log, moved, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	if gz {
		log = gzipFile(b, log)
	}
	out := filepath.Join(dir, "1m.parquet")
	b.ReportAllocs()
	cpu := processCPU()
	for b.Loop() {
		if _, err := Import([]string{log}, out, ImportOptions{Force: true}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(1e6*float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
	if cpu > 0 {
		b.ReportMetric((processCPU()-cpu).Seconds()/float64(b.N), "cpu-s/op")
	}
}

// gzipFile writes path gzipped beside it and returns the new file's path.
func gzipFile(b *testing.B, path string) string {
	text, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	gz := path + ".gz"
	if err := os.WriteFile(gz, gzipped(b, text), 0o644); err != nil {
		b.Fatal(err)
	}
	return gz
}
