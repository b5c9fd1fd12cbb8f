// Package interrupt stops a command's work at the first SIGINT or SIGTERM
// and ends the process at the second, with the exit status a shell gives a
// command the signal killed (128 + the signal's number: 130 for SIGINT,
// 143 for SIGTERM), so scripts and schedulers can tell an interrupted run
// from a finished or a failed one.
package interrupt
