package datasets

import (
	"math"
	"strconv"
)

// lexIsSpace reports whether c separates fields of a whitespace-separated
// record (space, tab, carriage return, vertical tab, form feed).
func lexIsSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'
}

// lexField returns the bounds of the first whitespace-separated field of
// line at or after i; start == end == len(line) when there is none.
func lexField(line []byte, i int) (start, end int) {
	for i < len(line) && lexIsSpace(line[i]) {
		i++
	}
	start = i
	for i < len(line) && !lexIsSpace(line[i]) {
		i++
	}
	return start, i
}

// lexIntField is lexField fused with the common case of lexNumber: it
// returns the bounds of the field at or after i and, when the field is a
// plain integer (an optional sign and at most 18 digits), its value and
// true. For any other field it returns false, and lexNumber decides.
func lexIntField(line []byte, i int) (start, end int, v int64, ok bool) {
	for i < len(line) && lexIsSpace(line[i]) {
		i++
	}
	start = i
	neg := false
	if i < len(line) && (line[i] == '-' || line[i] == '+') {
		neg = line[i] == '-'
		i++
	}
	digits := i
	for i < len(line) && lexIsDigit(line[i]) {
		v = v*10 + int64(line[i]-'0')
		i++
	}
	ok = i > digits && i-digits <= 18
	for i < len(line) && !lexIsSpace(line[i]) {
		ok = false
		i++
	}
	if neg {
		v = -v
	}
	return start, i, v, ok
}

// lexNumber parses a decimal number such as "42", "-1", "+7", "1234.56" or
// "1e3". It returns the value rounded to the nearest integer (halves away
// from zero), whether the text had a non-zero fractional part, and whether
// the text was a number in the range of int64 at all. It does not allocate
// for plain integers and plain decimals.
func lexNumber(b []byte) (v int64, frac, ok bool) {
	i, neg := lexSign(b)
	start := i
	for ; i < len(b) && lexIsDigit(b[i]); i++ {
		if i-start >= 18 {
			return lexFloat(b)
		}
		v = v*10 + int64(b[i]-'0')
	}
	nInt, nFrac := i-start, 0
	if i < len(b) && b[i] == '.' {
		var up bool
		i, nFrac, frac, up = lexFraction(b, i+1)
		if up {
			v++
		}
	}
	if nInt+nFrac == 0 {
		return 0, false, false
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		return lexFloat(b)
	}
	if i != len(b) {
		return 0, false, false
	}
	if neg {
		v = -v
	}
	return v, frac, true
}

// lexSign returns where the digits of b start, after an optional sign, and
// whether the sign is '-'.
func lexSign(b []byte) (i int, neg bool) {
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		return 1, b[0] == '-'
	}
	return 0, false
}

// lexFraction scans the digits of a fractional part starting at b[i]. It
// returns where they end, how many there are, whether one is not '0', and
// whether the first is 5 or more (the value rounds up).
func lexFraction(b []byte, i int) (end, n int, frac, up bool) {
	start := i
	for ; i < len(b) && lexIsDigit(b[i]); i++ {
		frac = frac || b[i] != '0'
	}
	n = i - start
	return i, n, frac, n > 0 && b[start] >= '5'
}

func lexIsDigit(c byte) bool { return c >= '0' && c <= '9' }

// lexFloat is lexNumber's slow path for exponents and very long numbers.
func lexFloat(b []byte) (v int64, frac, ok bool) {
	if n, err := strconv.ParseInt(string(b), 10, 64); err == nil {
		return n, false, true
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f >= math.MaxInt64 || f <= math.MinInt64 {
		return 0, false, false
	}
	r := math.Round(f)
	return int64(r), r != f, true
}

// lexLeadingInt returns the integer at the start of s after optional
// spaces, as in "400 (48 interactive, 352 batch)" → 400.
func lexLeadingInt(s string) (int64, bool) {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	j := i
	if j < len(s) && (s[j] == '-' || s[j] == '+') {
		j++
	}
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	v, err := strconv.ParseInt(s[i:j], 10, 64)
	return v, err == nil
}
