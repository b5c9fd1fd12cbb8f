// Package slurmtest starts a loopback Slurm cluster for a test
// (scripts/slurm-loopback.sh: one slurmctld and several slurmd on
// 127.0.0.1, power saving on, Suspend/Resume programs that log their calls)
// and stops it when the test ends. Each Start is an instance of its own:
// its own directory and ports, so test packages run in parallel.
package slurmtest
