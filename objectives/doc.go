// Package objectives computes the scores of a simulation: the three EECluster
// objectives (p90 wait ratio, node-off seconds, reconfigurations) exactly as
// docs/architecture.md defines them, plus energy, waits, slowdown and
// makespan, and per user, group or partition (Breakdown); and it
// owns the one table of the scores (All): name, unit, direction,
// description and formats, read by flags, front columns, reports and presets.
package objectives
