// Package tuner orchestrates tuning runs: it tunes a policy's parameters
// and fuzzy rule bases on a trace (Tune), over rolling windows
// (TuneWindows), several policies (TunePolicies) or seeds (TuneSeeds),
// and as islands that run apart (Plan, TuneIsland, Merge), writing and
// resuming run directories (package run). The search method is package
// search, the evaluation of candidates on traces package scoring, the
// choice of solutions by administrator preference package pick and the
// summary files of several runs (windows.json, summary.json, seeds.json)
// package summary; progress is reported to the search's Recorders and a
// Monitor, shown by the caller.
package tuner
