package search

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Var is one decision variable of a Problem.
//
// A real variable takes values in [Min, Max]; Integer rounds it to a whole
// number; Log makes the search (crossover, mutation, random initial values)
// work on ln(value), so that 1 s and 10 s are as far apart as 100 s and
// 1000 s (Min must then be positive). A categorical variable (Levels > 0)
// takes the values 0, 1, …, Levels−1 and is varied by uniform crossover and
// random reset instead of SBX and polynomial mutation; Min, Max, Integer and
// Log are ignored.
type Var struct {
	Name    string  `json:"name"`
	Min     float64 `json:"min"`
	Max     float64 `json:"max"`
	Integer bool    `json:"integer,omitempty"`
	Log     bool    `json:"log,omitempty"`
	Levels  int     `json:"levels,omitempty"`
	// Group names the block the variable belongs to (for a policy:
	// "params", "rules", "shifts"); mutation shares its attention equally
	// between groups (Variation.MutationProb).
	Group string `json:"group,omitempty"`
}

// categorical reports whether v is varied as a label index.
func (v Var) categorical() bool { return v.Levels > 0 }

// validate reports a variable no search can handle.
func (v Var) validate() error {
	switch {
	case v.categorical():
		return nil
	case math.IsNaN(v.Min) || math.IsNaN(v.Max) || math.IsInf(v.Min, 0) || math.IsInf(v.Max, 0):
		return fmt.Errorf("tuner: variable %q: bounds [%g, %g] must be finite", v.Name, v.Min, v.Max)
	case v.Min > v.Max:
		return fmt.Errorf("tuner: variable %q: min %g > max %g", v.Name, v.Min, v.Max)
	case v.Log && v.Min <= 0:
		return fmt.Errorf("tuner: variable %q: log scale needs min > 0, got %g", v.Name, v.Min)
	case v.Integer && math.Ceil(v.Min) > math.Floor(v.Max):
		return fmt.Errorf("tuner: variable %q: no integer in [%g, %g]", v.Name, v.Min, v.Max)
	}
	return nil
}

// lower and upper are the bounds in search coordinates.
func (v Var) lower() float64 {
	switch {
	case v.categorical():
		return 0
	case v.Log:
		return math.Log(v.Min)
	}
	return v.Min
}

func (v Var) upper() float64 {
	switch {
	case v.categorical():
		return float64(v.Levels - 1)
	case v.Log:
		return math.Log(v.Max)
	}
	return v.Max
}

// toSearch maps a value to search coordinates.
func (v Var) toSearch(x float64) float64 {
	if v.Log && !v.categorical() {
		return math.Log(x)
	}
	return x
}

// fromSearch maps search coordinates back to a valid value: clamped to the
// bounds and rounded for integer and categorical variables.
func (v Var) fromSearch(u float64) float64 {
	lo, hi := v.lower(), v.upper()
	u = math.Min(math.Max(u, lo), hi)
	if v.categorical() {
		return math.Round(u)
	}
	x := u
	if v.Log {
		x = math.Min(math.Max(math.Exp(u), v.Min), v.Max)
	}
	if v.Integer {
		x = math.Min(math.Max(math.Round(x), math.Ceil(v.Min)), math.Floor(v.Max))
	}
	return x
}

// ValidateVars checks every variable and that names are unique.
func ValidateVars(vars []Var) error {
	if len(vars) == 0 {
		return fmt.Errorf("tuner: a problem needs at least one variable")
	}
	seen := make(map[string]bool, len(vars))
	for _, v := range vars {
		if err := v.validate(); err != nil {
			return err
		}
		if seen[v.Name] {
			return fmt.Errorf("tuner: variable %q declared twice", v.Name)
		}
		seen[v.Name] = true
	}
	return nil
}

// genomeKey is the canonical encoding of a decision vector: the bits of
// each value. Two candidates with the same key are the same candidate and
// are evaluated once.
func genomeKey(x []float64) string {
	b := make([]byte, 8*len(x))
	for i, v := range x {
		if v == 0 {
			v = 0 // −0 and +0 are the same candidate
		}
		binary.BigEndian.PutUint64(b[8*i:], math.Float64bits(v))
	}
	return string(b)
}

// Repair maps x to the nearest valid value of v (rounded to a level or an
// integer, clamped to the bounds), as the search repairs a given
// candidate.
func (v Var) Repair(x float64) float64 { return v.fromSearch(v.toSearch(x)) }
