package datasets

import (
	"bytes"
	_ "embed"
	"slices"
	"sync"

	_ "time/tzdata" // time zones of log headers resolve the same on every machine
)

// DefaultName is the name of the embedded default trace.
const DefaultName = "NASA-iPSC-1993-3.1-cln"

// The embedded default: the NASA Ames iPSC/860 log of Oct–Dec 1993 from the
// Parallel Workloads Archive (cleaned version 3.1): 18,239 jobs on 128
// nodes, lightly loaded. Cite the archive (Feitelson, Tsafrir & Krakov,
// JPDC 74(10), 2014) and acknowledge Bill Nitzberg when using it.
//
//go:embed embedded/NASA-iPSC-1993-3.1-cln.swf.gz
var defaultLog []byte

var defaultTrace = sync.OnceValues(func() (*Trace, error) {
	var jobs []Job
	m, err := readLog(bytes.NewReader(defaultLog), "embedded/"+DefaultName+".swf.gz", ReadOptions{Format: "swf"}, func(j Job) error {
		jobs = append(jobs, j)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return finishTrace(m, jobs), nil
})

// Default returns the embedded default trace (DefaultName). Each call
// returns a fresh copy that the caller may change.
func Default() (*Trace, error) {
	t, err := defaultTrace()
	if err != nil {
		return nil, err
	}
	return t.Clone(), nil
}

// Clone returns a deep copy of t.
func (t *Trace) Clone() *Trace {
	return &Trace{Meta: t.Meta.Clone(), Jobs: slices.Clone(t.Jobs)}
}

// Clone returns a deep copy of m.
func (m Meta) Clone() Meta {
	m.Sources = slices.Clone(m.Sources)
	m.Notes = slices.Clone(m.Notes)
	m.Layout = slices.Clone(m.Layout)
	if m.Skipped != nil {
		m.Skipped = cloneCounts(m.Skipped)
	}
	if m.Adjusted != nil {
		m.Adjusted = cloneCounts(m.Adjusted)
	}
	return m
}
