//go:build long

package policy_test

// long widens the trace-replay tests to every shared trace (and whole
// traces): go test -tags long ./policy/
const long = true
