// Package serve is ecotune's web workbench: pages to upload and inspect
// traces, start simulations and tuning runs, watch them (server-sent
// events), abort them, and read their results (front plots, holdout
// tables, picks, learned rules, rule-set export). It calls the same
// package code as the command line (datasets, tuner, reports, policy), so
// what a page starts is what `ecotune simulate` or `ecotune tune` runs.
//
// Everything lives under one data directory: traces/ID (an imported trace
// as Parquet, its inspect text), runs/ID (job.json, serve's record of the
// job; cluster.yaml, the cluster file a request gave; run/, the tuner's
// run directory, holding run/POLICY and summary.json for a tuning of
// several policies), uploads/ (files being received).
// IDs are generated; a name sent by a client is shown, never used as a
// path. Every request needs the access token (query, then a cookie);
// state-changing requests also need the CSRF token.
package serve
