package reports

import (
	"math"
	"strconv"
	"strings"
)

// num formats a figure for tables: integers without decimals, others with
// at most 4 significant decimals, no exponent for everyday magnitudes.
func num(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return strconv.FormatFloat(v, 'g', -1, 64)
	case v == math.Trunc(v) && math.Abs(v) < 1e15:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case math.Abs(v) >= 100:
		return trimZeros(strconv.FormatFloat(v, 'f', 1, 64))
	default:
		return trimZeros(strconv.FormatFloat(v, 'f', 4, 64))
	}
}

// trimZeros drops trailing zeros after a decimal point (0.1000 → 0.1).
func trimZeros(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}
