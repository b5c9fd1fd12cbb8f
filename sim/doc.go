// Package sim is a deterministic discrete-event cluster simulator: nodes and
// their power states, a job queue with FCFS or EASY backfilling, energy
// accounting, and a record of what happened.
package sim
