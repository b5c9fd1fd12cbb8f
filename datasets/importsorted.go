package datasets

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/parquet-go/parquet-go"
)

// errNotSorted stops importSorted: the logs are not in trace order, or
// the validation it did as it read does not hold for the whole trace.
var errNotSorted = errors.New("import: logs not in trace order")

// rereadable reports whether every path is a regular file, which an
// import can read again from the start.
func rereadable(paths []string) bool {
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil || !st.Mode().IsRegular() {
			return false
		}
	}
	return true
}

// importSorted imports logs whose jobs come in trace order (submit time,
// then ID), the order of most logs, in one pass and without sorting: each
// job is validated as it is read and goes straight to the output. The
// rules need the machine's size, known only at the end: the jobs are
// validated as if it were unknown, and importSorted checks at the end that
// no kept job has more processors than the machine (the one rule that
// depends on its size). A job kept out of order, or a job too large for
// the machine, ends it with errNotSorted, leaving no output: the caller
// imports the logs again, in runs. Otherwise the trace is the one
// importRuns writes, byte for byte (jobs dropped by the rules may be out
// of order: they do not reach the trace).
//
// The output is written into a runs directory of its own beside out (see
// tempfiles.go), then renamed to out: an import killed outright leaves
// that directory, which the next import removes as soon as it sees that
// this process is gone.
func importSorted(ctx context.Context, paths []string, out string, opt ImportOptions) (meta Meta, err error) {
	tmp, err := os.MkdirTemp(filepath.Dir(out), runsDirPattern())
	if err != nil {
		return Meta{}, fmt.Errorf("import: %w", err)
	}
	defer os.RemoveAll(tmp)
	inner := filepath.Join(tmp, filepath.Base(out))
	file, err := CreateAtomic(inner, true)
	if err != nil {
		return Meta{}, err
	}
	defer file.Abort() // after Commit, nothing
	sink := newJobSink(newParquetJobWriter(file, &parquet.Zstd, parquetRowGroup))
	defer sink.stop()
	v := newValidator(Unknown)
	e := &sortedEmitter{cancel: canceller{ctx: ctx}, anonymize: opt.Anonymize, v: v, sink: sink, out: out, first: true}
	meta, err = readImportLogs(ctx, paths, out, opt, e.emit)
	if err != nil {
		return Meta{}, err
	}
	if meta.Procs > 0 && int(v.maxProcs) > meta.Procs {
		return Meta{}, errNotSorted // jobs the machine cannot run are in the output
	}
	v.finish(&meta)
	if err := sink.close(meta); err != nil {
		return Meta{}, fmt.Errorf("%s: %w", out, err)
	}
	if err := file.Commit(); err != nil {
		return Meta{}, fmt.Errorf("%s: %w", out, err)
	}
	if err := checkOutput(out, opt.Force); err != nil {
		return Meta{}, err
	}
	if err := os.Rename(inner, out); err != nil {
		return Meta{}, err
	}
	return meta, nil
}

// sortedEmitter passes the jobs of logs in order to the output of
// importSorted.
type sortedEmitter struct {
	cancel    canceller
	anonymize *Anonymizer // or nil
	v         *validator
	sink      *jobSink
	out       string // the output's name, in errors
	last      Job    // the last job kept, unless first
	first     bool   // no job kept yet
}

// emit anonymizes and validates j and adds it to the output if the rules
// keep it; a job kept out of order is errNotSorted.
func (e *sortedEmitter) emit(j Job) error {
	if err := e.cancel.err(); err != nil {
		return err
	}
	if e.anonymize != nil {
		e.anonymize.Job(&j)
	}
	if !e.v.keep(&j) {
		return nil
	}
	if !e.first && compareJobs(e.last, j) > 0 {
		return errNotSorted
	}
	e.last, e.first = j, false
	if err := e.sink.add(j); err != nil {
		return fmt.Errorf("%s: %w", e.out, err)
	}
	return nil
}
