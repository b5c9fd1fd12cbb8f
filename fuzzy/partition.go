package fuzzy

// step is the distance between neighbouring label centres before shifts.
func (v *Variable) step() float64 {
	if len(v.Labels) < 2 {
		return 0
	}
	return (v.Max - v.Min) / float64(len(v.Labels)-1)
}

// Center returns the centre (peak) of label k: evenly spaced over
// [Min, Max], displaced by Shifts[k] times the distance between
// neighbouring centres. With shifts in [−0.5, 0.5] centres stay ordered.
func (v *Variable) Center(k int) float64 {
	if len(v.Labels) == 1 {
		return (v.Min + v.Max) / 2
	}
	c := v.Min + float64(k)*v.step()
	if v.Shifts != nil {
		c += v.Shifts[k] * v.step()
	}
	return c
}

// Membership returns the degree to which x is label k. The partition is
// strong: the memberships of x in all labels sum to 1. Label k is a
// triangle rising from the centre of label k−1 to its own and falling to
// the centre of label k+1; the first and last labels are trapezoids that
// stay at 1 beyond their centres (shoulders).
func (v *Variable) Membership(k int, x float64) float64 {
	n := len(v.Labels)
	c := v.Center(k)
	if x <= c {
		if k == 0 {
			return 1
		}
		return rising(v.Center(k-1), c, x)
	}
	if k == n-1 {
		return 1
	}
	return 1 - rising(c, v.Center(k+1), x)
}

// rising is 0 at or below lo, 1 at or above hi, linear in between.
func rising(lo, hi, x float64) float64 {
	switch {
	case x <= lo:
		return 0
	case x >= hi:
		return 1
	}
	return (x - lo) / (hi - lo)
}

// centers writes the centre of every label of v into c.
func (v *Variable) centers(c *[MaxLabels]float64) {
	for k := range v.Labels {
		c[k] = v.Center(k)
	}
}

// memberships writes the membership of x in every label of v into mu,
// from the centres c of v.
func memberships(c *[MaxLabels]float64, n int, x float64, mu *[MaxLabels]float64) {
	for k := range n {
		mu[k] = 0
	}
	var b bracketed
	b.set(c, n, x)
	mu[b.first] = b.mu[0]
	if b.count == 2 {
		mu[b.first+1] = b.mu[1]
	}
}

// bracketed is where x lies in a strong partition: its memberships in the
// count (1 or 2) labels from first on are mu[:count]; the others are 0.
type bracketed struct {
	mu           [2]float64
	first, count int
}

// set makes b where x lies, from the centres c of n labels.
func (b *bracketed) set(c *[MaxLabels]float64, n int, x float64) {
	switch {
	case n == 1 || x <= c[0]:
		b.first, b.count, b.mu[0] = 0, 1, 1
	case x >= c[n-1]:
		b.first, b.count, b.mu[0] = n-1, 1, 1
	default:
		k := 0
		for x > c[k+1] { // c[k] < x <= c[k+1]
			k++
		}
		r := rising(c[k], c[k+1], x)
		b.first, b.count, b.mu = k, 2, [2]float64{1 - r, r}
	}
}
