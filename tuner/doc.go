// Package tuner searches policy parameters and fuzzy rule bases with NSGA-II
// (an eaopt model) and genetic-fuzzy learning, scores configurations on
// traces with one Scorer (one worker pool, also for robust multi-window
// evaluation), chooses solutions from fronts by administrator preference,
// computes hypervolume, and checkpoints runs into run directories (package
// run); progress is reported to Recorders and a Monitor, shown by the caller.
package tuner
