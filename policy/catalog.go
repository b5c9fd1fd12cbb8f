package policy

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/ecotune/ecotune/fuzzy"
)

// SpecOut is the printable form of a Spec that `ecotune policies` lists.
type SpecOut struct {
	Name        string        `json:"name"`
	Doc         string        `json:"doc"`
	Source      string        `json:"source"`
	Clairvoyant bool          `json:"clairvoyant"`
	Params      []ParamOut    `json:"params"`
	Fuzzy       *fuzzy.System `json:"fuzzy,omitempty"`
	// ScheduleRule is the policy's own scheduling rule (Spec.ScheduleRule).
	ScheduleRule *ScheduleRule `json:"schedule_rule,omitempty"`
}

// ParamOut is the printable form of a Param.
type ParamOut struct {
	Name     string  `json:"name"`
	Unit     string  `json:"unit"`
	Doc      string  `json:"doc"`
	Min      float64 `json:"min"`
	Max      float64 `json:"max"`
	Default  float64 `json:"default"`
	Type     string  `json:"type"`  // "integer" or "real"
	Scale    string  `json:"scale"` // "linear" or "log"
	PerGroup bool    `json:"per_group,omitempty"`
}

// Catalog returns every policy in the order of All, in printable form.
func Catalog() []SpecOut {
	var out []SpecOut
	for _, s := range All() {
		so := SpecOut{Name: s.Name, Doc: s.Doc, Source: s.Source, Clairvoyant: s.Clairvoyant, Params: []ParamOut{}, Fuzzy: s.Fuzzy, ScheduleRule: s.ScheduleRule}
		for _, p := range s.Params {
			po := ParamOut{Name: p.Name, Unit: p.Unit, Doc: p.Doc, Min: p.Min, Max: p.Max, Default: p.Default,
				Type: "real", Scale: "linear", PerGroup: p.PerGroup}
			if p.Integer {
				po.Type = "integer"
			}
			if p.Log {
				po.Scale = "log"
			}
			so.Params = append(so.Params, po)
		}
		out = append(out, so)
	}
	return out
}

// WriteCatalog writes the policies as text: each with its description,
// source and parameters (bounds, default, unit, scale).
func WriteCatalog(w io.Writer, specs []SpecOut) error {
	var b strings.Builder
	for i, s := range specs {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%s: %s\n", s.Name, s.Doc)
		if s.Clairvoyant {
			b.WriteString("  clairvoyant: a bound, never deployable\n")
		}
		fmt.Fprintf(&b, "  source: %s\n", s.Source)
		for _, p := range s.Params {
			group := ""
			if p.PerGroup {
				group = ", per group as " + p.Name + GroupSep + "GROUP"
			}
			fmt.Fprintf(&b, "  %-13s %s in [%s, %s] %s, default %s (%s, %s scale%s)\n", p.Name, p.Type,
				fnum(p.Min), fnum(p.Max), p.Unit, fnum(p.Default), p.Doc, p.Scale, group)
		}
		if r := s.ScheduleRule; r != nil {
			fmt.Fprintf(&b, "  schedule rule %s: %s = %s turns it off (%s)\n", r.Name, r.Param, fnum(r.Off), r.Doc)
		}
		if s.Fuzzy != nil {
			fmt.Fprintf(&b, "  fuzzy template: %d rules over %s -> %s (%s)\n", len(s.Fuzzy.Rules), varNames(s.Fuzzy.Inputs), s.Fuzzy.Output.Name, s.Fuzzy.Inference)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func fnum(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func varNames(vs []fuzzy.Variable) string {
	names := make([]string, len(vs))
	for i, v := range vs {
		names[i] = v.Name
	}
	return strings.Join(names, ", ")
}

// WriteText writes the decision for a person: one line per kind of
// command, then when to ask again.
func (o DecisionOut) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "policy %s at %d\n", o.Policy, o.Now)
	fmt.Fprintf(&b, "power on:  %s\n", orNone(o.PowerOn))
	b.WriteString("power off: " + levels(o.PowerOff) + "\n")
	b.WriteString("frequency: " + levels(o.Freq) + "\n")
	if o.Wake == nil {
		b.WriteString("ask again: at the next event\n")
	} else {
		fmt.Fprintf(&b, "ask again: at %d (in %d s) or at the next event\n", *o.Wake, *o.Wake-o.Now)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, " ")
}

func levels(ls []NodeLevelOut) string {
	s := make([]string, len(ls))
	for i, l := range ls {
		s[i] = l.Node + " (" + l.LevelName + ")"
	}
	return orNone(s)
}
