package datasets

import (
	"errors"
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding"
)

// Reading a canonical trace column by column. parquet-go's row reader
// rebuilds each Job value by value and allocates a string for each name
// of each job; a canonical file, written by this package, has one
// required column per Job field, so its pages' decoded values can be
// copied into the jobs a column at a time instead, and the names taken
// from each column chunk's dictionary, one string per distinct name. A
// file with any other schema is read row by row as before.

// jobField indexes jobColumns.
type jobField int

// jobColumns are the canonical columns: name, kind and the Job field
// each sets (one of int64, int32 and str).
var jobColumns = [...]struct {
	name  string
	kind  parquet.Kind
	int64 func(*Job) *int64
	int32 func(*Job) *int32
	str   func(*Job) *string
}{
	{name: "id", kind: parquet.Int64, int64: func(j *Job) *int64 { return &j.ID }},
	{name: "submit", kind: parquet.Int64, int64: func(j *Job) *int64 { return &j.Submit }},
	{name: "wait", kind: parquet.Int64, int64: func(j *Job) *int64 { return &j.Wait }},
	{name: "run", kind: parquet.Int64, int64: func(j *Job) *int64 { return &j.Run }},
	{name: "procs", kind: parquet.Int32, int32: func(j *Job) *int32 { return &j.Procs }},
	{name: "req_procs", kind: parquet.Int32, int32: func(j *Job) *int32 { return &j.ReqProcs }},
	{name: "req_time", kind: parquet.Int64, int64: func(j *Job) *int64 { return &j.ReqTime }},
	{name: "status", kind: parquet.Int32, int32: func(j *Job) *int32 { return &j.Status }},
	{name: "user", kind: parquet.ByteArray, str: func(j *Job) *string { return &j.User }},
	{name: "group", kind: parquet.ByteArray, str: func(j *Job) *string { return &j.Group }},
	{name: "queue", kind: parquet.ByteArray, str: func(j *Job) *string { return &j.Queue }},
	{name: "partition", kind: parquet.ByteArray, str: func(j *Job) *string { return &j.Partition }},
}

// jobFields is the number of canonical columns.
const jobFields = len(jobColumns)

// canonicalColumns returns, for each jobField, the index of its leaf
// column in s, or false when s is not exactly the canonical schema
// (every column present, required, of its kind, and no other).
func canonicalColumns(s *parquet.Schema) (cols [jobFields]int, ok bool) {
	if len(s.Columns()) != jobFields {
		return cols, false
	}
	for f, c := range jobColumns {
		leaf, found := s.Lookup(c.name)
		if !found || leaf.Node.Type().Kind() != c.kind || !leaf.Node.Required() || leaf.MaxDefinitionLevel != 0 || leaf.MaxRepetitionLevel != 0 {
			return cols, false
		}
		cols[f] = leaf.ColumnIndex
	}
	return cols, true
}

// columnReader hands over one column chunk's values in order, a page at
// a time.
type columnReader struct {
	field jobField
	pages parquet.Pages
	page  parquet.Page // the current page, nil before the first and after the last
	i64   []int64      // the current page's values: int64 columns
	i32   []int32      // int32 columns, and dictionary indexes
	data  []byte       // plain byte-array pages: the values' bytes
	offs  []uint32     // and their offsets (one more than values)
	n     int          // values in the current page
	pos   int          // values of it already handed over
	dict  parquet.Dictionary
	names []string          // the dictionary's values as strings (name columns)
	dv64  []int64           // or as integers (int64 columns
	dv32  []int32           // and int32 columns)
	buf64 []int64           // the values of a dictionary-encoded integer page
	buf32 []int32           // looked up
	seen  map[string]string // plain byte-array values already made strings
}

// fill sets the reader's field of every job of dst from the next
// len(dst) values of the column.
func (c *columnReader) fill(dst []Job) error {
	for len(dst) > 0 {
		if c.pos == c.n {
			if err := c.next(); err != nil {
				if err == io.EOF {
					return fmt.Errorf("column %s: fewer values than rows", jobColumns[c.field].name)
				}
				return err
			}
			continue
		}
		k := min(len(dst), c.n-c.pos)
		if err := c.copyTo(dst[:k]); err != nil {
			return err
		}
		c.pos += k
		dst = dst[k:]
	}
	return nil
}

// end checks that the column holds no value beyond those handed over.
func (c *columnReader) end() error {
	if c.pos < c.n {
		return fmt.Errorf("column %s: more values than rows", jobColumns[c.field].name)
	}
	for {
		err := c.next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if c.n > 0 {
			return fmt.Errorf("column %s: more values than rows", jobColumns[c.field].name)
		}
	}
}

