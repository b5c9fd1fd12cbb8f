// Package exchange carries migrants between islands that run apart (local
// processes or Slurm array tasks) through files in the run directory: at
// each migration epoch every island writes its population atomically and
// reads its neighbours', skipping an island whose heartbeat has stopped,
// so the front depends on the seed alone, never on where or how fast the
// islands ran.
package exchange
