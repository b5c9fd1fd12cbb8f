// Package summary reads and writes the summary files of the tuner's
// multi-run directories: windows.json and windows.csv of a rolling-origin
// validation (tuner.TuneWindows), summary.json of a policy comparison
// (tuner.TunePolicies) and seeds.json of a comparison repeated over seeds
// (tuner.TuneSeeds), with their types and tables. It builds them from the
// runs' run.json and front.json (package run) and runs nothing itself.
package summary
