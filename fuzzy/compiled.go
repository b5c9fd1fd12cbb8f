package fuzzy

import (
	"fmt"
	"math"
	"math/bits"
)

// Compiled is a System prepared for repeated evaluation: the label centres,
// the rules' conclusions and, for Mamdani, the centroid grid are computed
// once, and each rule is indexed by the labels it accepts, so that an
// evaluation visits only the rules that can fire. In a strong partition at
// most two labels of each input are non-zero, so a grid of 3 inputs × 3
// labels (27 rules) fires at most 8.
//
// Compiled.Eval returns exactly the bits System.Eval returns: the rules
// that fire are visited in index order with the same operations, and a
// rule left out has a zero membership in one of its antecedents, hence
// strength 0, and System.Eval skips it too.
//
// A Compiled is immutable and shares no memory with its System: one value
// may be evaluated from several goroutines.
type Compiled struct {
	inputs []compiledInput
	outC   [MaxLabels]float64 // output label centres
	rules  []compiledRule
	ants   []antecedent // the rules' antecedents, each rule a range of it
	words  int          // uint64 words of a rule set: ⌈len(rules)/64⌉
	// accepts[(j·MaxLabels+k)·words : …+words] is the set of rules whose
	// antecedent on input j is label k or Any (NoRule rules are in none);
	// all is the set of every rule that is not NoRule.
	accepts []uint64
	all     []uint64
	tsk     bool
	grid    *[CentroidGrid]gridPoint // Mamdani only
	sys     *System                  // a copy, to evaluate NaN inputs
}

// gridPoint is one point y of the centroid grid and the labels around it:
// μ_lo(y) = 1 − r and μ_hi(y) = r, or, when lo == hi, only label lo.
type gridPoint struct {
	y      float64
	r      float64
	lo, hi int
}

type compiledInput struct {
	c [MaxLabels]float64 // label centres
	n int                // labels
}

// antecedent is "input j IS label l".
type antecedent struct{ j, l int }

type compiledRule struct {
	first, end int     // the rule's antecedents: ants[first:end], in input order
	weight     float64 // Weight, 1 when Weight is 0 (w·1 = w exactly)
	then       int
	conclusion float64 // Value, or the centre of label Then
}

// Compile validates s and returns its compiled form. Later changes to s do
// not change the result.
func (s *System) Compile() (*Compiled, error) {
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("fuzzy: compile: %w", err)
	}
	c := &Compiled{inputs: make([]compiledInput, len(s.Inputs)),
		rules: make([]compiledRule, len(s.Rules)), words: (len(s.Rules) + 63) / 64, tsk: s.Inference == TSK, sys: s.Clone()}
	for j := range s.Inputs {
		in := &s.Inputs[j]
		in.centers(&c.inputs[j].c)
		c.inputs[j].n = len(in.Labels)
	}
	s.Output.centers(&c.outC)
	c.accepts = make([]uint64, len(s.Inputs)*MaxLabels*c.words)
	c.all = make([]uint64, c.words)
	for r := range s.Rules {
		c.compileRule(r, &s.Rules[r])
	}
	if !c.tsk {
		c.grid = centroidGrid(&s.Output, &c.outC)
	}
	return c, nil
}

func (c *Compiled) compileRule(r int, rule *Rule) {
	cr := &c.rules[r]
	cr.first = len(c.ants)
	for j, l := range rule.If {
		if l != Any {
			c.ants = append(c.ants, antecedent{j, l})
		}
	}
	cr.end = len(c.ants)
	c.compileConsequent(r, rule)
}

// compileConsequent sets rule r's weight, consequent and conclusion, and
// adds it to the accepts and all sets unless it is NoRule.
func (c *Compiled) compileConsequent(r int, rule *Rule) {
	cr := &c.rules[r]
	cr.then, cr.weight, cr.conclusion = rule.Then, rule.Weight, 0
	if cr.weight == 0 {
		cr.weight = 1
	}
	switch {
	case rule.Value != nil:
		cr.conclusion = *rule.Value
	case rule.Then != NoRule:
		cr.conclusion = c.outC[rule.Then]
	}
	if rule.Then == NoRule {
		return
	}
	word, bit := r/64, uint64(1)<<(r%64)
	c.all[word] |= bit
	for j, l := range rule.If {
		for k := range c.inputs[j].n {
			if l == Any || l == k {
				c.accepts[c.acceptsAt(j, k)+word] |= bit
			}
		}
	}
}

