package tuner

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
type Constraint struct {
	Name     string  `json:"name"`
	Op       string  `json:"op"` // "<=" or ">="
	Bound    float64 `json:"bound"`
	Relative bool    `json:"relative"`
}

// ParseConstraint reads "NAME<=BOUND", "NAME>=BOUND" or the relative forms
// "NAME<=always_on+D" and "NAME<=always_on-D". NAME is any score name.
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

// String is the form ParseConstraint reads.
func (c Constraint) String() string {
	b := strconv.FormatFloat(c.Bound, 'g', -1, 64)
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
	return v + c.Bound, nil
}

// violation is how far value misses bound, relative to the bound's
// magnitude (at least 1), 0 when it holds.
func violation(op string, value, bound float64) float64 {
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
