// Package scoring evaluates policy configurations on traces: the Scorer
// (one worker pool of simulators replaying configurations), the
// PolicyProblem a search minimises (a policy's parameters and fuzzy rule
// base as decision variables, scored on a train split, plainly or by
// robust evaluation over windows and replicas built into the problem:
// NewRobustPolicyProblem), the reference policies, constraints on scores
// and the Normalizer that maps scores into the fixed hypervolume box of a
// split.
package scoring
