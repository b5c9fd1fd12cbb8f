package hostlist

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unsafe"
)

// MaxHosts bounds the number of names one expression may expand to, so a
// hostile or mistyped expression (node[0-999999999]) is an error, not an
// allocation that takes the machine down.
const MaxHosts = 1 << 20

// ErrSyntax is matched by errors.Is for every malformed expression and
// every name Compress cannot write.
var ErrSyntax = errors.New("bad hostlist")

// maxDigits bounds a range bound so it fits an int64 with room to spare.
const maxDigits = 18

// Expand expands an expression such as
// "node[001-096,100],login1,rack[1-2]n[01-02]" into host names, in the
// order the expression lists them (duplicates kept, as Slurm does). A
// range's numbers are zero-padded to the width of its lower bound, as
// Slurm pads: node[09-10] is node09,node10 and node[9-10] is node9,node10.
// White space around an element is ignored; the empty expression expands
// to no names.
func Expand(expr string) ([]string, error) {
	var n Names
	if err := n.Expand(expr); err != nil {
		return nil, err
	}
	if n.Len() == 0 {
		return nil, nil
	}
	out := make([]string, n.Len())
	for i := range out {
		out[i] = string(n.Name(i))
	}
	return out, nil
}

// Names holds the names of an expanded expression in one buffer, reused
// by the next Expand. Its zero value is ready for use.
type Names struct {
	buf    []byte
	ends   []int
	prefix []byte
	elems  []string
	segs   []segment
	ranges []rangeSpec // the segments' (segment.from, to)
}

// Len is the number of names.
func (n *Names) Len() int { return len(n.ends) }

// Name is the i-th name; it is valid until the next Expand.
func (n *Names) Name(i int) []byte {
	start := 0
	if i > 0 {
		start = n.ends[i-1]
	}
	return n.buf[start:n.ends[i]]
}

// Expand replaces n's names by those of expr, as the function Expand
// reads it.
func (n *Names) Expand(expr string) error {
	n.buf, n.ends = n.buf[:0], n.ends[:0]
	elems, err := splitTop(expr, n.elems[:0])
	n.elems = elems
	if err != nil {
		return err
	}
	for _, el := range elems {
		if err := n.element(el); err != nil {
			n.buf, n.ends = n.buf[:0], n.ends[:0]
			return fmt.Errorf("%w %q: %v", ErrSyntax, expr, err)
		}
	}
	return nil
}

// ExpandBytes is Expand of expr's bytes, without copying them: n keeps
// no reference to expr after it returns.
func (n *Names) ExpandBytes(expr []byte) error {
	if len(expr) == 0 {
		return n.Expand("")
	}
	err := n.Expand(unsafe.String(&expr[0], len(expr)))
	clear(n.segs[:cap(n.segs)]) // the segments and elements point into expr
	clear(n.elems[:cap(n.elems)])
	return err
}

// splitTop splits at the commas outside brackets and trims each element.
func splitTop(expr string, elems []string) ([]string, error) {
	if err := checkBrackets(expr); err != nil {
		return elems, err
	}
	elems = splitOutside(expr, elems)
	out := elems[:0]
	for i, el := range elems {
		el = strings.TrimSpace(el)
		if el == "" {
			if len(elems) == 1 {
				return elems[:0], nil
			}
			return elems, fmt.Errorf("%w %q: empty element %d", ErrSyntax, expr, i+1)
		}
		if strings.ContainsAny(el, " \t\n\r") {
			return elems, fmt.Errorf("%w %q: white space inside %q", ErrSyntax, expr, el)
		}
		out = append(out, el)
	}
	return out, nil
}

// checkBrackets reports unbalanced or nested brackets.
func checkBrackets(expr string) error {
	depth := 0
	for i := 0; i < len(expr); i++ {
		switch expr[i] {
		case '[':
			if depth++; depth > 1 {
				return fmt.Errorf("%w %q: nested '[' at byte %d", ErrSyntax, expr, i)
			}
		case ']':
			if depth--; depth < 0 {
				return fmt.Errorf("%w %q: ']' without '[' at byte %d", ErrSyntax, expr, i)
			}
		}
	}
	if depth != 0 {
		return fmt.Errorf("%w %q: '[' not closed", ErrSyntax, expr)
	}
	return nil
}

