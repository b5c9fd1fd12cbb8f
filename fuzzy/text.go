package fuzzy

import (
	"fmt"
	"strconv"
	"strings"
)

// RuleText returns rule r of s as text:
//
//	IF queued_slots IS high AND mean_wait IS long THEN idle_off IS few
//
// Inputs with Any are left out (a rule with no antecedent reads
// "IF ANY THEN ..."), a switched-off rule concludes "THEN NONE", a numeric
// (TSK) consequent reads "THEN idle_off = 2.5", and a weight other than 0
// or 1 is appended as "WITH 0.5".
func (s *System) RuleText(r Rule) string {
	var b strings.Builder
	b.WriteString("IF")
	n := 0
	for j, l := range r.If {
		if l == Any {
			continue
		}
		if n > 0 {
			b.WriteString(" AND")
		}
		fmt.Fprintf(&b, " %s IS %s", s.Inputs[j].Name, s.Inputs[j].Labels[l])
		n++
	}
	if n == 0 {
		b.WriteString(" ANY")
	}
	switch {
	case r.Then == NoRule:
		b.WriteString(" THEN NONE")
	case r.Value != nil:
		fmt.Fprintf(&b, " THEN %s = %s", s.Output.Name, strconv.FormatFloat(*r.Value, 'g', -1, 64))
	default:
		fmt.Fprintf(&b, " THEN %s IS %s", s.Output.Name, s.Output.Labels[r.Then])
	}
	if r.Weight != 0 && r.Weight != 1 {
		b.WriteString(" WITH " + strconv.FormatFloat(r.Weight, 'g', -1, 64))
	}
	return b.String()
}

// Text returns every rule of s as text, one per line.
func (s *System) Text() string {
	var b strings.Builder
	for _, r := range s.Rules {
		b.WriteString(s.RuleText(r))
		b.WriteByte('\n')
	}
	return b.String()
}

// ParseRule parses the text form of a rule (see RuleText) against the
// variables of s. Keywords are case-insensitive; names are exact.
func (s *System) ParseRule(text string) (Rule, error) {
	p := ruleParser{s: s, toks: strings.Fields(text)}
	r, err := p.parse()
	if err != nil {
		return Rule{}, fmt.Errorf("rule %q: %w", text, err)
	}
	return r, nil
}

type ruleParser struct {
	s    *System
	toks []string
	pos  int
}

func (p *ruleParser) next() string {
	if p.pos >= len(p.toks) {
		return ""
	}
	p.pos++
	return p.toks[p.pos-1]
}

func (p *ruleParser) expect(kw string) error {
	if t := p.next(); !strings.EqualFold(t, kw) {
		return p.errorf(t, kw)
	}
	return nil
}

func (p *ruleParser) errorf(got, want string) error {
	if got == "" {
		return fmt.Errorf("word %d: want %s, got end of text", p.pos+1, want)
	}
	return fmt.Errorf("word %d: want %s, got %q", p.pos, want, got)
}

func (p *ruleParser) parse() (Rule, error) {
	r := Rule{If: make([]int, len(p.s.Inputs))}
	for j := range r.If {
		r.If[j] = Any
	}
	if err := p.expect("IF"); err != nil {
		return Rule{}, err
	}
	if err := p.antecedent(&r); err != nil {
		return Rule{}, err
	}
	if err := p.consequent(&r); err != nil {
		return Rule{}, err
	}
	if t := p.next(); t != "" {
		if !strings.EqualFold(t, "WITH") {
			return Rule{}, p.errorf(t, "WITH or end of text")
		}
		w, err := strconv.ParseFloat(p.next(), 64)
		if err != nil || !(w >= 0 && w <= 1) {
			return Rule{}, fmt.Errorf("word %d: weight must be a number in [0, 1]", p.pos)
		}
		r.Weight = w
	}
	if t := p.next(); t != "" {
		return Rule{}, p.errorf(t, "end of text")
	}
	return r, nil
}

func (p *ruleParser) antecedent(r *Rule) error {
	if p.pos < len(p.toks) && strings.EqualFold(p.toks[p.pos], "ANY") {
		p.pos++
		return p.expect("THEN")
	}
	for {
		name := p.next()
		j := p.s.inputIndex(name)
		if j < 0 {
			return p.errorf(name, "an input variable")
		}
		if r.If[j] != Any {
			return fmt.Errorf("word %d: %s appears twice", p.pos, name)
		}
		if err := p.expect("IS"); err != nil {
			return err
		}
		label := p.next()
		if r.If[j] = labelIndex(&p.s.Inputs[j], label); r.If[j] < 0 {
			r.If[j] = Any
			return p.errorf(label, "a label of "+name)
		}
		t := p.next()
		switch {
		case strings.EqualFold(t, "THEN"):
			return nil
		case !strings.EqualFold(t, "AND"):
			return p.errorf(t, "AND or THEN")
		}
	}
}

func (p *ruleParser) consequent(r *Rule) error {
	t := p.next()
	if strings.EqualFold(t, "NONE") {
		r.Then = NoRule
		return nil
	}
	if t != p.s.Output.Name {
		return p.errorf(t, "NONE or the output "+p.s.Output.Name)
	}
	switch t := p.next(); {
	case t == "=" && p.s.Inference != TSK:
		return fmt.Errorf("word %d: a numeric consequent needs %q inference", p.pos, TSK)
	case t == "=":
		x, err := strconv.ParseFloat(p.next(), 64)
		if err != nil || !finite(x) {
			return fmt.Errorf("word %d: want a finite number after =", p.pos)
		}
		r.Value = &x
		return nil
	case !strings.EqualFold(t, "IS"):
		return p.errorf(t, "IS or =")
	}
	label := p.next()
	if r.Then = labelIndex(&p.s.Output, label); r.Then < 0 {
		return p.errorf(label, "a label of "+p.s.Output.Name)
	}
	return nil
}

func (s *System) inputIndex(name string) int {
	for j := range s.Inputs {
		if s.Inputs[j].Name == name {
			return j
		}
	}
	return -1
}

func labelIndex(v *Variable, label string) int {
	for k, l := range v.Labels {
		if l == label {
			return k
		}
	}
	return -1
}
