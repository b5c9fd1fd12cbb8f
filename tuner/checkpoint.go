package tuner

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
)

// CheckpointVersion is the schema version of checkpoints this package
// writes.
const CheckpointVersion = 1

// CheckpointCache is the file beside checkpoint.json that holds every
// evaluated candidate (the cache), appended generation by generation as
// little-endian float64 records (values, objectives, violation), so a
// checkpoint costs the new candidates only.
const CheckpointCache = "checkpoint.cache"

// Checkpoint is what resuming a search needs: the islands after a
// generation and every candidate evaluated so far. Islands alone are enough
// for the same front; the cache keeps the evaluation count (and so an
// evaluation budget) the same as an uninterrupted run's.
type Checkpoint struct {
	Version     int        `json:"version"`
	Fingerprint string     `json:"fingerprint"` // problem and settings it belongs to
	Seed        int64      `json:"seed"`
	Generation  int        `json:"generation"`
	Evaluations int        `json:"evaluations"`
	Islands     [][]Member `json:"islands"`
	// CacheEntries is how many records of checkpoint.cache belong to it.
	CacheEntries int      `json:"cache_entries"`
	Cache        []Member `json:"-"`
}

// CheckpointWriter is a Recorder that saves a checkpoint in Dir after
// every generation: it appends the generation's new candidates to
// checkpoint.cache, syncs it, then replaces checkpoint.json atomically. A
// crash at any point leaves the previous or the new checkpoint whole.
type CheckpointWriter struct {
	Dir   string
	cache *os.File
}

// Record implements Recorder.
func (w *CheckpointWriter) Record(s *Status) error {
	ck := s.Checkpoint
	if w.cache == nil {
		f, err := os.OpenFile(filepath.Join(w.Dir, CheckpointCache), os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return fmt.Errorf("tuner: checkpoint: %w", err)
		}
		w.cache = f
		// Drop records a crash left behind the last checkpoint.
		if err := f.Truncate(int64(ck.CacheEntries-len(s.Fresh)) * recordSize(ck)); err != nil {
			return fmt.Errorf("tuner: checkpoint: %w", err)
		}
		if _, err := f.Seek(0, io.SeekEnd); err != nil {
			return fmt.Errorf("tuner: checkpoint: %w", err)
		}
	}
	if len(s.Fresh) > 0 {
		if _, err := w.cache.Write(encodeRecords(s.Fresh)); err != nil {
			return fmt.Errorf("tuner: checkpoint: %w", err)
		}
		if err := w.cache.Sync(); err != nil {
			return fmt.Errorf("tuner: checkpoint: %w", err)
		}
	}
	b, err := json.Marshal(ck)
	if err != nil {
		return fmt.Errorf("tuner: checkpoint: %w", err)
	}
	return writeFileAtomic(filepath.Join(w.Dir, CheckpointJSON), append(b, '\n'))
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

// ReadCheckpoint reads the checkpoint of a run directory.
func ReadCheckpoint(dir string) (*Checkpoint, error) {
	var ck Checkpoint
	if err := readJSON(filepath.Join(dir, CheckpointJSON), &ck); err != nil {
		return nil, err
	}
	if ck.Version != CheckpointVersion {
		return nil, fmt.Errorf("tuner: %s: version %d, this ecotune reads %d", filepath.Join(dir, CheckpointJSON), ck.Version, CheckpointVersion)
	}
	if len(ck.Islands) == 0 || len(ck.Islands[0]) == 0 {
		return nil, fmt.Errorf("tuner: %s: no islands", filepath.Join(dir, CheckpointJSON))
	}
	path := filepath.Join(dir, CheckpointCache)
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("tuner: %w", err)
	}
	defer f.Close()
	buf := make([]byte, int64(ck.CacheEntries)*recordSize(&ck))
	if _, err := io.ReadFull(f, buf); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("tuner: %s: shorter than the %d records %s names", path, ck.CacheEntries, CheckpointJSON)
		}
		return nil, fmt.Errorf("tuner: %w", err)
	}
	nx, nf := len(ck.Islands[0][0].X), len(ck.Islands[0][0].F)
	ck.Cache = decodeRecords(buf, ck.CacheEntries, nx, nf)
	return &ck, nil
}

// recordSize is the bytes of one cache record.
func recordSize(ck *Checkpoint) int64 {
	m := ck.Islands[0][0]
	return int64(8 * (len(m.X) + len(m.F) + 1))
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
