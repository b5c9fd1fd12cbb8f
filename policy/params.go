package policy

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ecotune/ecotune/fuzzy"
)

// Param declares one tunable parameter of a policy.
type Param struct {
	Name    string
	Unit    string // "s", "jobs", "slots", "fraction", ...
	Doc     string
	Min     float64
	Max     float64
	Default float64
	Integer bool
	Log     bool // search on a log scale
	// PerGroup: the parameter may be overridden per user group, as
	// NAME@GROUP (same bounds), e.g. --set wait_on@physics=600.
	PerGroup bool
}

// Config is a policy as data: its name, parameter values and, for learned
// policies, a fuzzy rule base. It is what tuners search, fronts store and
// rule-set files carry.
type Config struct {
	Name   string             `json:"name"`
	Params map[string]float64 `json:"params"`
	Fuzzy  *fuzzy.System      `json:"fuzzy,omitempty"`
	Seed   int64              `json:"seed,omitempty"` // for randomised policies
}

// Spec describes a policy: its CLI name, what it does, where it comes from,
// its parameters and how to make one.
type Spec struct {
	Name   string
	Doc    string
	Source string // citation
	Params []Param
	// Clairvoyant policies need the future (a bound, never deployable).
	Clairvoyant bool
	// Fuzzy is the template of the policy's learnable rule base (nil if it
	// has none): the inputs, output and their labels the tuner evolves.
	Fuzzy *fuzzy.System
	// Seeds are configurations a search should start from besides the
	// defaults: corners of the policy's space known to behave well, such
	// as the policies it generalises.
	Seeds []Config
	// Reactive, if set, is the part of the policy's space where it acts
	// as a simpler reactive policy (hgfs: idle-timeout): a search may
	// give it a population of its own, so the best reactive trade-offs
	// are found as well as a search of that policy alone would find them.
	Reactive *Subspace
	// ScheduleRule, if set, is the policy's own scheduling rule: a rule
	// that changes the schedule itself (who backfills, who waits), not
	// only which nodes are powered. A comparison of power policies
	// reports it, and a search can fix it off (tuner.Options.NoScheduleRule)
	// so that a gain is a power decision's.
	ScheduleRule *ScheduleRule
	// Canonical, if set, returns a copy of the complete Config c (c itself
	// unchanged) with every parameter and shift that cannot change a
	// decision at a fixed value (hgfs: drain_gap while drain is off, the
	// shifts no rule that is on reads): configs with the same canonical
	// form make policies that decide alike, so a tuner replays one of
	// them. Nil: every config is its own canonical form.
	Canonical func(c Config) Config
	New       func(c Config) (Policy, error)
}

// ScheduleRule is a parameter of a policy that turns a scheduling rule on,
// and the value that turns it off.
type ScheduleRule struct {
	Name  string  `json:"name"`  // the rule, e.g. "drain"
	Param string  `json:"param"` // the parameter, e.g. "drain_lead"
	Off   float64 `json:"off"`   // the parameter's value with the rule off
	Doc   string  `json:"doc"`
}

// On reports whether c has the rule on (the parameter, filled with its
// default when c lacks it, differs from Off).
func (r *ScheduleRule) On(s Spec, c Config) bool {
	if r == nil {
		return false
	}
	v, ok := c.Params[r.Param]
	if !ok {
		p, _ := s.Param(r.Param)
		v = p.Default
	}
	return v != r.Off
}

// Subspace is a part of a policy's space: Base with only the parameters
// named in Free varied (the rule base stays Base's).
type Subspace struct {
	Base Config
	Free []string
}

// GroupSep separates a parameter name from a user-group name in per-group
// overrides ("wait_on@physics") of parameters declared PerGroup.
const GroupSep = "@"

