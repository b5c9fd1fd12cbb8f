package policy

import "github.com/ecotune/ecotune/fuzzy"

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
	New   func(c Config) (Policy, error)
}