// acceptsAt is the index in accepts of the first word of input j, label k.
func (c *Compiled) acceptsAt(j, k int) int { return (j*MaxLabels + k) * c.words }

// Eval is System.Eval of the compiled System, bit for bit (see Compiled).
// It does not allocate; len(inputs) must equal the number of inputs.
func (c *Compiled) Eval(inputs []float64) float64 {
	if len(inputs) != len(c.inputs) {
		panic("fuzzy: Compiled.Eval: wrong number of inputs")
	}
	var at [MaxInputs]bracketed // where each input lies in its partition
	for j := range c.inputs {
		if math.IsNaN(inputs[j]) {
			// NaN memberships, and min(0, NaN) is NaN: a rule with a
			// zero membership may fire.
			return c.sys.Eval(inputs)
		}
		in := &c.inputs[j]
		at[j].set(&in.c, in.n, inputs[j])
	}
	var alpha [MaxLabels]float64
	num, den := 0.0, 0.0
	for w := range c.words {
		for set := c.firing(w, &at); set != 0; set &= set - 1 {
			r := &c.rules[w*64+bits.TrailingZeros64(set)]
			s := c.strength(r, &at)
			if s <= 0 {
				continue
			}
			den += s
			num += s * r.conclusion
			if !c.tsk {
				alpha[r.then] = max(alpha[r.then], s) // clip levels
			}
		}
	}
	if den == 0 {
		return math.NaN()
	}
	if c.tsk {
		return num / den
	}
	return c.centroid(&alpha)
}

// centroidGrid precomputes what centroid works out for each grid point
// independently of the clip levels.
func centroidGrid(out *Variable, c *[MaxLabels]float64) *[CentroidGrid]gridPoint {
	var g [CentroidGrid]gridPoint
	centroidGridInto(&g, out, c)
	return &g
}

// centroidGridInto writes centroidGrid(out, c) into g.
func centroidGridInto(g *[CentroidGrid]gridPoint, out *Variable, c *[MaxLabels]float64) {
	n := len(out.Labels)
	k := 0
	for i := range CentroidGrid {
		y := out.Min + (out.Max-out.Min)*float64(i)/(CentroidGrid-1)
		switch {
		case n == 1 || y <= c[0]:
			g[i] = gridPoint{y: y}
		case y >= c[n-1]:
			g[i] = gridPoint{y: y, lo: n - 1, hi: n - 1}
		default:
			for y > c[k+1] {
				k++
			}
			g[i] = gridPoint{y: y, r: rising(c[k], c[k+1], y), lo: k, hi: k + 1}
		}
	}
}

// centroid is the package's centroid over the precomputed grid: the same
// operations on the same numbers.
func (c *Compiled) centroid(alpha *[MaxLabels]float64) float64 {
	num, den := 0.0, 0.0
	for i := range c.grid {
		p := &c.grid[i]
		m := alpha[p.lo]
		if p.lo != p.hi {
			m = max(min(m, 1-p.r), min(alpha[p.hi], p.r))
		}
		if i == 0 || i == CentroidGrid-1 {
			m /= 2 // trapezoid rule
		}
		num += p.y * m
		den += m
	}
	return num / den
}

// firing returns word w of the set of rules that accept, on every input,
// a label where it lies: a superset of the rules with a non-zero
// strength.
func (c *Compiled) firing(w int, at *[MaxInputs]bracketed) uint64 {
	set := c.all[w]
	for j := range c.inputs {
		b := &at[j]
		accepted := c.accepts[c.acceptsAt(j, b.first)+w]
		if b.count == 2 {
			accepted |= c.accepts[c.acceptsAt(j, b.first+1)+w]
		}
		set &= accepted
	}
	return set
}

// strength is ruleStrength of the compiled rule r, a rule of firing: each
// of its antecedents is a label where its input lies (mu[0] or mu[1]).
func (c *Compiled) strength(r *compiledRule, at *[MaxInputs]bracketed) float64 {
	s := 1.0
	for _, a := range c.ants[r.first:r.end] {
		b := &at[a.j]
		s = min(s, b.mu[(a.l-b.first)&1])
	}
	return s * r.weight
}
