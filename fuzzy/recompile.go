package fuzzy

import (
	"fmt"
	"slices"
)

// Recompile makes c the compiled form of s, exactly as s.Compile would,
// reusing c's memory, when s differs from the System c was compiled from
// only in its rules' consequents (Then) and its variables' shifts: the
// tuner's case, where one rule base after another of the same template is
// evaluated. In steady state (shifts given as before, or not at all as
// before) it allocates nothing. It reports false and leaves c unchanged
// when s differs in anything else (call Compile then), and returns an
// error, leaving c unchanged, when a consequent or a shift is invalid.
//
// Recompile modifies c: it must not be used while another goroutine
// evaluates c.
func (c *Compiled) Recompile(s *System) (bool, error) {
	if !c.sys.sameShape(s) {
		return false, nil
	}
	if err := s.validateVarying(); err != nil {
		return false, fmt.Errorf("fuzzy: compile: %w", err)
	}
	for j := range s.Inputs {
		copyShifts(&c.sys.Inputs[j], &s.Inputs[j])
		c.sys.Inputs[j].centers(&c.inputs[j].c)
	}
	copyShifts(&c.sys.Output, &s.Output)
	c.sys.Output.centers(&c.outC)
	clear(c.accepts)
	clear(c.all)
	for r := range s.Rules {
		c.sys.Rules[r].Then = s.Rules[r].Then
		c.compileConsequent(r, &s.Rules[r])
	}
	if !c.tsk {
		centroidGridInto(c.grid, &s.Output, &c.outC)
	}
	return true, nil
}

// sameShape reports whether t differs from s at most in its rules'
// consequents (Then) and its variables' shifts.
func (s *System) sameShape(t *System) bool {
	if s.Inference != t.Inference || len(s.Inputs) != len(t.Inputs) || len(s.Rules) != len(t.Rules) ||
		!s.Output.sameShape(&t.Output) {
		return false
	}
	for j := range s.Inputs {
		if !s.Inputs[j].sameShape(&t.Inputs[j]) {
			return false
		}
	}
	for i := range s.Rules {
		a, b := &s.Rules[i], &t.Rules[i]
		if a.Weight != b.Weight || !slices.Equal(a.If, b.If) || (a.Value == nil) != (b.Value == nil) ||
			(a.Value != nil && *a.Value != *b.Value) {
			return false
		}
	}
	return true
}

// sameShape reports whether w differs from v at most in its shifts.
func (v *Variable) sameShape(w *Variable) bool {
	return v.Name == w.Name && v.Unit == w.Unit && v.Min == w.Min && v.Max == w.Max && slices.Equal(v.Labels, w.Labels)
}

// validateVarying checks what Recompile takes from s, in the order and
// with the messages of Validate: the shifts, then the rules' consequents.
func (s *System) validateVarying() error {
	check := (*Variable).validateShifts
	for j := range s.Inputs {
		if err := check(&s.Inputs[j]); err != nil {
			return fmt.Errorf("inputs[%d].%w", j, err)
		}
	}
	if err := check(&s.Output); err != nil {
		return fmt.Errorf("output.%w", err)
	}
	for i := range s.Rules {
		if err := s.validateRule(&s.Rules[i]); err != nil {
			return fmt.Errorf("rules[%d].%w", i, err)
		}
	}
	return nil
}

// copyShifts sets dst's shifts to src's, reusing dst's slice.
func copyShifts(dst, src *Variable) {
	if src.Shifts == nil {
		dst.Shifts = nil
		return
	}
	dst.Shifts = append(dst.Shifts[:0], src.Shifts...)
}
