package datasets

import (
	"errors"
	"path/filepath"
	"reflect"
	"testing"
)

// TestScanParquetFileMatchesRead checks that streaming a Parquet trace
// hands over exactly the jobs ReadParquetFile returns, in order, in
// batches of bounded size, and that InspectFile's streamed statistics
// equal Inspect of the whole trace (field by field, floats exactly).
func TestScanParquetFileMatchesRead(t *testing.T) {
	for _, jobs := range []int{1, 3, 4096, 10_001} {
		path := filepath.Join(t.TempDir(), "t.parquet")
		if _, err := WriteSynth(path, SynthOptions{Jobs: jobs, Nodes: 64, Seed: uint64(jobs)}, false); err != nil {
			t.Fatal(err)
		}
		whole, err := ReadParquetFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var got []Job
		var meta Meta
		var rows int64
		err = ScanParquetFile(path, func(m Meta, n int64) error {
			meta, rows = m, n
			return nil
		}, func(batch []Job) error {
			if len(batch) > parquetBatch {
				t.Errorf("%d jobs: a batch of %d, more than %d", jobs, len(batch), parquetBatch)
			}
			got = append(got, batch...)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if rows != int64(jobs) || !reflect.DeepEqual(meta, whole.Meta) {
			t.Errorf("%d jobs: start saw %d rows, meta equal %v", jobs, rows, reflect.DeepEqual(meta, whole.Meta))
		}
		if !reflect.DeepEqual(got, whole.Jobs) {
			t.Errorf("%d jobs: the streamed jobs differ from ReadParquetFile's", jobs)
		}
		m, n, err := ReadParquetFileMeta(path)
		if err != nil || n != int64(jobs) || !reflect.DeepEqual(m, whole.Meta) {
			t.Errorf("%d jobs: ReadParquetFileMeta = %d rows, %v", jobs, n, err)
		}
		streamed, err := InspectFile(path, ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if want := Inspect(whole); !reflect.DeepEqual(streamed, want) {
			t.Errorf("%d jobs: InspectFile = %+v, Inspect = %+v", jobs, streamed, want)
		}
	}
}

// TestScanParquetFileStops checks that an error from fn stops the scan
// and comes back (wrapped with the path).
func TestScanParquetFileStops(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.parquet")
	if _, err := WriteSynth(path, SynthOptions{Jobs: 20_000, Nodes: 64, Seed: 1}, false); err != nil {
		t.Fatal(err)
	}
	stop := errors.New("enough")
	seen := 0
	err := ScanParquetFile(path, func(Meta, int64) error { return nil }, func(batch []Job) error {
		seen += len(batch)
		return stop
	})
	if !errors.Is(err, stop) || seen == 0 || seen >= 20_000 {
		t.Errorf("err %v after %d jobs, want %v after the first batch", err, seen, stop)
	}
}
