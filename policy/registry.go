package policy

import "fmt"

// All returns the specs of every policy, in the order `ecotune policies`
// lists them.
func All() []Spec {
	return []Spec{
		{
			Name:   "always-on",
			Doc:    "every node always powered",
			Source: "baseline of EECluster (Cocaña-Fernández et al., 2015) and ESCS (Kiertscher et al.)",
			New:    func(Config) (Policy, error) { return alwaysOn{}, nil },
		},
	}
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
