package run

import "github.com/ecotune/ecotune/internal/fingerprint"

// The fingerprint types live in internal/fingerprint, which the search
// method (tuner/search) shares without importing package run.
type (
	// Fingerprint identifies what a run computes, field by field
	// (fingerprint.Fingerprint).
	Fingerprint = fingerprint.Fingerprint
	// MismatchError is a refused resume (fingerprint.MismatchError).
	MismatchError = fingerprint.MismatchError
)

// FingerprintValue is v's canonical text for a Fingerprint
// (fingerprint.Value).
func FingerprintValue(v any) string { return fingerprint.Value(v) }

// Check returns a *MismatchError when was and now differ, else nil.
func Check(path string, was, now Fingerprint) error { return fingerprint.Check(path, was, now) }