// next reads the next page; io.EOF when there is none.
func (c *columnReader) next() error {
	c.release()
	p, err := c.pages.ReadPage()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return io.EOF
		}
		return fmt.Errorf("column %s: %w", jobColumns[c.field].name, err)
	}
	c.page, c.pos = p, 0
	if p.NumNulls() != 0 || len(p.DefinitionLevels()) != 0 || len(p.RepetitionLevels()) != 0 {
		return fmt.Errorf("column %s: null or repeated values in a required column", jobColumns[c.field].name)
	}
	return c.decode(p)
}

// decode points the reader at page p's values.
func (c *columnReader) decode(p parquet.Page) error {
	values, dict := p.Data(), p.Dictionary()
	kind := jobColumns[c.field].kind
	var handled bool
	var err error
	if dict == nil {
		handled = c.decodePlain(kind, values)
	} else {
		handled, err = c.decodeDictionary(kind, dict, values)
	}
	if !handled {
		return fmt.Errorf("column %s: a page of %v values", jobColumns[c.field].name, values.Kind())
	}
	return err
}

// decodePlain points the reader at the values of a page that is not
// dictionary-encoded, and reports whether their kind fits the column's.
func (c *columnReader) decodePlain(kind parquet.Kind, values encoding.Values) bool {
	switch {
	case kind == parquet.Int64 && values.Kind() == encoding.Int64:
		c.i64 = values.Int64()
		c.n = len(c.i64)
	case kind == parquet.Int32 && values.Kind() == encoding.Int32:
		c.i32 = values.Int32()
		c.n = len(c.i32)
	case kind == parquet.ByteArray && values.Kind() == encoding.ByteArray:
		c.data, c.offs = values.ByteArray()
		c.n = max(len(c.offs)-1, 0)
		c.i32 = nil
	default:
		return false
	}
	return true
}

// decodeDictionary points the reader at the values of a page whose
// indexes values look up dict, and reports whether their kind fits the
// column's.
func (c *columnReader) decodeDictionary(kind parquet.Kind, dict parquet.Dictionary, values encoding.Values) (bool, error) {
	if values.Kind() != encoding.Int32 {
		return false, nil
	}
	switch kind {
	case parquet.Int64, parquet.Int32:
		return true, c.lookUpIntegers(dict, values.Int32())
	case parquet.ByteArray:
		if err := c.useDictionary(dict); err != nil {
			return true, err
		}
		c.i32 = values.Int32()
		c.n = len(c.i32)
		return true, nil
	}
	return false, nil
}

// useDictionary makes the strings of a dictionary not seen last.
func (c *columnReader) useDictionary(d parquet.Dictionary) error {
	if d == c.dict {
		return nil
	}
	values := d.Page().Data()
	if values.Kind() != encoding.ByteArray {
		return fmt.Errorf("column %s: a dictionary of %v values", jobColumns[c.field].name, values.Kind())
	}
	data, offs := values.ByteArray()
	c.names = c.names[:0]
	for i := 0; i+1 < len(offs); i++ {
		b, err := byteArray(data, offs, i)
		if err != nil {
			return fmt.Errorf("column %s: dictionary: %w", jobColumns[c.field].name, err)
		}
		c.names = append(c.names, string(b))
	}
	c.dict = d
	return nil
}

// lookUpIntegers points the reader at the values of a dictionary-encoded
// integer page, its indexes ix looked up in dict (another writer may
// encode any column so).
func (c *columnReader) lookUpIntegers(dict parquet.Dictionary, ix []int32) error {
	name := jobColumns[c.field].name
	if dict != c.dict {
		values := dict.Page().Data()
		switch values.Kind() {
		case encoding.Int64:
			c.dv64, c.dv32 = append(c.dv64[:0], values.Int64()...), nil
		case encoding.Int32:
			c.dv32, c.dv64 = append(c.dv32[:0], values.Int32()...), nil
		default:
			return fmt.Errorf("column %s: a dictionary of %v values", name, values.Kind())
		}
		c.dict = dict
	}
	var err error
	if jobColumns[c.field].kind == parquet.Int64 {
		c.buf64, err = lookUp(c.buf64[:0], c.dv64, ix)
		c.i64, c.n = c.buf64, len(c.buf64)
	} else {
		c.buf32, err = lookUp(c.buf32[:0], c.dv32, ix)
		c.i32, c.n = c.buf32, len(c.buf32)
	}
	if err != nil {
		c.n = 0
		return fmt.Errorf("column %s: %w", name, err)
	}
	return nil
}

