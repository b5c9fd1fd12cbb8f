package search

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"math"
	"os"

	"github.com/ecotune/ecotune/internal/atomicfile"
	"github.com/ecotune/ecotune/internal/fingerprint"
)

// CheckpointVersion is the schema version of checkpoints this package
// writes. Version 2 added the fingerprint's fields, the record sizes and
// the checksums.
const CheckpointVersion = 2

// CheckpointCache is the file beside checkpoint.json that holds every
// evaluated candidate (the cache), appended generation by generation as
// little-endian float64 records (values, objectives, violation), so a
// checkpoint costs the new candidates only.
const CheckpointCache = "checkpoint.cache"

// CheckpointJSON is the checkpoint's file in its directory (run.CheckpointJSON).
const CheckpointJSON = "checkpoint.json"

// Checkpoint is what resuming a search needs: the islands after a
// generation and every candidate evaluated so far. Islands alone are enough
// for the same front; the cache keeps the evaluation count (and so an
// evaluation budget) the same as an uninterrupted run's, and holds the
// evaluations of a generation that an interruption cut short.
type Checkpoint struct {
	Version int `json:"version"`
	// Fingerprint is Fields.Sum(); Fields name the problem and settings
	// it belongs to (run.Fingerprint).
	Fingerprint string                  `json:"fingerprint"`
	Fields      fingerprint.Fingerprint `json:"fields"`
	Seed        int64                   `json:"seed"`
	Generation  int                     `json:"generation"`
	Evaluations int                     `json:"evaluations"`
	Vars        int                     `json:"vars"`       // values per cache record
	Objectives  int                     `json:"objectives"` // objectives per cache record
	// Islands are the populations after Generation; none when the
	// initial population was interrupted (the cache holds what was done).
	Islands [][]Member `json:"islands"`
	// CacheEntries is how many records of checkpoint.cache belong to it,
	// CacheSHA256 the SHA-256 of those records.
	CacheEntries int    `json:"cache_entries"`
	CacheSHA256  string `json:"cache_sha256"`
	// Checksum is the SHA-256 of this JSON with Checksum empty.
	Checksum string   `json:"checksum"`
	Cache    []Member `json:"-"`
	path     string   // where it was read from
}

// Source names where the checkpoint came from, for errors.
func (ck *Checkpoint) Source() string {
	if ck.path != "" {
		return ck.path
	}
	return "the checkpoint"
}

// Path is the file the checkpoint was read from ("" when it was not).
func (ck *Checkpoint) Path() string { return ck.path }

// CheckpointWriter is a Recorder that saves a checkpoint in Dir after
// every generation: it appends the generation's new candidates to
// checkpoint.cache, syncs it, then replaces checkpoint.json atomically. A
// crash at any point leaves the previous or the new checkpoint whole.
// Neither file is written through a symbolic link planted in Dir; with
// Root set (Dir's directory opened as an os.Root) both are written
// through it, and nothing outside it.
type CheckpointWriter struct {
	Dir   string
	Root  *os.Root
	cache *os.File
	hash  hash.Hash // of the records in cache so far
}

// Record implements Recorder.
func (w *CheckpointWriter) Record(s *Status) error {
	ck := s.Checkpoint
	if w.cache == nil {
		if err := w.open(ck, s); err != nil {
			return fmt.Errorf("tuner: checkpoint: %w", err)
		}
	}
	if len(s.Fresh) > 0 {
		b := encodeRecords(s.Fresh)
		if _, err := w.cache.Write(b); err != nil {
			return fmt.Errorf("tuner: checkpoint: %w", err)
		}
		if err := w.cache.Sync(); err != nil {
			return fmt.Errorf("tuner: checkpoint: %w", err)
		}
		w.hash.Write(b)
	}
	ck.CacheSHA256 = hex.EncodeToString(w.hash.Sum(nil))
	b, err := marshalCheckpoint(ck)
	if err != nil {
		return err
	}
	return w.files().writeFile(CheckpointJSON, b)
}

func (w *CheckpointWriter) files() ckFiles { return ckFiles{dir: w.Dir, root: w.Root} }

