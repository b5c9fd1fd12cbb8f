// Package help holds the long help texts of ecotune's commands, one
// embedded file per command (NAME.txt), so the command files keep only
// their flags and calls. Only cmd/ecotune imports it.
package help
