// Package atomicfile writes files so that readers see either the old file
// or the whole new one, and never writes through a symbolic link planted
// at the destination: the module's one atomic writer.
package atomicfile
