// Package fingerprint identifies what a computation depends on, field by
// field, so that a resume of a different computation is refused naming
// the fields that differ. Package run and the search method share it.
package fingerprint
