package policy

import "fmt"

// All returns the specs of every policy, in the order `ecotune policies`
// lists them.
func All() []Spec {
	specs := []Spec{
		alwaysOnSpec(),
		alwaysOffSpec(),
		randomSpec(),
		idleTimeoutSpec(),
		escsSpec(),
		eeclusterSpec(),
		bestFitSpec(),
		loadSpec(),
		breakEvenSpec(),
		exponentialSpec(),
		gammaSpec(),
		hgfsSpec(),
		breakEvenOracleSpec(),
		oracleSpec(),
	}
	return append(specs, freqSpecs()...)
}

// Lookup returns the spec of the policy called name.
func Lookup(name string) (Spec, error) {
	for _, s := range All() {
		if s.Name == name {
			return s, nil
		}
	}
	return Spec{}, fmt.Errorf("policy: unknown policy %q (see `ecotune policies`)", name)
}

// New makes the policy c describes; parameters not in c take their defaults.
func New(c Config) (Policy, error) {
	s, err := Lookup(c.Name)
	if err != nil {
		return nil, err
	}
	return s.New(c)
}

// withCheck sets s.New to fill c's missing parameters with defaults, check
// them against s, and call mk with the complete Config.
func withCheck(s Spec, mk func(c Config) (Policy, error)) Spec {
	s.New = func(c Config) (Policy, error) {
		if c.Name != "" && c.Name != s.Name {
			return nil, fmt.Errorf("policy %s: config is for %q", s.Name, c.Name)
		}
		c = s.Fill(c)
		if err := s.Check(c); err != nil {
			return nil, fmt.Errorf("policy %s: %w", s.Name, err)
		}
		return mk(c)
	}
	return s
}
