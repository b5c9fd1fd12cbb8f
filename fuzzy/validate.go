package fuzzy

import (
	"fmt"
	"math"
	"strings"
)

// Validate checks s and returns an error naming the first offending field
// (for example "inputs[1].shifts[2]: 0.7 out of [-0.5, 0.5]").
func (s *System) Validate() error {
	if len(s.Inputs) == 0 || len(s.Inputs) > MaxInputs {
		return fmt.Errorf("inputs: %d variables, want 1 to %d", len(s.Inputs), MaxInputs)
	}
	names := map[string]bool{}
	for j := range s.Inputs {
		if err := s.Inputs[j].validate(names); err != nil {
			return fmt.Errorf("inputs[%d].%w", j, err)
		}
	}
	if err := s.Output.validate(names); err != nil {
		return fmt.Errorf("output.%w", err)
	}
	if s.Inference != Mamdani && s.Inference != TSK {
		return fmt.Errorf("inference: %q, want %q or %q", s.Inference, Mamdani, TSK)
	}
	for i := range s.Rules {
		if err := s.validateRule(&s.Rules[i]); err != nil {
			return fmt.Errorf("rules[%d].%w", i, err)
		}
	}
	return nil
}

func (v *Variable) validate(seen map[string]bool) error {
	if err := checkName(v.Name); err == nil && isKeyword(v.Name) {
		return fmt.Errorf("name: %q is a keyword of the rule text", v.Name)
	} else if err != nil {
		return fmt.Errorf("name: %w", err)
	}
	if seen[v.Name] {
		return fmt.Errorf("name: %q used twice", v.Name)
	}
	seen[v.Name] = true
	if !finite(v.Min) || !finite(v.Max) || v.Min >= v.Max {
		return fmt.Errorf("max: range [%v, %v] is empty or not finite", v.Min, v.Max)
	}
	if len(v.Labels) == 0 || len(v.Labels) > MaxLabels {
		return fmt.Errorf("labels: %d labels, want 1 to %d", len(v.Labels), MaxLabels)
	}
	labels := map[string]bool{}
	for k, l := range v.Labels {
		if err := checkName(l); err != nil {
			return fmt.Errorf("labels[%d]: %w", k, err)
		}
		if labels[l] {
			return fmt.Errorf("labels[%d]: %q used twice", k, l)
		}
		labels[l] = true
	}
	return v.validateShifts()
}

// validateShifts checks v's label shifts (none is valid): one per label,
// each in [-0.5, 0.5].
func (v *Variable) validateShifts() error {
	if v.Shifts == nil {
		return nil
	}
	if len(v.Shifts) != len(v.Labels) {
		return fmt.Errorf("shifts: %d shifts for %d labels", len(v.Shifts), len(v.Labels))
	}
	for k, x := range v.Shifts {
		if !(x >= -0.5 && x <= 0.5) {
			return fmt.Errorf("shifts[%d]: %v out of [-0.5, 0.5]", k, x)
		}
	}
	return nil
}

func (s *System) validateRule(r *Rule) error {
	if len(r.If) != len(s.Inputs) {
		return fmt.Errorf("if: %d labels for %d inputs", len(r.If), len(s.Inputs))
	}
	for j, l := range r.If {
		if l != Any && (l < 0 || l >= len(s.Inputs[j].Labels)) {
			return fmt.Errorf("if[%d]: label %d out of range (%s has %d labels; %d means any)", j, l, s.Inputs[j].Name, len(s.Inputs[j].Labels), Any)
		}
	}
	if err := s.validateValue(r); err != nil {
		return err
	}
	if r.Then != NoRule && (r.Then < 0 || r.Then >= len(s.Output.Labels)) {
		return fmt.Errorf("then: label %d out of range (%s has %d labels; %d means no rule)", r.Then, s.Output.Name, len(s.Output.Labels), NoRule)
	}
	if !(r.Weight >= 0 && r.Weight <= 1) {
		return fmt.Errorf("weight: %v out of [0, 1]", r.Weight)
	}
	return nil
}

// validateValue checks a rule's numeric consequent, if it has one: TSK
// inference, a finite number, and Then on (0) or off (NoRule).
func (s *System) validateValue(r *Rule) error {
	if r.Value == nil {
		return nil
	}
	switch {
	case s.Inference != TSK:
		return fmt.Errorf("value: a numeric consequent needs %q inference", TSK)
	case !finite(*r.Value):
		return fmt.Errorf("value: %v is not a finite number", *r.Value)
	case r.Then != NoRule && r.Then != 0:
		return fmt.Errorf("then: %d with a numeric value, want 0 (on) or %d (off)", r.Then, NoRule)
	}
	return nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// keywords of the rule text; no variable or label may be called so.
var keywords = []string{"IF", "AND", "THEN", "IS", "WITH", "ANY", "NONE"}

// checkName accepts identifiers: a letter or underscore, then letters,
// digits, underscores, dots or hyphens. Labels may be keywords (the rule
// text has them where no keyword can be); variable names may not.
func checkName(s string) error {
	if s == "" {
		return fmt.Errorf("empty name")
	}
	for i, r := range s {
		letter := r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
		if !letter && (i == 0 || !(r == '.' || r == '-' || (r >= '0' && r <= '9'))) {
			return fmt.Errorf("%q is not a name (letters, digits, _ . -, starting with a letter or _)", s)
		}
	}
	return nil
}

func isKeyword(s string) bool {
	for _, k := range keywords {
		if strings.EqualFold(s, k) {
			return true
		}
	}
	return false
}
