package datasets

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/ecotune/ecotune/internal/atomicfile"
	"io"
	"os"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
)

// The canonical trace file is Parquet, one row per job (the columns are
// the parquet tags of Job), zstd-compressed, with the Meta as JSON under
// the key-value metadata key parquetMetaKey.
const (
	parquetMetaKey    = "ecotune.meta"
	parquetVersionKey = "ecotune.trace_version"
	parquetVersion    = "1"
	parquetRowGroup   = 1 << 17 // rows per row group: bounds the writer's memory
	parquetBatch      = 4096    // rows handed to the writer or read at a time
)

var parquetMagic = []byte("PAR1")

// WriteParquet writes t to w as a canonical Parquet trace.
func WriteParquet(w io.Writer, t *Trace) error {
	pw := newParquetJobWriter(w, &parquet.Zstd, parquetRowGroup)
	for i := 0; i < len(t.Jobs); i += parquetBatch {
		if _, err := pw.Write(t.Jobs[i:min(i+parquetBatch, len(t.Jobs))]); err != nil {
			return fmt.Errorf("parquet: %w", err)
		}
	}
	return closeParquetJobWriter(pw, t.Meta)
}

func newParquetJobWriter(w io.Writer, codec compress.Codec, rowGroup int64) *parquet.GenericWriter[Job] {
	return parquet.NewGenericWriter[Job](w,
		parquet.Compression(codec),
		parquet.MaxRowsPerRowGroup(rowGroup),
	)
}

// closeParquetJobWriter stores meta in the file's key-value metadata and
// writes the footer.
func closeParquetJobWriter(pw *parquet.GenericWriter[Job], meta Meta) error {
	js, err := json.Marshal(meta)
	if err != nil {
		return fmt.Errorf("parquet: metadata: %w", err)
	}
	pw.SetKeyValueMetadata(parquetMetaKey, string(js))
	pw.SetKeyValueMetadata(parquetVersionKey, parquetVersion)
	if err := pw.Close(); err != nil {
		return fmt.Errorf("parquet: %w", err)
	}
	return nil
}

// ReadParquet reads a canonical Parquet trace of size bytes from r. A
// damaged file is an error, even where the Parquet library would panic.
func ReadParquet(r io.ReaderAt, size int64) (*Trace, error) {
	t := &Trace{}
	err := scanParquet(r, size, func(m Meta, rows int64) error {
		t.Meta = m
		t.Jobs = make([]Job, 0, min(rows, size))
		return nil
	}, func(batch []Job) error {
		t.Jobs = append(t.Jobs, batch...)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// scanParquet reads a canonical Parquet trace of size bytes from r a
// batch of jobs at a time, in file order, checking what ReadParquet
// checks: start sees the metadata and the footer's row count before any
// job, each checked batch then goes to fn (the slice is reused: fn keeps
// no reference to it). Memory does not grow with the trace. A damaged
// file is an error, even where the Parquet library would panic. A file of
// the canonical schema is read column by column (readColumns), any other
// row by row (ScanParquetRows).
func scanParquet(r io.ReaderAt, size int64, start func(Meta, int64) error, fn func([]Job) error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("parquet: damaged file: %v", p)
		}
	}()
	f, err := OpenParquet(r, size)
	if err != nil {
		return err
	}
	meta, err := parquetMeta(f)
	if err != nil {
		return err
	}
	// The footer's row count bounds what is read (OpenParquet checked it
	// against the file's size).
	rows := f.NumRows()
	if rows > MaxJobs {
		return fmt.Errorf("parquet: the footer says %d rows, more than %d jobs: %w", rows, MaxJobs, ErrRange)
	}
	if err := CheckMachine(int64(meta.Nodes), int64(meta.Procs)); err != nil {
		return fmt.Errorf("parquet: machine size in the metadata: %w", err)
	}
	if err := start(meta, rows); err != nil {
		return err
	}
	checked := func(done int64, jobs []Job) error {
		if err := checkJobsFrom(done, jobs); err != nil {
			return fmt.Errorf("parquet: %w", err)
		}
		return fn(jobs)
	}
	if cols, ok := canonicalColumns(f.Schema()); ok {
		return readColumns(f, cols, make([]Job, min(parquetBatch, max(rows, 1))), checked)
	}
	// Any other schema whose columns name Job fields reads row by row (a
	// missing column is a zero field).
	return ScanParquetRows(f, checked)
}

// ScanParquetRows reads the rows of f, a file OpenParquet opened, as
// values of P with parquet-go's row reader, a batch at a time in file
// order, and hands each batch to fn with the number of rows before it (the
// slice is reused: fn keeps no reference to it). fn's errors are returned
// as they are; the reader's begin "parquet:", and are returned for more
// or fewer rows than the footer's count and for a panic of parquet-go.
// No buffer is sized beyond the batch: memory follows the rows read.
// Every dictionary page's checksum is checked first (checkDictionaries).
func ScanParquetRows[P any](f *parquet.File, fn func(done int64, rows []P) error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("parquet: damaged file: %v", p)
		}
	}()
	if err := checkDictionaries(f); err != nil {
		return err
	}
	rows := f.NumRows()
	pr := parquet.NewGenericReader[P](f)
	defer pr.Close()
	// parquet-go's Read works in proportion to the slice it is given, not
	// to the rows it returns: ask for no more rows than remain (a short
	// trace reads far faster so, measured in docs/performance.md), for one
	// when none remain (to see the end), and for 64 at first, doubling
	// while reads fill the slice
	// (a damaged file that yields a row at a time costs little a row).
	batch := make([]P, min(parquetBatch, max(rows, 1)))
	next := min(len(batch), 64)
	var done int64
	for {
		want := batch[:next]
		if rest := rows - done; rest < int64(len(want)) {
			want = want[:max(rest, 1)]
		}
		n, err := pr.Read(want)
		if done+int64(n) > rows {
			return fmt.Errorf("parquet: more rows than the footer's %d", rows)
		}
		if n > 0 {
			if ferr := fn(done, want[:n]); ferr != nil {
				return ferr
			}
		}
		done += int64(n)
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("parquet: row %d: %w", done, err)
		}
		if n == 0 {
			return fmt.Errorf("parquet: row %d: %w", done, io.ErrNoProgress)
		}
		if n == len(want) {
			next = min(2*next, len(batch))
		}
	}
	if done != rows {
		return fmt.Errorf("parquet: %d rows, the footer says %d", done, rows)
	}
	return nil
}

