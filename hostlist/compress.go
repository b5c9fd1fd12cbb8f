package hostlist

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Order says where Compress writes the names without a trailing number.
type Order int

const (
	// PlainLast writes them after every numbered group, sorted: Slurm's
	// exports ("gpu[1-2],node001,login").
	PlainLast Order = iota
	// PlainSorted writes them among the groups, before the first group
	// whose prefix sorts after them: trace layouts ("gpu[1-2],login,node001").
	PlainSorted
)

// hostKey is a name cut into a prefix and its trailing number; class is
// the zero-padding width the number is written with (0: no padding).
type hostKey struct {
	prefix string
	class  int
	num    int64
}

// Compress writes names as a short expression that Expand turns back
// into the same names, deduplicated and sorted (by prefix, padding width,
// then number): node01,node02,node03,node05 → "node[01-03,05]". Names
// without a trailing number come last (PlainLast). Names may not be
// empty or contain ',', '[', ']' or white space.
func Compress(names []string) (string, error) { return CompressOrder(names, PlainLast) }

// CompressOrder is Compress with the names without a trailing number
// placed by order.
func CompressOrder(names []string, order Order) (string, error) {
	keys, plain, err := cutNames(names)
	if err != nil {
		return "", err
	}
	slices.SortFunc(keys, compareKeys)
	slices.Sort(plain)
	plain = slices.Compact(plain)
	var items []string
	for i := 0; i < len(keys); {
		j := groupEnd(keys, i)
		if order == PlainSorted {
			for len(plain) > 0 && plain[0] < keys[i].prefix {
				items, plain = append(items, plain[0]), plain[1:]
			}
		}
		items = append(items, formatGroup(keys[i:j]))
		i = j
	}
	return strings.Join(append(items, plain...), ","), nil
}

// cutNames cuts each name into its key, or lists it as plain when it has
// no trailing number (or one too long to read).
func cutNames(names []string) (keys []hostKey, plain []string, err error) {
	padded := map[hostKey]bool{} // prefix and width of the zero-padded numbers
	for _, n := range names {
		if n == "" || strings.ContainsAny(n, ",[] \t\n\r") {
			return nil, nil, fmt.Errorf("%w: host name %q cannot be written in a hostlist", ErrSyntax, n)
		}
		k, ok := cutName(n)
		if !ok {
			plain = append(plain, n)
			continue
		}
		if k.class > 0 {
			padded[hostKey{prefix: k.prefix, class: k.class}] = true
		}
		keys = append(keys, k)
	}
	joinPadded(keys, padded)
	return keys, plain, nil
}

// cutName cuts name into its prefix and trailing number.
func cutName(name string) (hostKey, bool) {
	i := len(name)
	for i > 0 && name[i-1] >= '0' && name[i-1] <= '9' {
		i--
	}
	digits := name[i:]
	if digits == "" || len(digits) > maxDigits {
		return hostKey{}, false
	}
	v, _ := strconv.ParseInt(digits, 10, 64)
	k := hostKey{prefix: name[:i], num: v}
	if len(digits) > 1 && digits[0] == '0' {
		k.class = len(digits)
	}
	return k, true
}

// joinPadded moves a number without a leading zero into the padded class
// of its own width (node10 with node01..node09), where it is written the
// same.
func joinPadded(keys []hostKey, padded map[hostKey]bool) {
	for i := range keys {
		k := &keys[i]
		if k.class != 0 {
			continue
		}
		if w := len(strconv.FormatInt(k.num, 10)); padded[hostKey{prefix: k.prefix, class: w}] {
			k.class = w
		}
	}
}

func compareKeys(a, b hostKey) int {
	return cmp.Or(strings.Compare(a.prefix, b.prefix), cmp.Compare(a.class, b.class), cmp.Compare(a.num, b.num))
}

// groupEnd is the end of the group of keys[i:]: the keys with its prefix
// and class.
func groupEnd(keys []hostKey, i int) int {
	j := i + 1
	for j < len(keys) && keys[j].prefix == keys[i].prefix && keys[j].class == keys[i].class {
		j++
	}
	return j
}

// formatGroup writes one group (sorted keys of one prefix and class):
// its prefix and either its one number or its runs in brackets.
func formatGroup(group []hostKey) string {
	k := group[0]
	ranges := runs(group)
	if len(ranges) == 1 && ranges[0].lo == ranges[0].hi {
		return k.prefix + pad(ranges[0].lo, k.class)
	}
	parts := make([]string, len(ranges))
	for i, r := range ranges {
		parts[i] = pad(r.lo, k.class)
		if r.hi > r.lo {
			parts[i] += "-" + pad(r.hi, k.class)
		}
	}
	return k.prefix + "[" + strings.Join(parts, ",") + "]"
}

// runs are the runs of consecutive numbers of a sorted group, duplicates
// merged.
func runs(group []hostKey) []rangeSpec {
	var out []rangeSpec
	for _, k := range group {
		if n := len(out); n > 0 && k.num <= out[n-1].hi+1 {
			out[n-1].hi = max(out[n-1].hi, k.num)
			continue
		}
		out = append(out, rangeSpec{lo: k.num, hi: k.num, width: k.class})
	}
	return out
}
