package sim

import "math/bits"

// divisor divides non-negative numbers by a fixed positive d with one
// multiplication: the loop finds the next decision tick at almost every
// event, and a hardware division costs tens of cycles.
type divisor struct {
	d uint64
	m uint64 // ⌊(2⁶⁴−1)/d⌋
}

func newDivisor(d int64) divisor {
	return divisor{d: uint64(d), m: ^uint64(0) / uint64(d)}
}

// quo returns ⌊n/d⌋ for 0 ≤ n. The high word of n·m is ⌊n/d⌋ or one less
// (n·m/2⁶⁴ lies in (n/d − 1, n/d] for n < 2⁶³), and the remainder says which.
func (v divisor) quo(n int64) int64 {
	q, _ := bits.Mul64(uint64(n), v.m)
	if uint64(n)-q*v.d >= v.d {
		q++
	}
	return int64(q)
}