// ScanParquetFile reads the canonical Parquet trace at path as
// ReadParquetFile does, handing it over a batch at a time (see
// scanParquet): start sees the metadata and the row count, fn each batch
// of jobs in trace order (a reused slice). Memory does not grow with the
// trace.
func ScanParquetFile(path string, start func(Meta, int64) error, fn func([]Job) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if err := scanParquet(f, st.Size(), start, fn); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// OpenParquet opens the Parquet file of size bytes in r, after checking
// what parquet-go trusts: the magic bytes, that the footer fits in the
// file, and that the footer's row count is one the file can hold. Pages
// that would yield more rows than the footer's count (run-length encoding
// makes billions of rows of a few bytes) are damage, not a reason to read
// on: a real trace takes bytes a row (1,000,000 identical jobs take 0.04
// bytes a row), and 1,024 rows a byte is far beyond any. A damaged file
// is an error, even where parquet-go would panic.
func OpenParquet(r io.ReaderAt, size int64) (f *parquet.File, err error) {
	defer func() {
		if p := recover(); p != nil {
			f, err = nil, fmt.Errorf("parquet: damaged file: %v", p)
		}
	}()
	if err := checkParquetFooter(r, size); err != nil {
		return nil, err
	}
	if f, err = parquet.OpenFile(r, size); err != nil {
		return nil, fmt.Errorf("parquet: %w", err)
	}
	if rows := f.NumRows(); rows < 0 || rows > 1024*size+4096 {
		return nil, fmt.Errorf("parquet: the footer says %d rows, more than a file of %d bytes holds: %w", rows, size, ErrRange)
	}
	return f, nil
}

// checkParquetFooter checks the magic bytes and that the footer length
// fits in the file, which the Parquet library trusts.
func checkParquetFooter(r io.ReaderAt, size int64) error {
	var tail [8]byte
	if size < 12 {
		return fmt.Errorf("parquet: %d bytes: too short", size)
	}
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return fmt.Errorf("parquet: %w", err)
	}
	if !bytes.Equal(tail[4:], parquetMagic) {
		return errors.New("parquet: no magic bytes at the end: not a Parquet file, or truncated")
	}
	if footer := int64(binary.LittleEndian.Uint32(tail[:4])); footer > size-12 {
		return fmt.Errorf("parquet: footer of %d bytes in a file of %d: damaged", footer, size)
	}
	return nil
}

// parquetMeta decodes the trace metadata of a Parquet file.
func parquetMeta(f *parquet.File) (Meta, error) {
	js, ok := f.Lookup(parquetMetaKey)
	if !ok {
		return Meta{}, fmt.Errorf("parquet: no %q metadata: not an ecotune trace", parquetMetaKey)
	}
	var m Meta
	if err := json.Unmarshal([]byte(js), &m); err != nil {
		return Meta{}, fmt.Errorf("parquet: metadata: %w", err)
	}
	if err := ValidateLayout(m.Layout); err != nil {
		return Meta{}, fmt.Errorf("parquet: metadata: %w", err)
	}
	return m, nil
}

