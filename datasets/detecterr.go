package datasets

import (
	"bytes"
	"fmt"
)

// unknownFormatError explains why no format recognised head, the start of
// the log file: when its first record line has the field count of SWF (18)
// or GWF (29), the error names that line and its first field that is not
// a number (a NaN, an infinity or a number beyond int64 such as 1e30);
// otherwise it
// names the first record line. Either way it matches ErrUnknownFmt.
func unknownFormatError(file string, head []byte) error {
	no := 0
	for len(head) > 0 {
		line := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		no++
		t := bytes.TrimSpace(line)
		if len(t) == 0 || t[0] == ';' || t[0] == '#' {
			continue
		}
		return firstRecordError(file, no, t)
	}
	return fmt.Errorf("%s: %w: no record in the first %d bytes", file, ErrUnknownFmt, headSize)
}

// firstRecordError is unknownFormatError for the first record line t,
// line number no.
func firstRecordError(file string, no int, t []byte) error {
	var fields [][]byte
	for s, e := lexField(t, 0); s < e; s, e = lexField(t, e) {
		fields = append(fields, t[s:e])
	}
	var names []string
	switch len(fields) {
	case swfFields:
		names = swfFieldNames[:]
	case len(gwfFieldNames):
		names = gwfFieldNames[:]
	}
	if names != nil {
		for i, f := range fields {
			if _, _, ok := lexNumber(f); !ok {
				err := fmt.Errorf("%w: a record of %d fields, this one not a finite number within int64", ErrUnknownFmt, len(fields))
				if tooLarge(f) {
					err = fmt.Errorf("%w: a record of %d fields with a %w: beyond %s", ErrUnknownFmt, len(fields), ErrRange, int64Limit)
				}
				return &ParseError{File: file, Line: no, Field: names[i], Value: acctValue(f), Err: err}
			}
		}
	}
	return &ParseError{File: file, Line: no, Value: acctValue(t),
		Err: fmt.Errorf("%w: no supported format reads this first record (--format names one)", ErrUnknownFmt)}
}
