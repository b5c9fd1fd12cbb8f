package datasets

import (
	"fmt"

	"github.com/parquet-go/parquet-go"
)

// A jobSink hands jobs to a Parquet writer in batches of parquetBatch
// rows, written on a goroutine of its own while the caller reads and
// sorts the next ones. The writer sees the same batches, in the same
// order, as it would from one goroutine: the file's bytes do not depend
// on the scheduling. Memory: sinkBatches batches.
type jobSink struct {
	w     *parquet.GenericWriter[Job]
	batch []Job
	full  chan []Job    // to the writing goroutine
	free  chan sinkDone // written batches, back for reuse, and the first error
	done  chan struct{} // closed when the writing goroutine ends
	err   error         // the writer's first error, once seen
	ended bool
}

// sinkBatches is how many batches a sink owns: one being filled, one
// being written, ten waiting between them.
//
// Why ten: the Parquet writer compresses a column's page when it holds
// 256 KiB, and the int64 columns fill theirs together, so it writes in
// bursts about every 32,768 rows, taking no batch meanwhile. With one
// batch waiting the reader stopped at each burst; with ten it reads on
// through one (measured in docs/performance.md). The file's bytes are the
// same.
const sinkBatches = 12

type sinkDone struct {
	batch []Job
	err   error
}

func newJobSink(w *parquet.GenericWriter[Job]) *jobSink {
	s := &jobSink{
		w:     w,
		batch: make([]Job, 0, parquetBatch),
		full:  make(chan []Job, sinkBatches),
		free:  make(chan sinkDone, sinkBatches),
		done:  make(chan struct{}),
	}
	for range sinkBatches - 1 {
		s.free <- sinkDone{batch: make([]Job, 0, parquetBatch)}
	}
	go s.write()
	return s
}

// write writes the batches sent on full until it is closed; after an
// error it only hands them back, with the error.
func (s *jobSink) write() {
	defer close(s.done)
	var err error
	for b := range s.full {
		if err == nil {
			if _, werr := s.w.Write(b); werr != nil {
				err = fmt.Errorf("parquet: %w", werr)
			}
		}
		s.free <- sinkDone{batch: b[:0], err: err}
	}
}

func (s *jobSink) add(j Job) error {
	s.batch = append(s.batch, j)
	if len(s.batch) == cap(s.batch) {
		return s.flush()
	}
	return nil
}

// flush sends the batch to be written and takes a free one.
func (s *jobSink) flush() error {
	if s.err != nil {
		return s.err
	}
	if len(s.batch) > 0 {
		s.full <- s.batch
		d := <-s.free
		s.batch, s.err = d.batch, d.err
	}
	return s.err
}

// stop ends the writing goroutine once it has written what it was sent;
// it reports the first error. Calling it again does nothing.
func (s *jobSink) stop() error {
	if !s.ended {
		s.ended = true
		close(s.full)
		<-s.done
		for len(s.free) > 0 {
			if d := <-s.free; d.err != nil && s.err == nil {
				s.err = d.err
			}
		}
	}
	return s.err
}

// close writes the last batch and the footer with meta.
func (s *jobSink) close(meta Meta) error {
	if err := s.flush(); err != nil {
		s.stop()
		return err
	}
	if err := s.stop(); err != nil {
		return err
	}
	return closeParquetJobWriter(s.w, meta)
}