// open opens checkpoint.cache at the first record: a fresh run starts a
// new file (a link planted there is removed, not followed); a resumed one
// keeps the records its checkpoint names, dropping those a crash left
// behind, and hashes them.
func (w *CheckpointWriter) open(ck *Checkpoint, s *Status) error {
	d := w.files()
	path := d.path(CheckpointCache)
	keep := int64(ck.CacheEntries-len(s.Fresh)) * recordSize(ck)
	w.hash = sha256.New()
	var f *os.File
	var err error
	if keep == 0 {
		if err := d.remove(CheckpointCache); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		f, err = d.open(CheckpointCache, os.O_RDWR|os.O_CREATE|os.O_EXCL, atomicfile.Perm)
	} else {
		f, err = d.open(CheckpointCache, os.O_RDWR, 0)
	}
	if err != nil {
		return err
	}
	if keep > 0 {
		if _, err := io.CopyN(w.hash, f, keep); err != nil {
			f.Close()
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	if err := f.Truncate(keep); err != nil {
		f.Close()
		return err
	}
	if _, err := f.Seek(0, io.SeekEnd); err != nil {
		f.Close()
		return err
	}
	w.cache = f
	return nil
}

// marshalCheckpoint is checkpoint.json with its checksum.
func marshalCheckpoint(ck *Checkpoint) ([]byte, error) {
	ck.Checksum = ""
	b, err := json.Marshal(ck)
	if err != nil {
		return nil, fmt.Errorf("tuner: checkpoint: %w", err)
	}
	sum := sha256.Sum256(b)
	ck.Checksum = hex.EncodeToString(sum[:])
	if b, err = json.Marshal(ck); err != nil {
		return nil, fmt.Errorf("tuner: checkpoint: %w", err)
	}
	return append(b, '\n'), nil
}

// Close closes the cache file.
func (w *CheckpointWriter) Close() error {
	if w.cache == nil {
		return nil
	}
	err := w.cache.Close()
	w.cache = nil
	return err
}

// ReadCheckpoint reads the checkpoint of a run directory and checks it:
// its version, its checksum and its cache's, and every count it declares
// against its bound before anything is allocated for it (checkCounts;
// the search resuming it checks them against its settings). An edited or
// corrupt file is an error, never a silent resume; neither file is read
// through a symbolic link.
func ReadCheckpoint(dir string) (*Checkpoint, error) {
	return readCheckpoint(ckFiles{dir: dir})
}

func readCheckpoint(d ckFiles) (*Checkpoint, error) {
	path := d.path(CheckpointJSON)
	b, err := d.readAll(CheckpointJSON)
	if err != nil {
		return nil, err
	}
	var ck Checkpoint
	if err := json.Unmarshal(b, &ck); err != nil {
		return nil, fmt.Errorf("tuner: %s: %w", path, err)
	}
	ck.path = path
	if ck.Version != CheckpointVersion {
		return nil, fmt.Errorf("tuner: %s: version %d, this ecotune reads %d", path, ck.Version, CheckpointVersion)
	}
	want := ck.Checksum
	if _, err := marshalCheckpoint(&ck); err != nil {
		return nil, err
	}
	if ck.Checksum != want {
		return nil, fmt.Errorf("tuner: %s: checksum %.16s… does not match its contents (%.16s…): edited or corrupt", path, want, ck.Checksum)
	}
	cpath := d.path(CheckpointCache)
	cf, err := d.open(CheckpointCache, os.O_RDONLY, 0)
	if err != nil {
		return nil, fmt.Errorf("tuner: %w", err)
	}
	defer cf.Close()
	fi, err := cf.Stat()
	if err != nil {
		return nil, fmt.Errorf("tuner: %s: %w", cpath, err)
	}
	if err := ck.checkCounts(path, cpath, fi.Size()); err != nil {
		return nil, err
	}
	for i, isl := range ck.Islands {
		for j, m := range isl {
			if len(m.X) != ck.Vars || len(m.F) != ck.Objectives {
				return nil, fmt.Errorf("tuner: %s: island %d member %d has %d values and %d objectives, want %d and %d", path, i, j, len(m.X), len(m.F), ck.Vars, ck.Objectives)
			}
		}
	}
	buf := make([]byte, int64(ck.CacheEntries)*recordSize(&ck)) // within the file's size (checkCounts)
	if _, err := io.ReadFull(cf, buf); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("tuner: %s: shorter than the %d records %s names", cpath, ck.CacheEntries, CheckpointJSON)
		}
		return nil, fmt.Errorf("tuner: %s: %w", cpath, err)
	}
	if sum := sha256.Sum256(buf); hex.EncodeToString(sum[:]) != ck.CacheSHA256 {
		return nil, fmt.Errorf("tuner: %s: sha256 %x differs from the %s that %s records: edited or corrupt", cpath, sum[:8], ck.CacheSHA256[:min(16, len(ck.CacheSHA256))], CheckpointJSON)
	}
	ck.Cache = decodeRecords(buf, ck.CacheEntries, ck.Vars, ck.Objectives)
	return &ck, nil
}

// recordSize is the bytes of one cache record.
func recordSize(ck *Checkpoint) int64 {
	return int64(8 * (ck.Vars + ck.Objectives + 1))
}
func encodeRecords(ms []Member) []byte {
	var b []byte
	for _, m := range ms {
		for _, v := range m.X {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
		for _, v := range m.F {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(m.Violation))
	}
	return b
}

func decodeRecords(b []byte, n, nx, nf int) []Member {
	out := make([]Member, n)
	next := func() float64 {
		v := math.Float64frombits(binary.LittleEndian.Uint64(b))
		b = b[8:]
		return v
	}
	for i := range out {
		m := Member{X: make([]float64, nx), F: make([]float64, nf)}
		for k := range m.X {
			m.X[k] = next()
		}
		for k := range m.F {
			m.F[k] = next()
		}
		m.Violation = next()
		out[i] = m
	}
	return out
}
