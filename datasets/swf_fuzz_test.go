package datasets

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// swfFuzzRead reads data as SWF, checking the Reader contract: no panic,
// errors are *ParseError with file and line, and an error is sticky.
func swfFuzzRead(t *testing.T, data []byte, lenient bool) ([]Job, Meta, error) {
	r, err := newSWFReader(bytes.NewReader(data), "fuzz.swf", ReadOptions{Lenient: lenient})
	if err != nil {
		t.Fatal(err)
	}
	var jobs []Job
	for {
		j, err := r.Next()
		if err == io.EOF {
			return jobs, r.Meta(), nil
		}
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.File != "fuzz.swf" || pe.Line < 1 || pe.Field == "" {
				t.Fatalf("error %v (%T) does not name file, line and field", err, err)
			}
			if _, again := r.Next(); again != err {
				t.Fatalf("Next after %v returned %v", err, again)
			}
			return jobs, r.Meta(), err
		}
		jobs = append(jobs, j)
	}
}

// FuzzSWF: strict and lenient reads agree on valid input, lenient reads
// never fail, and the numeric fields survive writing back as SWF.
func FuzzSWF(f *testing.F) {
	f.Add([]byte("; MaxNodes: 4\n; UnixStartTime: 100\n1 0 -1 5 1 -1 -1 -1 -1 -1 1 1 1 -1 1 -1 -1 -1\n"))
	f.Add([]byte("1 0 5 1.5 4 90.25 -1 4 200 -1 1 7 3 -1 1 -1 -1 -1\r\n2 x 5 1 4 -1 -1 4 200 -1 1 7 3 -1 1 -1 -1 -1\n"))
	f.Add([]byte(";\tNote: a\n;\tb\n; Queue: 1 batch\n3 1e3 -1 -7 0 -1 -1 -1 -1 -1 5 -1 -1 -1 1 -1 -1 -1 9\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		strict, _, strictErr := swfFuzzRead(t, data, false)
		lenient, meta, lenientErr := swfFuzzRead(t, data, true)
		if lenientErr != nil {
			t.Fatalf("lenient read failed: %v", lenientErr)
		}
		if strictErr == nil && (len(strict) != len(lenient) || countTotal(meta.Skipped) != 0) {
			t.Fatalf("strict read %d jobs, lenient %d with skips %v", len(strict), len(lenient), meta.Skipped)
		}
		var buf bytes.Buffer
		w, err := NewSWFWriter(&buf, Meta{UnixStart: Unknown})
		if err != nil {
			t.Fatal(err)
		}
		for _, j := range lenient {
			if err := w.Write(j); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		again, _, err := swfFuzzRead(t, buf.Bytes(), false)
		if err != nil || len(again) != len(lenient) {
			t.Fatalf("re-reading the written SWF: %d jobs, %v; want %d", len(again), err, len(lenient))
		}
		for i, j := range lenient {
			a := again[i]
			if a.ID != j.ID || a.Submit != j.Submit || a.Wait != j.Wait || a.Run != j.Run || a.Procs != j.Procs ||
				a.ReqProcs != j.ReqProcs || a.ReqTime != j.ReqTime || a.Status != j.Status || a.User != j.User || a.Group != j.Group {
				t.Fatalf("job %d changed in the SWF round trip:\n%+v\n%+v", i, j, a)
			}
		}
	})
}

// FuzzParquet: arbitrary bytes never panic the Parquet reader, and a file
// that reads writes back to a file that reads the same.
func FuzzParquet(f *testing.F) {
	var buf bytes.Buffer
	if err := WriteParquet(&buf, roundTripTrace()); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add([]byte("PAR1PAR1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := ReadParquet(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := WriteParquet(&out, tr); err != nil {
			t.Fatalf("writing back a trace that read: %v", err)
		}
		again, err := ReadParquet(bytes.NewReader(out.Bytes()), int64(out.Len()))
		if err != nil || len(again.Jobs) != len(tr.Jobs) {
			t.Fatalf("re-reading: %v", err)
		}
	})
}
