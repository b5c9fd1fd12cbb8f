package slurm

import "github.com/ecotune/ecotune/hostlist"

// MaxHosts bounds the number of names one hostlist expression may expand to
// (hostlist.MaxHosts).
const MaxHosts = hostlist.MaxHosts

// ErrHostlist is matched by errors.Is for every malformed hostlist
// expression (hostlist.ErrSyntax).
var ErrHostlist = hostlist.ErrSyntax

// ExpandHostlist expands a Slurm hostlist expression such as
// "node[001-096,100],login1" into host names, in the order the expression
// lists them (hostlist.Expand).
func ExpandHostlist(expr string) ([]string, error) { return hostlist.Expand(expr) }

// CompressHostlist writes names as a short hostlist expression, names
// without a trailing number last (hostlist.Compress).
func CompressHostlist(names []string) (string, error) { return hostlist.Compress(names) }
