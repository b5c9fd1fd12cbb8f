// Package search is the search method: it minimises a Problem's
// objectives over its decision variables with a Method (NSGA2, NSGA-II on
// islands with ring migration) under Settings (budget, seed, workers,
// recorders), and returns a Result.
//
// What is optimised (Problem, Evaluator), how (Method) and for how long
// and who watches (Settings, Recorder) are kept apart, as in
// gonum/optimize. Progress displays and the CheckpointWriter are
// Recorders; a Checkpoint resumes a search. Islands run in one process
// (Minimize) or apart, as separate processes (MinimizeIsland), exchanging
// migrants through an Exchange at synchronous epochs, so the front depends
// on the seed alone; MergeResults joins their checkpoints. Hypervolume
// measures fronts. The package knows nothing of policies, traces or run
// directories; test problems with known fronts are in testproblems.
package search
