package datasets

import (
	"errors"
	"fmt"
)

// Sentinel errors that callers may match with errors.Is.
var (
	ErrSyntax      = errors.New("syntax error")
	ErrFieldCount  = errors.New("wrong number of fields")
	ErrRange       = errors.New("value out of range")
	ErrUnknownFmt  = errors.New("unknown log format")
	ErrOutputExist = errors.New("output exists (use --force to replace it)")
)

// A ParseError reports a record that cannot be read: the file, the line
// (1-based) where the record starts, the field's name and the cause.
type ParseError struct {
	File  string
	Line  int
	Field string
	Value string
	Err   error
}

func (e *ParseError) Error() string {
	s := fmt.Sprintf("%s:%d", e.File, e.Line)
	if e.Field != "" {
		s += ": field " + e.Field
	}
	if e.Value != "" {
		s += fmt.Sprintf(" (%q)", e.Value)
	}
	return s + ": " + e.Err.Error()
}

func (e *ParseError) Unwrap() error { return e.Err }
