package datasets

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
)

// An SWFWriter writes jobs as Standard Workload Format lines: submit times
// relative to the metadata's UnixStart (when known), Unknown as -1, the
// fields the canonical Job does not keep as -1. Queue and partition names
// that are not numbers are written as -1.
type SWFWriter struct {
	w    *bufio.Writer
	meta Meta
	line []byte
}

// NewSWFWriter writes the SWF header comments for meta to w and returns a
// writer for the jobs.
func NewSWFWriter(w io.Writer, meta Meta) (*SWFWriter, error) {
	sw := &SWFWriter{w: bufio.NewWriterSize(w, 64<<10), meta: meta}
	header := []struct {
		key   string
		value any
		ok    bool
	}{
		{"Version", "2.2", true},
		{"Computer", meta.Name, meta.Name != ""},
		{"Conversion", "ecotune", true},
		{"UnixStartTime", meta.UnixStart, meta.UnixStart != Unknown},
		{"TimeZone", meta.TZOffset, true},
		{"TimeZoneString", meta.TimeZone, meta.TimeZone != ""},
		{"MaxNodes", meta.Nodes, meta.Nodes > 0},
		{"MaxProcs", meta.Procs, meta.Procs > 0},
	}
	for _, h := range header {
		if h.ok {
			fmt.Fprintf(sw.w, "; %s: %v\n", h.key, h.value)
		}
	}
	for _, n := range meta.Notes {
		fmt.Fprintf(sw.w, "; Note: %s\n", n)
	}
	return sw, nil
}

// Write writes one job line.
func (sw *SWFWriter) Write(j Job) error {
	submit := j.Submit
	if submit != Unknown && sw.meta.UnixStart != Unknown {
		submit -= sw.meta.UnixStart
	}
	b := sw.line[:0]
	for i, v := range [swfFields]int64{
		j.ID, submit, j.Wait, j.Run, int64(j.Procs), -1, -1, int64(j.ReqProcs), j.ReqTime, -1,
		int64(j.Status), swfNumber(j.User), swfNumber(j.Group), -1, swfNumber(j.Queue), swfNumber(j.Partition), -1, -1,
	} {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, v, 10)
	}
	b = append(b, '\n')
	sw.line = b
	_, err := sw.w.Write(b)
	return err
}

// Flush writes any buffered data.
func (sw *SWFWriter) Flush() error { return sw.w.Flush() }

// swfNumber is the number a user, group or queue text stands for, or -1.
func swfNumber(s string) int64 {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return -1
	}
	return n
}
