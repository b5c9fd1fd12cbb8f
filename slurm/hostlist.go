package slurm

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// MaxHosts bounds the number of names one hostlist expression may expand to,
// so a hostile or mistyped expression (node[0-999999999]) is an error, not
// an allocation that takes the machine down.
const MaxHosts = 1 << 20

// ErrHostlist is matched by errors.Is for every malformed hostlist expression.
var ErrHostlist = errors.New("bad hostlist")

// maxDigits bounds a range bound so it fits an int64 with room to spare.
const maxDigits = 18

// ExpandHostlist expands a Slurm hostlist expression such as
// "node[001-096,100],login1,rack[1-2]n[01-02]" into host names, in the order
// the expression lists them (duplicates kept, as Slurm does). A range's
// numbers are zero-padded to the width of its lower bound, as Slurm pads:
// node[09-10] is node09,node10 and node[9-10] is node9,node10. The empty
// expression expands to no names.
func ExpandHostlist(expr string) ([]string, error) {
	elems, err := splitTop(expr)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, el := range elems {
		names, err := expandElement(el, MaxHosts-len(out))
		if err != nil {
			return nil, fmt.Errorf("%w %q: %v", ErrHostlist, expr, err)
		}
		out = append(out, names...)
	}
	return out, nil
}

// splitTop splits at the commas outside brackets and trims each element.
func splitTop(expr string) ([]string, error) {
	var elems []string
	depth, start := 0, 0
	for i := 0; i < len(expr); i++ {
		switch expr[i] {
		case '[':
			depth++
			if depth > 1 {
				return nil, fmt.Errorf("%w %q: nested '[' at byte %d", ErrHostlist, expr, i)
			}
		case ']':
			depth--
			if depth < 0 {
				return nil, fmt.Errorf("%w %q: ']' without '[' at byte %d", ErrHostlist, expr, i)
			}
		case ',':
			if depth == 0 {
				elems = append(elems, expr[start:i])
				start = i + 1
			}
		}
	}
	if depth != 0 {
		return nil, fmt.Errorf("%w %q: '[' not closed", ErrHostlist, expr)
	}
	elems = append(elems, expr[start:])
	out := elems[:0]
	for i, el := range elems {
		el = strings.TrimSpace(el)
		if el == "" {
			if len(elems) == 1 {
				return nil, nil
			}
			return nil, fmt.Errorf("%w %q: empty element %d", ErrHostlist, expr, i+1)
		}
		if strings.ContainsAny(el, " \t\n\r") {
			return nil, fmt.Errorf("%w %q: white space inside %q", ErrHostlist, expr, el)
		}
		out = append(out, el)
	}
	return out, nil
}

// rangeSpec is one lo-hi range of a bracket group, padded to width.
type rangeSpec struct {
	lo, hi int64
	width  int
}

// expandElement expands one element without top-level commas: literal text
// and bracket groups, the product of the groups in order.
func expandElement(el string, limit int) ([]string, error) {
	names := []string{""}
	for len(el) > 0 {
		open := strings.IndexByte(el, '[')
		if open < 0 {
			for i := range names {
				names[i] += el
			}
			break
		}
		lit := el[:open]
		end := strings.IndexByte(el[open:], ']')
		if end < 0 { // splitTop already checked; kept for safety
			return nil, fmt.Errorf("'[' not closed")
		}
		body := el[open+1 : open+end]
		el = el[open+end+1:]
		ranges, count, err := parseRanges(body)
		if err != nil {
			return nil, err
		}
		if count > int64(limit) || int64(len(names))*count > int64(limit) {
			return nil, fmt.Errorf("expands to more than %d names", MaxHosts)
		}
		next := make([]string, 0, int64(len(names))*count)
		for _, n := range names {
			for _, r := range ranges {
				for v := r.lo; v <= r.hi; v++ {
					next = append(next, n+lit+pad(v, r.width))
				}
			}
		}
		names = next
	}
	return names, nil
}

// parseRanges parses "001-096,100" (a bracket's contents).
func parseRanges(body string) ([]rangeSpec, int64, error) {
	if body == "" {
		return nil, 0, fmt.Errorf("empty brackets")
	}
	var out []rangeSpec
	var count int64
	for _, part := range strings.Split(body, ",") {
		loS, hiS, isRange := strings.Cut(part, "-")
		lo, err := parseBound(loS)
		if err != nil {
			return nil, 0, fmt.Errorf("range %q: %v", part, err)
		}
		hi := lo
		if isRange {
			if hi, err = parseBound(hiS); err != nil {
				return nil, 0, fmt.Errorf("range %q: %v", part, err)
			}
			if hi < lo {
				return nil, 0, fmt.Errorf("range %q runs backwards", part)
			}
		}
		count += hi - lo + 1
		if count > MaxHosts {
			return nil, 0, fmt.Errorf("expands to more than %d names", MaxHosts)
		}
		out = append(out, rangeSpec{lo: lo, hi: hi, width: len(loS)})
	}
	return out, count, nil
}

