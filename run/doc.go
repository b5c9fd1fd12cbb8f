// Package run owns the run directory contract: the typed manifest
// (run.json), the split spec, the fronts, the checkpoint's fingerprint and
// the files' paths, read and written atomically; tuner writes run
// directories, reports and the tools above it read them. A run directory
// is opened by its path as a Root; every file and directory beneath goes
// through the Root, which refuses a symbolic link at any component.
package run
