// Package tuner orchestrates tuning runs: it tunes a policy's parameters
// and fuzzy rule bases on a trace (Tune), over rolling windows
// (TuneWindows), several policies (TunePolicies) or seeds (TuneSeeds),
// and as islands that run apart (Plan, TuneIsland, Merge), writing and
// resuming run directories (package run). The search method is package
// search; here candidates are scored on traces with one Scorer (one worker
// pool, also for robust multi-window evaluation), solutions are chosen
// from fronts by administrator preference, and progress is reported to
// Recorders and a Monitor, shown by the caller.
package tuner
