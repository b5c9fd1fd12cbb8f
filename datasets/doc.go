// Package datasets reads HPC accounting logs (SWF, GWF, Slurm sacct, PBS/TORQUE,
// SGE/UGE, LSF, OAR, the Argonne dialect) into one canonical Trace, and reads
// and writes that trace as Parquet; it also validates, splits and synthesises
// workloads and embeds a small default trace.
package datasets
