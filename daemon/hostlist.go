package daemon

import (
	"fmt"
	"strconv"
	"strings"
)

// maxHosts bounds a hostlist expansion (no cluster has more nodes).
const maxHosts = 1 << 20

// expandHosts expands a Slurm hostlist expression such as
// "node[001-004,7],gpu1" into host names, in order.
func expandHosts(expr string) ([]string, error) {
	var out []string
	for _, part := range splitTop(expr) {
		part = strings.TrimSpace(part)
		if part == "" {
			return nil, fmt.Errorf("hostlist %q: empty name", expr)
		}
		names, err := expandOne(part)
		if err != nil {
			return nil, fmt.Errorf("hostlist %q: %w", expr, err)
		}
		if len(out)+len(names) > maxHosts {
			return nil, fmt.Errorf("hostlist %q: more than %d hosts", expr, maxHosts)
		}
		out = append(out, names...)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("hostlist %q: no host", expr)
	}
	return out, nil
}

// splitTop splits at commas outside brackets.
func splitTop(s string) []string {
	var parts []string
	depth, from := 0, 0
	for i, r := range s {
		switch r {
		case '[':
			depth++
		case ']':
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, s[from:i])
				from = i + 1
			}
		}
	}
	return append(parts, s[from:])
}

func expandOne(p string) ([]string, error) {
	open := strings.IndexByte(p, '[')
	if open < 0 {
		if strings.ContainsAny(p, "]") {
			return nil, fmt.Errorf("%q: unbalanced ]", p)
		}
		return []string{p}, nil
	}
	end := strings.IndexByte(p, ']')
	if end < open {
		return nil, fmt.Errorf("%q: unbalanced [", p)
	}
	prefix, body, rest := p[:open], p[open+1:end], p[end+1:]
	tails, err := expandOne(rest)
	if err != nil {
		return nil, err
	}
	if rest == "" {
		tails = []string{""}
	}
	var out []string
	for _, r := range strings.Split(body, ",") {
		lo, hi, found := strings.Cut(r, "-")
		if !found {
			hi = lo
		}
		a, err1 := strconv.Atoi(lo)
		b, err2 := strconv.Atoi(hi)
		if err1 != nil || err2 != nil || a < 0 || b < a || lo == "" || hi == "" {
			return nil, fmt.Errorf("%q: bad range %q", p, r)
		}
		if b-a >= maxHosts || len(out)+(b-a+1)*len(tails) > maxHosts {
			return nil, fmt.Errorf("%q: more than %d hosts", p, maxHosts)
		}
		width := 0
		if len(lo) > 1 && lo[0] == '0' {
			width = len(lo)
		}
		for k := a; k <= b; k++ {
			for _, t := range tails {
				out = append(out, fmt.Sprintf("%s%0*d%s", prefix, width, k, t))
			}
		}
	}
	return out, nil
}

// compressHosts writes names as a Slurm hostlist: runs of names that
// differ only in a trailing number of the same width become prefix[a-b].
// The order of first appearance of each prefix is kept.
func compressHosts(names []string) string {
	type run struct {
		prefix string
		width  int
		nums   []int
	}
	var runs []*run
	index := map[string]*run{}
	var plain []string
	for _, n := range names {
		i := len(n)
		for i > 0 && n[i-1] >= '0' && n[i-1] <= '9' {
			i--
		}
		if i == len(n) {
			plain = append(plain, n)
			continue
		}
		digits := n[i:]
		k, err := strconv.Atoi(digits)
		if err != nil {
			plain = append(plain, n)
			continue
		}
		width := 0
		if len(digits) > 1 && digits[0] == '0' {
			width = len(digits)
		} else if len(digits) > 1 {
			width = -len(digits) // unpadded multi-digit; compatible with any unpadded width
		}
		key := n[:i] + "\x00" + strconv.Itoa(max(width, 0))
		r := index[key]
		if r == nil {
			r = &run{prefix: n[:i], width: max(width, 0)}
			index[key] = r
			runs = append(runs, r)
		}
		r.nums = append(r.nums, k)
	}
	var parts []string
	for _, r := range runs {
		if len(r.nums) == 1 {
			parts = append(parts, fmt.Sprintf("%s%0*d", r.prefix, r.width, r.nums[0]))
			continue
		}
		var b strings.Builder
		b.WriteString(r.prefix + "[")
		for i := 0; i < len(r.nums); {
			j := i
			for j+1 < len(r.nums) && r.nums[j+1] == r.nums[j]+1 {
				j++
			}
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "%0*d", r.width, r.nums[i])
			if j > i {
				fmt.Fprintf(&b, "-%0*d", r.width, r.nums[j])
			}
			i = j + 1
		}
		b.WriteByte(']')
		parts = append(parts, b.String())
	}
	return strings.Join(append(parts, plain...), ",")
}

// ExpandHosts expands a Slurm hostlist expression (node[01-04],gpu1).
func ExpandHosts(expr string) ([]string, error) { return expandHosts(expr) }