// splitOutside splits expr (balanced, unnested) at commas outside
// brackets.
func splitOutside(expr string, elems []string) []string {
	inside, start := false, 0
	for i := 0; i < len(expr); i++ {
		switch expr[i] {
		case '[', ']':
			inside = expr[i] == '['
		case ',':
			if !inside {
				elems = append(elems, expr[start:i])
				start = i + 1
			}
		}
	}
	return append(elems, expr[start:])
}

// A segment is literal text followed by a bracket group's ranges,
// Names.ranges[from:to] (none for the element's trailing text).
type segment struct {
	lit      string
	from, to int
}

// rangeSpec is one lo-hi range of a bracket group, padded to width.
type rangeSpec struct {
	lo, hi int64
	width  int
}

// element appends the names of one element without top-level commas:
// the product of its bracket groups, in order.
func (n *Names) element(el string) error {
	n.segs, n.ranges = n.segs[:0], n.ranges[:0]
	count, err := n.parseElement(el)
	if err != nil {
		return err
	}
	if count > int64(MaxHosts-len(n.ends)) {
		return fmt.Errorf("expands to more than %d names", MaxHosts)
	}
	n.prefix = n.product(n.segs, n.prefix[:0])
	return nil
}

// parseElement cuts el into n's segments and counts the names they
// make.
func (n *Names) parseElement(el string) (int64, error) {
	count := int64(1)
	for {
		open := strings.IndexByte(el, '[')
		if open < 0 {
			n.segs = append(n.segs, segment{lit: el})
			return count, nil
		}
		end := open + strings.IndexByte(el[open:], ']')
		from := len(n.ranges)
		c, err := n.parseRanges(el[open+1 : end])
		if err != nil {
			return 0, err
		}
		if count *= c; count > MaxHosts {
			return 0, fmt.Errorf("expands to more than %d names", MaxHosts)
		}
		n.segs = append(n.segs, segment{lit: el[:open], from: from, to: len(n.ranges)})
		el = el[end+1:]
	}
}

// product appends prefix followed by every name segs make; it returns
// the prefix buffer for reuse.
func (n *Names) product(segs []segment, prefix []byte) []byte {
	s := segs[0]
	prefix = append(prefix, s.lit...)
	if len(segs) == 1 {
		n.buf = append(n.buf, prefix...)
		n.ends = append(n.ends, len(n.buf))
		return prefix
	}
	base := len(prefix)
	for _, r := range n.ranges[s.from:s.to] {
		for v := r.lo; v <= r.hi; v++ {
			prefix = n.product(segs[1:], appendPadded(prefix[:base], v, r.width))
		}
	}
	return prefix[:base]
}

// parseRanges appends the ranges of "001-096,100" (a bracket's
// contents) to n's and counts their numbers.
func (n *Names) parseRanges(body string) (int64, error) {
	if body == "" {
		return 0, fmt.Errorf("empty brackets")
	}
	var count int64
	for more := true; more; {
		var part string
		part, body, more = strings.Cut(body, ",")
		r, err := parseRange(part)
		if err != nil {
			return 0, err
		}
		if count += r.hi - r.lo + 1; count > MaxHosts {
			return 0, fmt.Errorf("expands to more than %d names", MaxHosts)
		}
		n.ranges = append(n.ranges, r)
	}
	return count, nil
}

// parseRange parses "001-096" or "100".
func parseRange(part string) (rangeSpec, error) {
	loS, hiS, isRange := strings.Cut(part, "-")
	lo, err := parseBound(loS)
	if err != nil {
		return rangeSpec{}, fmt.Errorf("range %q: %v", part, err)
	}
	hi := lo
	if isRange {
		if hi, err = parseBound(hiS); err != nil {
			return rangeSpec{}, fmt.Errorf("range %q: %v", part, err)
		}
		if hi < lo {
			return rangeSpec{}, fmt.Errorf("range %q runs backwards", part)
		}
	}
	return rangeSpec{lo: lo, hi: hi, width: len(loS)}, nil
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

// appendPadded appends v zero-padded to width digits.
func appendPadded(dst []byte, v int64, width int) []byte {
	var d [20]byte
	digits := strconv.AppendInt(d[:0], v, 10)
	for k := len(digits); k < width; k++ {
		dst = append(dst, '0')
	}
	return append(dst, digits...)
}

// pad is v zero-padded to width digits.
func pad(v int64, width int) string { return string(appendPadded(nil, v, width)) }
