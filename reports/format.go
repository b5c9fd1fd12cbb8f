package reports

import (
	"math"
	"strconv"
)

func itoa(i int) string { return strconv.Itoa(i) }

// num formats a figure for tables: integers without decimals, others with
// at most 4 significant decimals, no exponent for everyday magnitudes.
func num(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return strconv.FormatFloat(v, 'g', -1, 64)
	case v == math.Trunc(v) && math.Abs(v) < 1e15:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case math.Abs(v) >= 100:
		return strconv.FormatFloat(v, 'f', 1, 64)
	default:
		return strconv.FormatFloat(v, 'f', 4, 64)
	}
}