// Param returns the declared parameter called name.
func (s Spec) Param(name string) (Param, bool) {
	for _, p := range s.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// Defaults returns the Config of s with every parameter at its default.
func (s Spec) Defaults() Config {
	c := Config{Name: s.Name, Params: make(map[string]float64, len(s.Params))}
	for _, p := range s.Params {
		c.Params[p.Name] = p.Default
	}
	return c
}

// Fill returns c with its name set to s.Name and every parameter it lacks
// set to its default. c itself is not modified.
func (s Spec) Fill(c Config) Config {
	out := s.Defaults()
	for k, v := range c.Params {
		out.Params[k] = v
	}
	out.Fuzzy, out.Seed = c.Fuzzy, c.Seed
	return out
}

// Check reports the first parameter of c, in sorted name order, that s does
// not declare, that is not a finite number, that lies outside its bounds or
// that should be whole and is not, and then checks c.Fuzzy against the
// template s.Fuzzy. The error names the field ("params.NAME",
// "fuzzy.inputs[1].shifts[0]") so callers can prefix where the Config
// came from.
func (s Spec) Check(c Config) error {
	if err := s.checkParams(c); err != nil {
		return err
	}
	return s.checkFuzzy(c.Fuzzy)
}

func (s Spec) checkParams(c Config) error {
	names := make([]string, 0, len(c.Params))
	for k := range c.Params {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		if err := s.checkParam(k, c.Params[k]); err != nil {
			return fmt.Errorf("params.%s: %w", k, err)
		}
	}
	return nil
}

func (s Spec) checkParam(name string, x float64) error {
	base, group, isGroup := strings.Cut(name, GroupSep)
	p, ok := s.Param(base)
	switch {
	case !ok:
		return fmt.Errorf("unknown parameter of %s (valid: %s)", s.Name, s.paramNames())
	case isGroup && !p.PerGroup:
		return fmt.Errorf("%s takes no per-group values", base)
	case isGroup && group == "":
		return errors.New("empty user-group name after " + GroupSep)
	case math.IsNaN(x) || math.IsInf(x, 0):
		return fmt.Errorf("%v is not a finite number", x)
	case x < p.Min || x > p.Max:
		return fmt.Errorf("%s out of [%s, %s]", formatNum(x), formatNum(p.Min), formatNum(p.Max))
	case p.Integer && x != math.Trunc(x):
		return fmt.Errorf("%s is not a whole number", formatNum(x))
	}
	return nil
}

func (s Spec) paramNames() string {
	if len(s.Params) == 0 {
		return "none"
	}
	names := make([]string, len(s.Params))
	for i, p := range s.Params {
		names[i] = p.Name
		if p.PerGroup {
			names[i] += " (also " + p.Name + GroupSep + "GROUP)"
		}
	}
	return strings.Join(names, ", ")
}

func formatNum(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// ParseSet makes the Config of spec from `--set name=value` arguments:
// parameters not set take their defaults. An unknown name, a value that is
// not a finite number, out of bounds or not whole for an integer
// parameter is an error naming the parameter.
func ParseSet(spec Spec, kv []string) (Config, error) {
	c := spec.Defaults()
	for _, arg := range kv {
		name, val, ok := strings.Cut(arg, "=")
		name, val = strings.TrimSpace(name), strings.TrimSpace(val)
		if !ok || name == "" {
			return Config{}, fmt.Errorf("--set %q: want name=value", arg)
		}
		x, err := strconv.ParseFloat(val, 64)
		if err != nil {
			return Config{}, fmt.Errorf("--set %s: %q is not a number", name, val)
		}
		if err := spec.checkParam(name, x); err != nil {
			return Config{}, fmt.Errorf("--set %s: %w", name, err)
		}
		c.Params[name] = x
	}
	return c, nil
}

// checkFuzzy accepts no system (the template is used), or a valid system
// with the template's input and output variables, in order (their labels,
// shifts and rules may differ: that is what is learned).
func (s Spec) checkFuzzy(f *fuzzy.System) error {
	switch {
	case f == nil:
		return nil
	case s.Fuzzy == nil:
		return fmt.Errorf("fuzzy: %s has no fuzzy rule base", s.Name)
	}
	if err := f.Validate(); err != nil {
		return fmt.Errorf("fuzzy.%w", err)
	}
	if len(f.Inputs) != len(s.Fuzzy.Inputs) {
		return fmt.Errorf("fuzzy.inputs: %d variables, %s needs %d", len(f.Inputs), s.Name, len(s.Fuzzy.Inputs))
	}
	for j, in := range f.Inputs {
		if want := s.Fuzzy.Inputs[j].Name; in.Name != want {
			return fmt.Errorf("fuzzy.inputs[%d].name: %q, %s needs %q", j, in.Name, s.Name, want)
		}
	}
	if want := s.Fuzzy.Output.Name; f.Output.Name != want {
		return fmt.Errorf("fuzzy.output.name: %q, %s needs %q", f.Output.Name, s.Name, want)
	}
	return nil
}
