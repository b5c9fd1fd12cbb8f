// Package daemon is the live loop that runs a tuned rule set on a Slurm
// cluster: each period it reads nodes and jobs from Slurm, feeds the
// feature state, builds the policy's View exactly as `ecotune decide`
// does, asks the policy, and carries the decision out with Slurm's
// power-saving verbs, never harming (unavailable, excluded or busy nodes
// are never powered down), with a decision log and Prometheus metrics.
package daemon
