// Package scoring evaluates policy configurations on traces: the Scorer
// (one worker pool of simulators replaying configurations), the Replayer
// each worker scores with, constraints on scores and the Normalizer that
// maps scores into the fixed hypervolume box of a split.
package scoring
