// Package progress shows a search's progress as it runs: on a terminal a
// bar with the generation, evaluations per second, the hypervolume of the
// current front and the time left; elsewhere a plain line every few
// seconds and at the end.
package progress
