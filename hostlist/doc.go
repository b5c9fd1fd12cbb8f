// Package hostlist reads and writes host lists in Slurm's notation:
// "node[01-04,07],login1" names node01 … node04, node07 and login1.
//
// Expand reads an expression into host names, in the order it lists them;
// Names does the same into buffers reused by the next expression (for
// readers of logs that expand a list per record). Compress writes names
// as the shortest such expression of runs of numbers, which Expand turns
// back into the names, deduplicated and sorted. The package imports
// nothing of the module: slurm and datasets both use it.
package hostlist
