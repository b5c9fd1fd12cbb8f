package datasets

import (
	"errors"
	"io"
)

// A readAhead reads its source on a goroutine of its own, up to
// readAheadChunks chunks ahead of its reader, so that producing the
// bytes (decompressing a gzip log) runs beside consuming them (parsing)
// on another core. Its reader sees the source's bytes, in order, then
// the source's error: exactly what reading the source would give.
//
// The goroutine ends at the source's first error (io.EOF included) or
// once stop is called. Until then the source is the goroutine's: wait
// returns when it is free again.
type readAhead struct {
	full    chan readChunk
	free    chan []byte
	halt    chan struct{}
	done    chan struct{}
	cur     []byte // what is left of the chunk being read
	buf     []byte // that chunk's buffer, to hand back once read
	err     error  // the source's error, once reached
	stopped bool
}

type readChunk struct {
	b   []byte
	err error
}

const (
	readAheadChunk  = 256 << 10 // bytes a chunk
	readAheadChunks = 4         // chunks read ahead at most
)

// newReadAhead starts reading src ahead.
func newReadAhead(src io.Reader) *readAhead {
	ra := &readAhead{
		full: make(chan readChunk, readAheadChunks),
		free: make(chan []byte, readAheadChunks),
		halt: make(chan struct{}),
		done: make(chan struct{}),
	}
	for range readAheadChunks {
		ra.free <- make([]byte, readAheadChunk)
	}
	go ra.fill(src)
	return ra
}

// fill reads src into free chunks and sends them on, until src's first
// error or stop.
func (ra *readAhead) fill(src io.Reader) {
	defer close(ra.done)
	for {
		var b []byte
		select {
		case b = <-ra.free:
		case <-ra.halt:
			return
		}
		n, err := 0, error(nil)
		for n < len(b) && err == nil {
			var k int
			k, err = src.Read(b[n:])
			n += k
		}
		select {
		case ra.full <- readChunk{b: b[:n], err: err}:
		case <-ra.halt:
			return
		}
		if err != nil {
			return
		}
	}
}

// Read implements io.Reader.
func (ra *readAhead) Read(p []byte) (int, error) {
	for len(ra.cur) == 0 {
		if ra.err != nil {
			return 0, ra.err
		}
		if ra.buf != nil {
			ra.free <- ra.buf[:cap(ra.buf)]
		}
		c := ra.next()
		ra.cur, ra.buf, ra.err = c.b, c.b, c.err
	}
	n := copy(p, ra.cur)
	ra.cur = ra.cur[n:]
	return n, nil
}

// errReadAheadStopped is what a readAhead read after stop gives once
// the chunks read ahead are used up.
var errReadAheadStopped = errors.New("read ahead: stopped")

// next is the next chunk read ahead: it waits for the goroutine, unless
// that has ended (then its last chunk, if it was not taken, or
// errReadAheadStopped).
func (ra *readAhead) next() readChunk {
	select {
	case c := <-ra.full:
		return c
	case <-ra.done:
		select {
		case c := <-ra.full:
			return c
		default:
			return readChunk{err: errReadAheadStopped}
		}
	}
}

// stop tells the goroutine to end without waiting for it: it ends once
// its read of the source in progress, if any, returns.
func (ra *readAhead) stop() {
	if !ra.stopped {
		ra.stopped = true
		close(ra.halt)
	}
}

// wait stops the goroutine and waits for it to end: the source is the
// caller's again.
func (ra *readAhead) wait() {
	ra.stop()
	<-ra.done
}
