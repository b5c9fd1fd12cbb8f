//go:build !long

package policy_test

// long is false without the long build tag: the trace-replay tests use a
// few traces (see long_on_test.go).
const long = false
