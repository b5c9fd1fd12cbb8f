package datasets

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/parquet-go/parquet-go"
)

// errNotSorted stops importSorted when the validation it did as it read
// does not hold for the whole trace (a job larger than the machine).
var errNotSorted = errors.New("import: one pass impossible")

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
// depends on its size); if one has, it returns errNotSorted, leaving no
// output, and the caller imports the logs again, in runs (importRuns).
//
// The first job kept out of order (jobs the rules drop may come in any
// order: they do not reach the trace) ends the one pass without reading
// anything again: the jobs written so far, validated and in order, become
// the first run of a merge (the Parquet file ends there), and the rest of
// the logs is read into sorted runs (runSorter, in dir) as importRuns
// does. Either way the trace is the one importRuns writes, byte for byte.
//
// The one-pass output is written into a runs directory of its own beside
// out (see tempfiles.go), then renamed to out: an import killed outright
// leaves that directory, which the next import removes as soon as it sees
// that this process is gone.
func importSorted(ctx context.Context, paths []string, out string, opt ImportOptions, dir string) (Meta, error) {
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
	var runs *runSorter // once a job came out of order
	defer func() {
		if runs != nil {
			runs.cleanup()
		}
	}()
	meta, err := readImportLogs(ctx, paths, out, opt, func(j Job) error {
		if err := cancel.err(); err != nil {
			return err
		}
		if opt.Anonymize != nil {
			opt.Anonymize.Job(&j)
		}
		if runs != nil {
			return runs.add(j)
		}
		if !first && compareJobs(last, j) > 0 && v.kept(&j) {
			if err := sink.close(Meta{}); err != nil { // the first run
				return fmt.Errorf("%s: %w", out, err)
			}
			runs = newRunSorter(opt.RunJobs, dir)
			return runs.add(j)
		}
		if !v.keep(&j) {
			return nil
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
	if runs != nil {
		return mergeImport(ctx, runs, file.Name(), v, meta, out, opt)
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

// mergeImport ends an importSorted that found a job out of order: it
// merges head, the Parquet file of the jobs before it (validated by
// headV, which holds their counts), with runs into the output. The rules
// keep the jobs of head unchanged, counting nothing: headV validated them
// with no machine size, and none is larger than the machine.
func mergeImport(ctx context.Context, runs *runSorter, head string, headV *validator, meta Meta, out string, opt ImportOptions) (Meta, error) {
	file, err := CreateAtomic(out, opt.Force)
	if err != nil {
		return Meta{}, err
	}
	v := newValidator(meta.Procs)
	sink := newJobSink(newParquetJobWriter(file, &parquet.Zstd, parquetRowGroup))
	defer sink.stop()
	cancel := canceller{ctx: ctx}
	err = runs.eachAfter(head, func(j Job) error {
		if err := cancel.err(); err != nil {
			return err
		}
		if !v.keep(&j) {
			return nil
		}
		return sink.add(j)
	})
	if err == nil {
		v.add(headV)
		v.finish(&meta)
		err = sink.close(meta)
	}
	if err != nil {
		sink.stop()
		file.Abort()
		return Meta{}, fmt.Errorf("%s: %w", out, err)
	}
	return meta, file.Commit()
}
