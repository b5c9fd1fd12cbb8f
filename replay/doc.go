// Package replay runs one configuration (a policy and its parameters, a
// cluster, a scheduler, a decision period) over a trace and scores it:
// the one replay path of the module, for `ecotune simulate`, `ecotune
// compare` and the workbench's simulations.
//
// Run streams a trace's jobs into one replay and returns its Result,
// the object `ecotune simulate --json` prints; a cluster with partitions
// replays each partition's jobs on its own nodes under its own instance
// of the policy (sim.Partitioned). A Replayer is a worker's state for
// many replays of candidates on the same traces: it keeps a simulator
// per trace, the result and the scores' scratch space, and renews the
// last policy of each kind, so a replay after the first allocates
// (almost) nothing. Each runs many configurations in parallel, one
// Replayer per worker, results in task order.
package replay
