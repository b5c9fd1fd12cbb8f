package datasets

import "fmt"

// ReadOptions control how a log is read.
type ReadOptions struct {
	Format  string // "" = detect from content
	Lenient bool   // skip unreadable records, counting them by reason
}

// Open reads a trace from path: a canonical Parquet trace or any supported
// raw log (detected from content unless opt.Format is set; .gz is read
// directly). A raw log is validated and sorted as ReadLogs does.
func Open(path string, opt ReadOptions) (*Trace, error) {
	isParquet, err := isParquetFile(path)
	if err != nil {
		return nil, err
	}
	if isParquet && opt.Format == "" {
		return ReadParquetFile(path)
	}
	t, err := ReadLogs([]string{path}, opt)
	if err != nil {
		return nil, fmt.Errorf("open trace: %w", err)
	}
	return t, nil
}