// lookUp appends to dst the values of dict at the indexes ix.
func lookUp[T any](dst, dict []T, ix []int32) ([]T, error) {
	for _, i := range ix {
		if i < 0 || int(i) >= len(dict) {
			return dst, fmt.Errorf("dictionary index %d out of %d values", i, len(dict))
		}
		dst = append(dst, dict[i])
	}
	return dst, nil
}

// byteArray is value i of a byte-array page's data and offsets.
func byteArray(data []byte, offs []uint32, i int) ([]byte, error) {
	j, k := offs[i], offs[i+1]
	if j > k || int64(k) > int64(len(data)) {
		return nil, fmt.Errorf("value %d: offsets %d..%d out of %d bytes", i, j, k, len(data))
	}
	return data[j:k], nil
}

// copyTo sets the field of the jobs of dst from the current page's next
// len(dst) values.
func (c *columnReader) copyTo(dst []Job) error {
	p, col := c.pos, &jobColumns[c.field]
	switch {
	case col.int64 != nil:
		for k, v := range c.i64[p : p+len(dst)] {
			*col.int64(&dst[k]) = v
		}
	case col.int32 != nil:
		for k, v := range c.i32[p : p+len(dst)] {
			*col.int32(&dst[k]) = v
		}
	default:
		for k := range dst {
			s, err := c.name(p + k)
			if err != nil {
				return fmt.Errorf("column %s: %w", col.name, err)
			}
			*col.str(&dst[k]) = s
		}
	}
	return nil
}

// name is the current page's value i of a name column.
func (c *columnReader) name(i int) (string, error) {
	if c.i32 != nil {
		ix := c.i32[i]
		if ix < 0 || int(ix) >= len(c.names) {
			return "", fmt.Errorf("dictionary index %d out of %d values", ix, len(c.names))
		}
		return c.names[ix], nil
	}
	b, err := byteArray(c.data, c.offs, i)
	if err != nil {
		return "", err
	}
	if s, ok := c.seen[string(b)]; ok {
		return s, nil
	}
	if c.seen == nil {
		c.seen = make(map[string]string)
	}
	s := string(b)
	c.seen[s] = s
	return s, nil
}

// release lets the current page's buffers go back to parquet-go.
func (c *columnReader) release() {
	if c.page != nil {
		parquet.Release(c.page)
		c.page = nil
	}
	c.n, c.pos, c.i64, c.i32, c.data, c.offs = 0, 0, nil, nil, nil, nil
}

// close releases the page and closes the pages reader.
func (c *columnReader) close() {
	c.release()
	if c.pages != nil {
		c.pages.Close()
		c.pages = nil
	}
}

// readColumns reads the rows of f, a canonical trace whose columns are
// cols (canonicalColumns), into batches of batch (at most a row group's
// rows each) and hands each to fn with the number of rows read before
// it; fn's errors are returned as they are, the reader's begin
// "parquet:". The dictionaries' strings are shared by the jobs that name
// them.
func readColumns(f *parquet.File, cols [jobFields]int, batch []Job, fn func(done int64, jobs []Job) error) error {
	readers := make([]columnReader, jobFields)
	defer func() {
		for i := range readers {
			readers[i].close()
		}
	}()
	var done int64
	for g, rg := range f.RowGroups() {
		chunks := rg.ColumnChunks()
		if len(chunks) != jobFields {
			return fmt.Errorf("parquet: row group %d: %d column chunks, the schema has %d columns", g, len(chunks), jobFields)
		}
		for fld := range readers {
			readers[fld].close()
			readers[fld].field = jobField(fld)
			readers[fld].pages = chunks[cols[fld]].Pages()
		}
		rows := rg.NumRows()
		if rows < 0 || done+rows > f.NumRows() {
			return fmt.Errorf("parquet: row group %d: %d rows, beyond the footer's %d", g, rows, f.NumRows())
		}
		for left := rows; left > 0; {
			b := batch[:min(int64(len(batch)), left)]
			for fld := range readers {
				if err := readers[fld].fill(b); err != nil {
					return fmt.Errorf("parquet: row group %d: %w", g, err)
				}
			}
			if err := fn(done, b); err != nil {
				return err
			}
			done += int64(len(b))
			left -= int64(len(b))
		}
		for fld := range readers {
			if err := readers[fld].end(); err != nil {
				return fmt.Errorf("parquet: row group %d: %w", g, err)
			}
		}
	}
	if done != f.NumRows() {
		return fmt.Errorf("parquet: %d rows, the footer says %d", done, f.NumRows())
	}
	return nil
}
