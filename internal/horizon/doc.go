// Package horizon defines the latest time ecotune accepts anywhere: the
// one bound on times in traces, cluster states and daemon observations.
package horizon
