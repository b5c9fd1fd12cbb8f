package fuzzy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// Clone returns a deep copy of s: the tuner mutates clones, never a
// System someone else evaluates.
func (s *System) Clone() *System {
	c := &System{Inference: s.Inference, Output: s.Output.clone()}
	c.Inputs = make([]Variable, len(s.Inputs))
	for j := range s.Inputs {
		c.Inputs[j] = s.Inputs[j].clone()
	}
	c.Rules = make([]Rule, len(s.Rules))
	for i, r := range s.Rules {
		c.Rules[i] = Rule{If: slices.Clone(r.If), Then: r.Then, Weight: r.Weight}
		if r.Value != nil {
			x := *r.Value
			c.Rules[i].Value = &x
		}
	}
	return c
}

func (v Variable) clone() Variable {
	v.Labels = slices.Clone(v.Labels)
	v.Shifts = slices.Clone(v.Shifts)
	return v
}

// Grid returns the complete rule grid over inputs: one rule per
// combination of labels, the first input varying slowest, concluding
// then(labels) (a label index of the output, or NoRule).
func Grid(inputs []Variable, then func(labels []int) int) []Rule {
	n := 1
	for _, in := range inputs {
		n *= len(in.Labels)
	}
	rules := make([]Rule, n)
	for i := range rules {
		labels := make([]int, len(inputs))
		rest := i
		for j := len(inputs) - 1; j >= 0; j-- {
			labels[j] = rest % len(inputs[j].Labels)
			rest /= len(inputs[j].Labels)
		}
		rules[i] = Rule{If: labels, Then: then(labels)}
	}
	return rules
}

// Decode reads a System from JSON, rejecting unknown fields, and validates
// it.
func Decode(data []byte) (*System, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var s System
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("fuzzy system: %w", err)
	}
	if err := s.Validate(); err != nil {
		return nil, fmt.Errorf("fuzzy system: %w", err)
	}
	return &s, nil
}
