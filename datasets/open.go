package datasets

import "errors"

// ReadOptions control how a log is read.
type ReadOptions struct {
	Format  string // "" = detect from content
	Lenient bool   // skip unreadable records, counting them by reason
}

// Open reads a trace from path: a canonical Parquet trace or any supported
// raw log (detected from content unless opt.Format is set; .gz is read
// directly).
func Open(path string, opt ReadOptions) (*Trace, error) {
	return nil, errors.New("datasets.Open: not implemented yet")
}

// Default returns the embedded default trace.
func Default() (*Trace, error) {
	return nil, errors.New("datasets.Default: not implemented yet")
}
