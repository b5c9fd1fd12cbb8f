package policy

import "math"

// Renew makes the policy c describes, as s.New does, but may reuse old
// (a policy of s that s.New or Renew made and the caller no longer uses)
// instead of allocating a new one: a tuner's evaluator renews one policy
// per candidate, and a renewed hgfs allocates nothing. The policy
// returned behaves exactly as s.New(c) would. Renew reuses old only when
// c names every parameter of s and nothing else (a decoded candidate),
// each valid, and old's kind can take c in place (hgfs: a rule base of
// the shape old was made with); otherwise, and for any error, it is
// s.New(c). old may be nil.
func (s Spec) Renew(old Policy, c Config) (Policy, error) {
	r, ok := old.(renewable)
	if !ok || old.Name() != s.Name || (c.Name != "" && c.Name != s.Name) || !s.complete(c) || !r.renew(c) {
		return s.New(c)
	}
	return old, nil
}

// renewable is a policy that can take another complete, valid Config of
// its spec in place. renew reports false, changing nothing, when it
// cannot (or when the Config's rule base is invalid: New then says why).
type renewable interface {
	renew(c Config) bool
}

// complete reports whether c holds exactly s's parameters, each a finite
// number within its bounds and whole where it must be: what Fill and the
// parameter half of Check accept without filling anything.
func (s Spec) complete(c Config) bool {
	if len(c.Params) != len(s.Params) {
		return false
	}
	for i := range s.Params {
		p := &s.Params[i]
		x, ok := c.Params[p.Name]
		if !ok || math.IsNaN(x) || x < p.Min || x > p.Max || (p.Integer && x != math.Trunc(x)) {
			return false
		}
	}
	return true
}

// renew implements renewable: the rule base must have the shape of the
// one p was made with (Check accepted that one against the template), so
// only its consequents and shifts need checking, which Recompile does.
func (p *hgfs) renew(c Config) bool {
	if c.Fuzzy == nil {
		return false
	}
	if ok, err := p.sys.Recompile(c.Fuzzy); !ok || err != nil {
		return false
	}
	p.configure(c, p.sys)
	return true
}
