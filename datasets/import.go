package datasets

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/parquet-go/parquet-go"
)

// ImportOptions control Import.
type ImportOptions struct {
	ReadOptions
	Force bool // replace an existing output
	// RunJobs bounds the jobs held in memory: longer inputs not in trace
	// order are sorted in runs of this many jobs, spilled to temporary
	// files and merged.
	// 0 means DefaultRunJobs (262,144 jobs, about 30 MB).
	RunJobs int
	// TempDir holds the spilled runs; "" means the output's directory.
	TempDir string
	// Anonymize, when not nil, replaces users, groups, queues,
	// partitions and node names by keyed hashes (see Anonymizer).
	Anonymize *Anonymizer
}

// DefaultRunJobs is the default ImportOptions.RunJobs.
const DefaultRunJobs = 1 << 18

// Import reads raw logs and writes them as one canonical Parquet trace at
// out, the same trace ReadLogs would return, in memory bounded by
// opt.RunJobs whatever the logs' length. The output is written atomically;
// on any error (a strict-mode ParseError included) no output is left.
func Import(paths []string, out string, opt ImportOptions) (Meta, error) {
	return ImportContext(context.Background(), paths, out, opt)
}

// ImportContext is Import stopped by ctx: once ctx is done it stops within
// a few thousand jobs, removes its temporary files (see tempfiles.go) and
// returns ctx's error, leaving no output. It first removes the stale
// temporary files that earlier imports killed outright left.
//
// Logs already in trace order (most SWF logs are sorted by submit time)
// stream straight to the output in one pass (importSorted); a job out of
// order sends the import back to the start, to sort in runs (importRuns).
// Both ways write the same bytes.
func ImportContext(ctx context.Context, paths []string, out string, opt ImportOptions) (Meta, error) {
	return importContext(ctx, paths, out, opt, true)
}

// importContext is ImportContext; with sorted false it sorts in runs at
// once.
func importContext(ctx context.Context, paths []string, out string, opt ImportOptions, sorted bool) (Meta, error) {
	if err := checkOutput(out, opt.Force); err != nil {
		return Meta{}, err
	}
	dir := opt.TempDir
	if dir == "" {
		dir = filepath.Dir(out)
	} else {
		removeStaleTemps(dir, "")
	}
	removeStaleTemps(filepath.Dir(out), filepath.Base(out))
	if sorted && rereadable(paths) {
		meta, err := importSorted(ctx, paths, out, opt)
		if !errors.Is(err, errNotSorted) {
			return meta, err
		}
	}
	return importRuns(ctx, paths, out, opt, dir)
}

// importRuns imports logs in any order in bounded memory: it reads every
// job into sorted runs (runSorter), then merges them through the
// validation rules into the output.
func importRuns(ctx context.Context, paths []string, out string, opt ImportOptions, dir string) (Meta, error) {
	runs := newRunSorter(opt.RunJobs, dir)
	defer runs.cleanup()
	cancel := canceller{ctx: ctx}
	meta, err := readImportLogs(ctx, paths, out, opt, func(j Job) error {
		if err := cancel.err(); err != nil {
			return err
		}
		if opt.Anonymize != nil { // before the runs are spilled to disk
			opt.Anonymize.Job(&j)
		}
		return runs.add(j)
	})
	if err != nil {
		return Meta{}, err
	}
	file, err := CreateAtomic(out, opt.Force)
	if err != nil {
		return Meta{}, err
	}
	v := newValidator(meta.Procs)
	sink := newJobSink(newParquetJobWriter(file, &parquet.Zstd, parquetRowGroup))
	defer sink.stop()
	err = runs.each(func(j Job) error {
		if err := cancel.err(); err != nil {
			return err
		}
		if !v.keep(&j) {
			return nil
		}
		return sink.add(j)
	})
	if err == nil {
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

// readImportLogs streams the jobs of the logs at paths to emit and
// returns their merged metadata, anonymized when opt says so.
func readImportLogs(ctx context.Context, paths []string, out string, opt ImportOptions, emit func(Job) error) (Meta, error) {
	metas := make([]Meta, 0, len(paths))
	for _, path := range paths {
		if err := ctx.Err(); err != nil {
			return Meta{}, err
		}
		m, err := readLogFile(path, opt.ReadOptions, emit)
		if err != nil {
			return Meta{}, err
		}
		metas = append(metas, m)
	}
	meta := mergeMetas(metas)
	if opt.Anonymize != nil {
		meta.Layout = slices.Clone(meta.Layout)
		if err := opt.Anonymize.Meta(&meta); err != nil {
			return Meta{}, fmt.Errorf("%s: %w", out, err)
		}
	}
	return meta, nil
}

// Summary is a one-line account of an import: source format, machine size
// and the records skipped and adjusted, by reason.
func Summary(m Meta) string {
	s := fmt.Sprintf("%s trace %q from %d log(s), machine %s", m.Format, m.Name, len(m.Sources), machineSize(m))
	if n := countTotal(m.Skipped); n > 0 {
		s += fmt.Sprintf("; skipped %d %s", n, formatCounts(m.Skipped))
	}
	if n := countTotal(m.Adjusted); n > 0 {
		s += fmt.Sprintf("; adjusted %d %s", n, formatCounts(m.Adjusted))
	}
	return s
}

// machineSize is "128 nodes × 8 = 1024 procs", "1024 procs" or "unknown".
func machineSize(m Meta) string {
	switch {
	case m.Nodes > 0 && m.Procs > 0:
		return fmt.Sprintf("%d nodes, %d procs", m.Nodes, m.Procs)
	case m.Procs > 0:
		return fmt.Sprintf("%d procs", m.Procs)
	case m.Nodes > 0:
		return fmt.Sprintf("%d nodes", m.Nodes)
	}
	return "unknown"
}

func countTotal(m map[string]int64) int64 {
	var n int64
	for _, v := range m {
		n += v
	}
	return n
}

// formatCounts is "(a 3, b 1)" in key order.
func formatCounts(m map[string]int64) string {
	keys := slices.Sorted(maps.Keys(m))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
