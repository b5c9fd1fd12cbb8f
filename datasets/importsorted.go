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
	cancel := canceller{ctx: ctx}
	var last Job
	first := true
	meta, err = readImportLogs(ctx, paths, out, opt, func(j Job) error {
		if err := cancel.err(); err != nil {
			return err
		}
		if opt.Anonymize != nil {
			opt.Anonymize.Job(&j)
		}
		if !v.keep(&j) {
			return nil
		}
		if !first && compareJobs(last, j) > 0 {
			return errNotSorted
		}
		last, first = j, false
		if err := sink.add(j); err != nil {
			return fmt.Errorf("%s: %w", out, err)
		}
		return nil
	})
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
