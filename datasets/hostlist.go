package datasets

// Host lists in Slurm's notation: "cn[01-04,07],gpu1" names cn01, cn02,
// cn03, cn04, cn07 and gpu1. A name may have several bracket groups
// ("r[1-2]n[1-3]" is their product, in order); numbers keep the width
// written ("[01-10]" gives two digits). ExpandHostList reads such a list,
// HostList writes one.

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// maxHostListNames bounds the names one host list may expand to, so that
// a damaged list such as "n[0-999999999]" cannot exhaust memory.
const maxHostListNames = 1 << 20

var errHostList = errors.New("bad host list")

// ExpandHostList returns the names of a host list, in the list's order.
func ExpandHostList(list string) ([]string, error) {
	var h hostNames
	if err := h.expand([]byte(list)); err != nil {
		return nil, err
	}
	names := make([]string, h.len())
	for i := range names {
		names[i] = string(h.name(i))
	}
	return names, nil
}

// hostNames holds the names of an expanded host list in one buffer; its
// buffers are reused by the next expand.
type hostNames struct {
	buf     []byte
	ends    []int
	scratch []byte
}

func (h *hostNames) len() int { return len(h.ends) }

func (h *hostNames) name(i int) []byte {
	start := 0
	if i > 0 {
		start = h.ends[i-1]
	}
	return h.buf[start:h.ends[i]]
}

// expand replaces h's names by those of list.
func (h *hostNames) expand(list []byte) error {
	h.buf, h.ends = h.buf[:0], h.ends[:0]
	if len(list) == 0 {
		return fmt.Errorf("empty host list: %w", errHostList)
	}
	for len(list) > 0 {
		end, depth := 0, 0
		for ; end < len(list); end++ {
			c := list[end]
			if c == '[' {
				depth++
			} else if c == ']' {
				depth--
			} else if c == ',' && depth == 0 {
				break
			}
			if depth < 0 || depth > 1 {
				return fmt.Errorf("%q: unbalanced brackets: %w", list, errHostList)
			}
		}
		if depth != 0 {
			return fmt.Errorf("%q: unbalanced brackets: %w", list, errHostList)
		}
		item := list[:end]
		if end < len(list) {
			list = list[end+1:]
			if len(list) == 0 {
				return fmt.Errorf("trailing ',': %w", errHostList)
			}
		} else {
			list = nil
		}
		if len(bytes.TrimSpace(item)) == 0 {
			return fmt.Errorf("empty host name: %w", errHostList)
		}
		var err error
		if h.scratch, err = h.item(item, h.scratch[:0]); err != nil {
			return err
		}
	}
	return nil
}

// item expands one comma-free item ("a[1-2]b[3,5]") after prefix.
func (h *hostNames) item(item, prefix []byte) ([]byte, error) {
	open := bytes.IndexByte(item, '[')
	if open < 0 {
		prefix = append(prefix, item...)
		if len(h.ends) >= maxHostListNames {
			return prefix, fmt.Errorf("more than %d names: %w", maxHostListNames, errHostList)
		}
		h.buf = append(h.buf, prefix...)
		h.ends = append(h.ends, len(h.buf))
		return prefix, nil
	}
	closing := bytes.IndexByte(item, ']')
	if closing < open {
		return prefix, fmt.Errorf("%q: unbalanced brackets: %w", item, errHostList)
	}
	prefix = append(prefix, item[:open]...)
	base := len(prefix)
	ranges := item[open+1 : closing]
	rest := item[closing+1:]
	for more := true; more; {
		var part []byte
		part, ranges, more = bytes.Cut(ranges, []byte{','})
		lo, hi, isRange := bytes.Cut(part, []byte{'-'})
		if !isRange {
			hi = lo
		}
		a, ok1 := acctDigits(lo)
		b, ok2 := acctDigits(hi)
		if !ok1 || !ok2 || b < a {
			return prefix, fmt.Errorf("%q: bad range %q: %w", item, part, errHostList)
		}
		if b-a >= maxHostListNames {
			return prefix, fmt.Errorf("%q: range %q has more than %d names: %w", item, part, maxHostListNames, errHostList)
		}
		width := len(lo)
		for n := a; n <= b; n++ {
			p := prefix[:base]
			var d [20]byte
			digits := strconv.AppendInt(d[:0], n, 10)
			for k := len(digits); k < width; k++ {
				p = append(p, '0')
			}
			p = append(p, digits...)
			var err error
			if p, err = h.item(rest, p); err != nil {
				return p, err
			}
			prefix = p[:base]
		}
	}
	return prefix, nil
}

// HostList writes names (each without ',', '[' or ']') as a compact host
// list: names that differ only in a trailing number share a bracket
// group with ranges, as Slurm writes them ("cn[01-04,07],gpu1"). The
// groups are sorted by prefix; ExpandHostList gives back the names,
// sorted by prefix and number, duplicates removed.
func HostList(names []string) string {
	type key struct {
		prefix string
		width  int // digits of zero-padded numbers, 0 for unpadded
	}
	type num struct {
		n     int64
		width int
	}
	groups := map[key][]int64{}
	var plain []string
	var keys []key
	add := func(k key, n int64) {
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], n)
	}
	var unpadded []struct {
		prefix string
		n      num
	}
	for _, name := range names {
		i := len(name)
		for i > 0 && name[i-1] >= '0' && name[i-1] <= '9' {
			i--
		}
		digits := name[i:]
		n, err := strconv.ParseInt(digits, 10, 64)
		if digits == "" || len(digits) > 18 || err != nil {
			plain = append(plain, name)
			continue
		}
		if digits[0] == '0' && len(digits) > 1 {
			add(key{name[:i], len(digits)}, n)
			continue
		}
		unpadded = append(unpadded, struct {
			prefix string
			n      num
		}{name[:i], num{n, len(digits)}})
	}
	// An unpadded number as wide as a padded group of its prefix joins it
	// ("n10" with "n09" is "n[09-10]").
	for _, u := range unpadded {
		k := key{u.prefix, u.n.width}
		if _, ok := groups[k]; !ok || u.n.width < 2 {
			k = key{u.prefix, 0}
		}
		add(k, u.n.n)
	}
	slices.SortFunc(keys, func(a, b key) int {
		return cmp.Or(strings.Compare(a.prefix, b.prefix), cmp.Compare(a.width, b.width))
	})
	slices.Sort(plain)
	plain = slices.Compact(plain)
	var items []string
	pi := 0
	for _, k := range keys {
		for pi < len(plain) && plain[pi] < k.prefix {
			items = append(items, plain[pi])
			pi++
		}
		ns := groups[k]
		slices.Sort(ns)
		ns = slices.Compact(ns)
		format := func(n int64) string { return fmt.Sprintf("%0*d", k.width, n) }
		if len(ns) == 1 {
			items = append(items, k.prefix+format(ns[0]))
			continue
		}
		var parts []string
		for i := 0; i < len(ns); {
			j := i
			for j+1 < len(ns) && ns[j+1] == ns[j]+1 {
				j++
			}
			if j == i {
				parts = append(parts, format(ns[i]))
			} else {
				parts = append(parts, format(ns[i])+"-"+format(ns[j]))
			}
			i = j + 1
		}
		items = append(items, k.prefix+"["+strings.Join(parts, ",")+"]")
	}
	items = append(items, plain[pi:]...)
	return strings.Join(items, ",")
}
