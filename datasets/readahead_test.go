package datasets

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

// A readAhead gives its source's bytes, whatever the sizes of the
// source's reads and of its own reader's, then the source's error.
func TestReadAheadBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, size := range []int{0, 1, 1000, readAheadChunk - 1, readAheadChunk, readAheadChunk + 1, 7 * readAheadChunk / 2, 3 * readAheadChunks * readAheadChunk} {
		data := make([]byte, size)
		for i := range data {
			data[i] = byte(rng.IntN(256))
		}
		sources := map[string]func() io.Reader{
			"whole":    func() io.Reader { return bytes.NewReader(data) },
			"one byte": func() io.Reader { return iotest.OneByteReader(bytes.NewReader(data)) },
			"half":     func() io.Reader { return iotest.HalfReader(bytes.NewReader(data)) },
			"data+EOF": func() io.Reader { return iotest.DataErrReader(bytes.NewReader(data)) },
		}
		for name, src := range sources {
			if size > 4*readAheadChunk && name == "one byte" {
				continue // slow, and covered by the smaller sizes
			}
			ra := newReadAhead(src())
			if err := iotest.TestReader(ra, data); err != nil {
				t.Errorf("%d bytes, %s source: %v", size, name, err)
			}
			ra.wait()
		}
	}
}

// The source's error comes after its bytes, as it is: a truncated gzip
// stream's io.ErrUnexpectedEOF is not taken for a short read.
func TestReadAheadError(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789"), readAheadChunk/5)
	boom := errors.New("boom")
	for _, tc := range []struct {
		name  string
		src   io.Reader
		bytes []byte
		want  error
	}{
		{"error after the bytes", io.MultiReader(bytes.NewReader(data), iotest.ErrReader(boom)), data, boom},
		{"unexpected EOF", io.MultiReader(bytes.NewReader(data), iotest.ErrReader(io.ErrUnexpectedEOF)), data, io.ErrUnexpectedEOF},
		{"error at once", iotest.ErrReader(boom), nil, boom},
	} {
		ra := newReadAhead(tc.src)
		got, err := io.ReadAll(ra)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: error %v, want %v", tc.name, err, tc.want)
		}
		if !bytes.Equal(got, tc.bytes) {
			t.Errorf("%s: %d bytes read, want %d", tc.name, len(got), len(tc.bytes))
		}
		if _, err := ra.Read(make([]byte, 1)); !errors.Is(err, tc.want) {
			t.Errorf("%s: read again: error %v, want %v", tc.name, err, tc.want)
		}
		ra.wait()
	}
}

// Stopping a readAhead before its source ends frees the source: wait
// returns, the source is read no further, and its reader then gets
// what was read ahead and errReadAheadStopped.
func TestReadAheadStop(t *testing.T) {
	src := &countingReader{r: bytes.NewReader(make([]byte, 100*readAheadChunk))}
	ra := newReadAhead(src)
	if _, err := io.ReadFull(ra, make([]byte, 10)); err != nil {
		t.Fatal(err)
	}
	waited := make(chan struct{})
	go func() { ra.wait(); close(waited) }()
	select {
	case <-waited:
	case <-time.After(10 * time.Second):
		t.Fatal("wait did not return")
	}
	read := src.n
	if max := int64((readAheadChunks + 1) * readAheadChunk); read > max {
		t.Errorf("source read %d bytes ahead, at most %d expected", read, max)
	}
	rest, err := io.ReadAll(ra)
	if !errors.Is(err, errReadAheadStopped) {
		t.Errorf("read after stop: error %v, want %v", err, errReadAheadStopped)
	}
	if got := int64(10 + len(rest)); got > read {
		t.Errorf("%d bytes given, the source gave %d", got, read)
	}
	if src.n != read {
		t.Errorf("the source was read after wait: %d bytes, then %d", read, src.n)
	}
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// A gzip log read with decompression ahead keeps the whole file's SHA-256
// and its jobs; a truncated one fails naming the file, as before.
func TestReadLogGzipAhead(t *testing.T) {
	path := tracePath(t, "NASA-iPSC-1993-3.1-cln.swf.gz")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(raw)
	jobs := 0
	m, err := readLogFile(path, ReadOptions{}, func(Job) error { jobs++; return nil })
	if err != nil {
		t.Fatal(err)
	}
	if got, want := m.Sources[0].SHA256, hex.EncodeToString(sum[:]); got != want {
		t.Errorf("SHA-256 %s, want %s", got, want)
	}
	// The same log decompressed by hand: the same jobs.
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	if _, err := readLog(bytes.NewReader(plain), "plain.swf", ReadOptions{}, func(Job) error { want++; return nil }); err != nil {
		t.Fatal(err)
	}
	if jobs != want || jobs == 0 {
		t.Errorf("%d jobs from the gzip log, %d from it decompressed", jobs, want)
	}
	cut := filepath.Join(t.TempDir(), "cut.swf.gz")
	if err := os.WriteFile(cut, raw[:len(raw)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = readLogFile(cut, ReadOptions{}, func(Job) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "cut.swf.gz") {
		t.Errorf("truncated gzip log: error %v, want one naming the file", err)
	}
}

// FuzzReadLogGzip: a log read gzipped, decompressed ahead of the parser,
// gives the jobs and the error it gives read plain; the gzip stream cut
// anywhere gives an error naming the file or, cut at its end, the same
// jobs, and never a panic or a hang.
func FuzzReadLogGzip(f *testing.F) {
	f.Add([]byte("; MaxNodes: 4\n; UnixStartTime: 100\n1 0 -1 5 1 -1 -1 -1 -1 -1 1 1 1 -1 1 -1 -1 -1\n"), uint16(30))
	f.Add([]byte("1 0 5 1.5 4 90.25 -1 4 200 -1 1 7 3 -1 1 -1 -1 -1\n2 x 5 1 4 -1 -1 4 200 -1 1 7 3 -1 1 -1 -1 -1\n"), uint16(0))
	f.Fuzz(func(t *testing.T, data []byte, cut uint16) {
		if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
			return // gzip already: read plain, it would be decompressed too
		}
		zipped := gzipped(t, data)
		opt := ReadOptions{Format: "swf"}
		read := func(in []byte) ([]Job, error) {
			var jobs []Job
			_, err := readLog(bytes.NewReader(in), "fuzz.swf", opt, func(j Job) error {
				jobs = append(jobs, j)
				return nil
			})
			return jobs, err
		}
		plain, plainErr := read(data)
		fromZip, zipErr := read(zipped)
		if fmt.Sprint(plainErr) != fmt.Sprint(zipErr) || !slices.Equal(plain, fromZip) {
			t.Fatalf("plain: %d jobs, %v; gzipped: %d jobs, %v", len(plain), plainErr, len(fromZip), zipErr)
		}
		short := zipped[:min(int(cut), len(zipped))]
		jobs, err := read(short)
		switch {
		case err != nil && !strings.Contains(err.Error(), "fuzz.swf"):
			t.Fatalf("cut at %d of %d: error %v does not name the file", len(short), len(zipped), err)
		case err == nil && len(short) == len(zipped) && !slices.Equal(jobs, plain):
			t.Fatalf("whole stream: %d jobs, want %d", len(jobs), len(plain))
		}
	})
}

// gzipped is data gzipped.
func gzipped(tb testing.TB, data []byte) []byte {
	tb.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(data); err != nil {
		tb.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}
