// Package slurm is the adapter to a live Slurm cluster: it detects the
// version (`scontrol version`), reads nodes and jobs from `sinfo --json` and
// `squeue --json` (openapi v0.0.38 on 22.05, later layouts tolerated) or,
// where a version lacks --json, from `scontrol show node -o` and squeue's
// parsable text; it types node states (base state and flags) and classifies
// them for power management; it expands and compresses hostlist expressions;
// and it runs Slurm's power verbs (`scontrol update nodename=... state=
// power_down|power_down_asap|power_up` on 22.05) through an injectable
// Runner. It holds no decision logic and imports no ecotune package.
package slurm