// ReadParquetFile reads the canonical Parquet trace at path.
func ReadParquetFile(path string) (*Trace, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	t, err := ReadParquet(f, st.Size())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// WriteParquetFile writes t to path atomically; an existing file is
// replaced only when force is set (else the error is ErrOutputExist).
func WriteParquetFile(path string, t *Trace, force bool) error {
	out, err := CreateAtomic(path, force)
	if err != nil {
		return err
	}
	if err := WriteParquet(out, t); err != nil {
		out.Abort()
		return fmt.Errorf("%s: %w", path, err)
	}
	return out.Commit()
}

// IsParquetFile reports whether the file at path starts with the Parquet
// magic bytes.
func IsParquetFile(path string) (bool, error) {
	return isParquetFile(path)
}

// isParquetFile reports whether the file at path starts with the Parquet
// magic bytes.
func isParquetFile(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	magic := make([]byte, len(parquetMagic))
	if _, err := io.ReadFull(f, magic); err != nil {
		return false, nil
	}
	return bytes.Equal(magic, parquetMagic), nil
}

// An AtomicFile is an output written to a temporary file in the target's
// directory and renamed over the target by Commit, so that readers never
// see half a file (internal/atomicfile: the module's one atomic writer;
// a symbolic link at the target is replaced, never followed).
type AtomicFile struct {
	*atomicfile.File
	target string
}

// CreateAtomic starts writing path. Unless force is set it fails with
// ErrOutputExist when path exists.
func CreateAtomic(path string, force bool) (*AtomicFile, error) {
	f, err := atomicfile.Create(path, atomicfile.Options{NoReplace: !force})
	if err != nil {
		return nil, outputErr(path, err)
	}
	return &AtomicFile{File: f, target: path}, nil
}

// checkOutput fails with ErrOutputExist when path exists, unless force.
func checkOutput(path string, force bool) error {
	if force {
		return nil
	}
	if _, err := os.Lstat(path); err == nil {
		return fmt.Errorf("%s: %w", path, ErrOutputExist)
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// outputErr maps atomicfile.ErrExists to ErrOutputExist.
func outputErr(path string, err error) error {
	if errors.Is(err, atomicfile.ErrExists) {
		return fmt.Errorf("%s: %w", path, ErrOutputExist)
	}
	return err
}

// Commit syncs and closes the temporary file and renames it to the target.
func (a *AtomicFile) Commit() error {
	return outputErr(a.target, a.File.Commit())
}

// Abort closes and removes the temporary file.
func (a *AtomicFile) Abort() {
	a.File.Abort()
}

// ReadParquetFileMeta reads the metadata of the canonical Parquet trace
// at path, and its row count, without reading the jobs (the footer only).
func ReadParquetFileMeta(path string) (Meta, int64, error) {
	var meta Meta
	var rows int64
	errStop := errors.New("stop")
	err := ScanParquetFile(path, func(m Meta, n int64) error {
		meta, rows = m, n
		return errStop
	}, func([]Job) error { return nil })
	if err != nil && !errors.Is(err, errStop) {
		return Meta{}, 0, err
	}
	return meta, rows, nil
}

// checkDictionaries reads the first pages of every column chunk that has
// a dictionary page, which checks the dictionary page's CRC, if it has
// one, as it checks every data page's. parquet-go's row reader does not:
// it loads a chunk's dictionary without its checksum, so a damaged
// dictionary gave wrong names without an error ("batc^" for "batch").
// The cost is a page per column chunk.
func checkDictionaries(f *parquet.File) error {
	md := f.Metadata()
	for g, rg := range f.RowGroups() {
		for c, cc := range rg.ColumnChunks() {
			if g >= len(md.RowGroups) || c >= len(md.RowGroups[g].Columns) || md.RowGroups[g].Columns[c].MetaData.DictionaryPageOffset == 0 {
				continue
			}
			if err := readFirstPage(cc); err != nil && !errors.Is(err, io.EOF) {
				return fmt.Errorf("parquet: row group %d: column %s: %w", g, strings.Join(f.Schema().Columns()[c], "."), err)
			}
		}
	}
	return nil
}

// readFirstPage reads cc's first page and with it its dictionary page.
func readFirstPage(cc parquet.ColumnChunk) error {
	pages := cc.Pages()
	defer pages.Close()
	p, err := pages.ReadPage()
	if err == nil {
		parquet.Release(p)
	}
	return err
}
