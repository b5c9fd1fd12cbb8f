package scoring

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ecotune/ecotune/objectives"
)

// AlwaysOnRef is the name a relative bound refers to: the always-on
// policy's score on the same split.
const AlwaysOnRef = "always_on"

// Constraint bounds one score: Name Op Bound, where the bound is absolute
// or, when Relative, added to always-on's score on the same split
// ("qos_p90<=always_on+0.1"): on a loaded log always-on alone already
// misses small absolute bounds.
//
// A relative constraint with a Factor bounds the score by the larger (for
// "<=", the smaller for ">=") of Factor × always-on's and always-on's +
// Bound: "qos_p90<=max(1.1*always_on,always_on+0.1)", within 10 % of
// always-on on a loaded log and within 0.1 on a light one.
type Constraint struct {
	Name     string  `json:"name"`
	Op       string  `json:"op"` // "<=" or ">="
	Bound    float64 `json:"bound"`
	Relative bool    `json:"relative"`
	Factor   float64 `json:"factor,omitempty"`
}

// ParseConstraint reads "NAME<=BOUND", "NAME>=BOUND", the relative forms
// "NAME<=always_on+D" and "NAME<=always_on-D", and
// "NAME<=max(F*always_on,always_on+D)" (">=": min). NAME is any score name.
func ParseConstraint(s string) (Constraint, error) {
	var c Constraint
	op := "<="
	i := strings.Index(s, op)
	if i < 0 {
		op = ">="
		i = strings.Index(s, op)
	}
	if i < 0 {
		return c, fmt.Errorf("constraint %q: want NAME<=BOUND, NAME>=BOUND or NAME<=%s+D", s, AlwaysOnRef)
	}
	c.Name, c.Op = strings.TrimSpace(s[:i]), op
	if _, err := (objectives.Scores{}).Get(c.Name); err != nil {
		return c, fmt.Errorf("constraint %q: %w", s, err)
	}
	rhs := strings.TrimSpace(s[i+len(op):])
	if strings.HasPrefix(rhs, "max(") || strings.HasPrefix(rhs, "min(") {
		return parseFactor(c, s, rhs)
	}
	if rest, ok := strings.CutPrefix(rhs, AlwaysOnRef); ok {
		c.Relative = true
		rhs = strings.TrimSpace(rest)
		if rhs == "" {
			rhs = "0"
		}
		rhs = strings.TrimPrefix(rhs, "+")
	}
	b, err := strconv.ParseFloat(strings.ReplaceAll(rhs, " ", ""), 64)
	if err != nil || math.IsNaN(b) || math.IsInf(b, 0) {
		return c, fmt.Errorf("constraint %q: bound %q is not a finite number", s, rhs)
	}
	c.Bound = b
	return c, nil
}

// parseFactor reads the right-hand side "max(F*always_on,always_on+D)"
// of c (min for ">=").
func parseFactor(c Constraint, s, rhs string) (Constraint, error) {
	want := "max("
	if c.Op == ">=" {
		want = "min("
	}
	bad := fmt.Errorf("constraint %q: want NAME%s%sF*%s,%s+D)", s, c.Op, want, AlwaysOnRef, AlwaysOnRef)
	inner, ok := strings.CutPrefix(strings.ReplaceAll(rhs, " ", ""), want)
	if !ok {
		return c, bad
	}
	inner, ok = strings.CutSuffix(inner, ")")
	if !ok {
		return c, bad
	}
	mul, add, ok := strings.Cut(inner, ",")
	if !ok {
		return c, bad
	}
	f, ok := strings.CutSuffix(mul, "*"+AlwaysOnRef)
	if !ok {
		return c, bad
	}
	d, ok := strings.CutPrefix(add, AlwaysOnRef)
	if !ok {
		return c, bad
	}
	factor, err1 := strconv.ParseFloat(f, 64)
	bound, err2 := strconv.ParseFloat(strings.TrimPrefix(d, "+"), 64)
	if err1 != nil || err2 != nil || !(factor > 0) || math.IsInf(factor, 0) || math.IsNaN(bound) || math.IsInf(bound, 0) {
		return c, fmt.Errorf("constraint %q: factor %q and offset %q must be finite numbers, the factor above 0", s, f, d)
	}
	c.Relative, c.Factor, c.Bound = true, factor, bound
	return c, nil
}

// String is the form ParseConstraint reads.
func (c Constraint) String() string {
	b := strconv.FormatFloat(c.Bound, 'g', -1, 64)
	if c.Relative && c.Factor != 0 {
		fn := "max("
		if c.Op == ">=" {
			fn = "min("
		}
		if c.Bound >= 0 {
			b = "+" + b
		}
		return c.Name + c.Op + fn + strconv.FormatFloat(c.Factor, 'g', -1, 64) + "*" + AlwaysOnRef + "," + AlwaysOnRef + b + ")"
	}
	if c.Relative {
		if c.Bound >= 0 {
			b = "+" + b
		}
		b = AlwaysOnRef + b
	}
	return c.Name + c.Op + b
}

// Resolve returns the absolute bound, given always-on's scores on the
// split in question.
func (c Constraint) Resolve(alwaysOn objectives.Scores) (float64, error) {
	if !c.Relative {
		return c.Bound, nil
	}
	v, err := alwaysOn.Get(c.Name)
	if err != nil {
		return 0, err
	}
	if c.Factor != 0 {
		if c.Op == ">=" {
			return math.Min(c.Factor*v, v+c.Bound), nil
		}
		return math.Max(c.Factor*v, v+c.Bound), nil
	}
	return v + c.Bound, nil
}

// Violation is how far value misses bound, relative to the bound's
// magnitude (at least 1), 0 when it holds.
func Violation(op string, value, bound float64) float64 {
	miss := value - bound
	if op == ">=" {
		miss = bound - value
	}
	return math.Max(0, miss) / math.Max(1, math.Abs(bound))
}

// ParseObjectives reads a comma-separated list of score names. A name may
// be prefixed "max:" or "min:"; without one, it goes the table's way
// (objectives.All): off_node_seconds is maximised and every other score
// (waits, energy, reconfigurations, …) minimised.
func ParseObjectives(s string) ([]Objective, error) {
	var objs []Objective
	seen := map[string]bool{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		o := Objective{Name: part, Maximize: objectives.Maximized(part)}
		if rest, ok := strings.CutPrefix(part, "max:"); ok {
			o = Objective{Name: rest, Maximize: true}
		} else if rest, ok := strings.CutPrefix(part, "min:"); ok {
			o = Objective{Name: rest}
		}
		if _, err := (objectives.Scores{}).Get(o.Name); err != nil {
			return nil, fmt.Errorf("objectives %q: %w", s, err)
		}
		if seen[o.Name] {
			return nil, fmt.Errorf("objectives %q: %s twice", s, o.Name)
		}
		seen[o.Name] = true
		objs = append(objs, o)
	}
	return objs, nil
}