func parseBound(s string) (int64, error) {
	if s == "" {
		return 0, fmt.Errorf("missing number")
	}
	if len(s) > maxDigits {
		return 0, fmt.Errorf("number %q has more than %d digits", s, maxDigits)
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, fmt.Errorf("%q is not a number", s)
		}
	}
	return strconv.ParseInt(s, 10, 64)
}

func pad(v int64, width int) string {
	s := strconv.FormatInt(v, 10)
	if len(s) < width {
		s = strings.Repeat("0", width-len(s)) + s
	}
	return s
}

// hostKey is a name cut into a prefix and its trailing number; class is the
// zero-padding width the number is written with (0: no padding).
type hostKey struct {
	prefix string
	class  int
	num    int64
	plain  bool // no trailing number: the name stands alone
	name   string
}

// CompressHostlist writes names as a short hostlist expression that
// ExpandHostlist turns back into the same names, deduplicated and sorted
// (by prefix, padding width, then number): node01,node02,node03,node05 →
// "node[01-03,05]". Names may not contain ',', '[', ']' or white space.
func CompressHostlist(names []string) (string, error) {
	keys := make([]hostKey, 0, len(names))
	padded := map[string]map[int]bool{} // prefix → widths with a leading zero
	for _, n := range names {
		if n == "" || strings.ContainsAny(n, ",[] \t\n\r") {
			return "", fmt.Errorf("%w: host name %q cannot be written in a hostlist", ErrHostlist, n)
		}
		i := len(n)
		for i > 0 && n[i-1] >= '0' && n[i-1] <= '9' {
			i--
		}
		digits := n[i:]
		if digits == "" || len(digits) > maxDigits {
			keys = append(keys, hostKey{plain: true, name: n})
			continue
		}
		v, _ := strconv.ParseInt(digits, 10, 64)
		k := hostKey{prefix: n[:i], num: v, name: n}
		if len(digits) > 1 && digits[0] == '0' {
			k.class = len(digits)
			if padded[k.prefix] == nil {
				padded[k.prefix] = map[int]bool{}
			}
			padded[k.prefix][k.class] = true
		}
		keys = append(keys, k)
	}
	// A number without a leading zero joins the padded class of its own
	// width (node10 with node01..node09), where it is written the same.
	for i := range keys {
		k := &keys[i]
		if !k.plain && k.class == 0 {
			if w := len(strconv.FormatInt(k.num, 10)); padded[k.prefix][w] {
				k.class = w
			}
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.plain != b.plain {
			return !a.plain
		}
		if a.plain {
			return a.name < b.name
		}
		if a.prefix != b.prefix {
			return a.prefix < b.prefix
		}
		if a.class != b.class {
			return a.class < b.class
		}
		return a.num < b.num
	})
	var sb strings.Builder
	for i := 0; i < len(keys); {
		if sb.Len() > 0 {
			sb.WriteByte(',')
		}
		k := keys[i]
		if k.plain {
			sb.WriteString(k.name)
			for i < len(keys) && keys[i].plain && keys[i].name == k.name {
				i++
			}
			continue
		}
		j := i
		var ranges []rangeSpec
		for j < len(keys) && !keys[j].plain && keys[j].prefix == k.prefix && keys[j].class == k.class {
			v := keys[j].num
			if n := len(ranges); n > 0 && v <= ranges[n-1].hi+1 {
				if v > ranges[n-1].hi {
					ranges[n-1].hi = v
				}
			} else {
				ranges = append(ranges, rangeSpec{lo: v, hi: v, width: k.class})
			}
			j++
		}
		i = j
		sb.WriteString(k.prefix)
		if len(ranges) == 1 && ranges[0].lo == ranges[0].hi {
			sb.WriteString(pad(ranges[0].lo, k.class))
			continue
		}
		sb.WriteByte('[')
		for ri, r := range ranges {
			if ri > 0 {
				sb.WriteByte(',')
			}
			sb.WriteString(pad(r.lo, k.class))
			if r.hi > r.lo {
				sb.WriteByte('-')
				sb.WriteString(pad(r.hi, k.class))
			}
		}
		sb.WriteByte(']')
	}
	return sb.String(), nil
}
