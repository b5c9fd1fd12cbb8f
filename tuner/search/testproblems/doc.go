// Package testproblems holds standard multiobjective test problems with
// known Pareto fronts (ZDT1–3, DTLZ2) as search.Problem values, to check
// the optimizer against published results.
package testproblems
