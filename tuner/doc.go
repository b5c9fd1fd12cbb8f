// Package tuner searches policy parameters and fuzzy rule bases with NSGA-II
// (an eaopt model) and genetic-fuzzy learning, scores configurations on
// traces with one Scorer (one worker pool, also for robust multi-window
// evaluation), chooses solutions from fronts by administrator preference,
// computes hypervolume, and checkpoints runs into run directories (package
// run); progress is reported to Recorders and a Monitor, shown by the caller.
// Islands run in one process (Minimize) or apart, as local processes or
// Slurm array tasks (MinimizeIsland, TuneIsland, Merge), exchanging
// migrants through files at synchronous epochs (FileExchange), so the
// front depends on the seed alone.
package tuner
