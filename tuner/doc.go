// Package tuner searches policy parameters and fuzzy rule bases with NSGA-II
// (an eaopt model) and genetic-fuzzy learning, chooses solutions from fronts
// by administrator preference, computes hypervolume, and checkpoints runs.
package tuner
