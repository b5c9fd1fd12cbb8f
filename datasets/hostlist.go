package datasets

// Host lists in Slurm's notation: "cn[01-04,07],gpu1" names cn01, cn02,
// cn03, cn04, cn07 and gpu1. A name may have several bracket groups
// ("r[1-2]n[1-3]" is their product, in order); numbers keep the width
// written ("[01-10]" gives two digits). ExpandHostList reads such a list,
// HostList writes one.

import (
	"fmt"
	"strings"

	"github.com/ecotune/ecotune/hostlist"
)

// errHostList is matched by every host-list error (hostlist.ErrSyntax).
var errHostList = hostlist.ErrSyntax

// ExpandHostList returns the names of a host list, in the list's order
// (hostlist.Expand); an empty list is an error.
func ExpandHostList(list string) ([]string, error) {
	names, err := hostlist.Expand(list)
	if err == nil && len(names) == 0 {
		err = fmt.Errorf("empty host list: %w", errHostList)
	}
	return names, err
}

// HostList writes names (each without ',', '[', ']' or white space) as a
// compact host list: names that differ only in a trailing number share a
// bracket group with ranges, as Slurm writes them ("cn[01-04,07],gpu1").
// The groups and the other names are sorted by prefix
// (hostlist.PlainSorted); ExpandHostList gives back the names, sorted by
// prefix and number, duplicates removed. Names no host list can hold are
// joined as they are.
func HostList(names []string) string {
	s, err := hostlist.CompressOrder(names, hostlist.PlainSorted)
	if err != nil {
		return strings.Join(names, ",")
	}
	return s
}
