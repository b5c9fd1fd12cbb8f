package scoring

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/fuzzy"
	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/policy"
	ecoreplay "github.com/ecotune/ecotune/replay"
	"github.com/ecotune/ecotune/sim"
	"github.com/ecotune/ecotune/tuner/search"
)

// DefaultObjectives are EECluster's: minimise the p90 wait ratio,
// maximise node-off seconds, minimise reconfigurations.
func DefaultObjectives() []Objective {
	return []Objective{
		{Name: objectives.QoSP90, Maximize: objectives.Maximized(objectives.QoSP90)},
		{Name: objectives.OffNodeSeconds, Maximize: objectives.Maximized(objectives.OffNodeSeconds)},
		{Name: objectives.Reconfigurations, Maximize: objectives.Maximized(objectives.Reconfigurations)},
	}
}

// PolicyProblem tunes one policy by replaying a trace: its declared
// parameters and, for a policy with a fuzzy template (hgfs), its rule base
// (genetic-fuzzy learning, Pittsburgh: one candidate is one whole policy).
//
// Encoding: one variable per declared parameter (bounds, integer and log
// scale as declared; a log-scale parameter whose minimum is not positive
// is searched linearly); then, for a fuzzy template, one categorical
// variable per template rule, "rule.IF-LABELS" (0 = rule off, k = output
// label k−1); then one real in [−0.5, 0.5] per label of every input and
// of the output, "shift.VARIABLE.LABEL", its lateral displacement.
type PolicyProblem struct {
	Spec        policy.Spec
	Trace       *datasets.Trace
	Cluster     sim.Cluster
	Options     sim.Options
	Objs        []Objective
	Constraints []Constraint
	// bounds are the constraints' absolute bounds on Trace.
	bounds []float64
	vars   []search.Var
	nParam int
	robust *robustEval // nil: one plain replay of Trace (Options.Robust)
}

// NewPolicyProblem prepares the tuning of spec on tr. alwaysOn are
// always-on's scores on tr, which relative constraints refer to.
func NewPolicyProblem(spec policy.Spec, tr *datasets.Trace, c sim.Cluster, opt sim.Options, objs []Objective, cons []Constraint, alwaysOn objectives.Scores) (*PolicyProblem, error) {
	p := &PolicyProblem{Spec: spec, Trace: tr, Cluster: c, Options: opt, Objs: objs, Constraints: cons}
	for _, o := range objs {
		if _, err := alwaysOn.Get(o.Name); err != nil {
			return nil, fmt.Errorf("tuner: objective: %w", err)
		}
	}
	var err error
	if p.bounds, err = appendBounds(p.bounds, cons, alwaysOn); err != nil {
		return nil, err
	}
	p.vars = paramVars(spec.Params, c)
	p.nParam = len(p.vars)
	if t := spec.Fuzzy; t != nil {
		p.vars = appendFuzzyVars(p.vars, t)
	}
	if len(p.vars) == 0 {
		return nil, fmt.Errorf("tuner: policy %s has nothing to tune", spec.Name)
	}
	if err := search.ValidateVars(p.vars); err != nil {
		return nil, fmt.Errorf("tuner: policy %s: %w", spec.Name, err)
	}
	return p, nil
}

// appendBounds appends to dst the absolute bounds of cons against base's
// scores; on error it returns the bounds resolved so far.
func appendBounds(dst []float64, cons []Constraint, base objectives.Scores) ([]float64, error) {
	for _, c := range cons {
		b, err := c.Resolve(base)
		if err != nil {
			return dst, fmt.Errorf("tuner: constraint %s: %w", c, err)
		}
		dst = append(dst, b)
	}
	return dst, nil
}

// paramVars are the search variables of a policy's parameters on cluster
// c, in their order. A node count's range stops at the cluster's nodes.
func paramVars(params []policy.Param, c sim.Cluster) []search.Var {
	var vars []search.Var
	for _, prm := range params {
		v := search.Var{Name: prm.Name, Min: prm.Min, Max: prm.Max, Integer: prm.Integer, Log: prm.Log && prm.Min > 0, Group: "params"}
		if n := float64(c.Nodes()); prm.Unit == "nodes" && n > 0 && n < v.Max {
			// More nodes than the cluster has act as all of them (spare
			// nodes, nodes booting at once): the search need not go there.
			v.Max = max(v.Min, n)
		}
		vars = append(vars, v)
	}
	return vars
}

// appendFuzzyVars appends to vars the search variables of fuzzy system
// t: each rule's output level, then each label's shift.
func appendFuzzyVars(vars []search.Var, t *fuzzy.System) []search.Var {
	for _, r := range t.Rules {
		vars = append(vars, search.Var{Name: "rule." + ruleLabels(t, r), Levels: len(t.Output.Labels) + 1, Group: "rules"})
	}
	for _, v := range fuzzyVars(t) {
		for _, l := range v.Labels {
			vars = append(vars, search.Var{Name: "shift." + v.Name + "." + l, Min: -0.5, Max: 0.5, Group: "shifts"})
		}
	}
	return vars
}

// fuzzyVars are the inputs then the output.
func fuzzyVars(s *fuzzy.System) []*fuzzy.Variable {
	vs := make([]*fuzzy.Variable, 0, len(s.Inputs)+1)
	for i := range s.Inputs {
		vs = append(vs, &s.Inputs[i])
	}
	return append(vs, &s.Output)
}

// ruleLabels names a rule by its antecedent labels, e.g. "low-high-any".
func ruleLabels(s *fuzzy.System, r fuzzy.Rule) string {
	parts := make([]string, len(r.If))
	for j, l := range r.If {
		if l == fuzzy.Any {
			parts[j] = "any"
		} else {
			parts[j] = s.Inputs[j].Labels[l]
		}
	}
	return strings.Join(parts, "-")
}

// Vars implements Problem.
func (p *PolicyProblem) Vars() []search.Var { return p.vars }

// Objectives implements Problem.
func (p *PolicyProblem) Objectives() []search.Objective {
	out := make([]search.Objective, len(p.Objs))
	for i, o := range p.Objs {
		out[i] = search.Objective(o)
	}
	return out
}

// ParamNames are the names of the policy's parameters, in encoding order.
func (p *PolicyProblem) ParamNames() []string {
	names := make([]string, p.nParam)
	for i := range names {
		names[i] = p.vars[i].Name
	}
	return names
}

// Config decodes a candidate into the policy it describes.
func (p *PolicyProblem) Config(x []float64) policy.Config {
	var c policy.Config
	p.configInto(x, &c)
	return c
}

// configInto decodes x into c as Config does, reusing c's parameter map
// and rule base when c holds a config configInto made before: an
// evaluator decodes every candidate into one Config without allocating.
func (p *PolicyProblem) configInto(x []float64, c *policy.Config) {
	c.Name = p.Spec.Name
	if c.Params == nil {
		c.Params = make(map[string]float64, p.nParam)
	}
	for i := range p.nParam {
		c.Params[p.vars[i].Name] = x[i]
	}
	t := p.Spec.Fuzzy
	if t == nil {
		return
	}
	if c.Fuzzy == nil {
		c.Fuzzy = t.Clone()
		for _, v := range fuzzyVars(c.Fuzzy) {
			v.Shifts = make([]float64, len(v.Labels))
		}
	}
	sys := c.Fuzzy
	k := p.nParam
	for i := range sys.Rules {
		sys.Rules[i].Then = int(x[k]) - 1 // 0 → NoRule (−1)
		k++
	}
	for j := range sys.Inputs {
		k = copy(sys.Inputs[j].Shifts, x[k:k+len(sys.Inputs[j].Shifts)]) + k
	}
	copy(sys.Output.Shifts, x[k:k+len(sys.Output.Shifts)])
}

// Encode is the inverse of Config: the candidate describing c; missing
// parameters take their defaults and, without a rule base, the template's.
func (p *PolicyProblem) Encode(c policy.Config) []float64 {
	x := make([]float64, 0, len(p.vars))
	for _, prm := range p.Spec.Params {
		v, ok := c.Params[prm.Name]
		if !ok {
			v = prm.Default
		}
		x = append(x, v)
	}
	t := p.Spec.Fuzzy
	if t == nil {
		return x
	}
	sys := c.Fuzzy
	if sys == nil {
		sys = t
	}
	for _, r := range sys.Rules {
		x = append(x, float64(max(r.Then, fuzzy.NoRule)+1))
	}
	for _, v := range fuzzyVars(sys) {
		for l := range v.Labels {
			s := 0.0
			if l < len(v.Shifts) {
				s = v.Shifts[l]
			}
			x = append(x, s)
		}
	}
	return x
}

// Canonical implements search.Canonicalizer: the candidate of the canonical form
// of x's policy (policy.Spec.Canonical: hgfs's drain_gap while drain is
// off, the shifts no rule that is on reads, at fixed values), x itself
// when that is x.
func (p *PolicyProblem) Canonical(x []float64) []float64 {
	if p.Spec.Canonical == nil {
		return x
	}
	c := p.Encode(p.Spec.Canonical(p.Config(x)))
	if slices.Equal(c, x) {
		return x
	}
	return c
}

// Seeds are the candidates every search starts from besides random ones:
// the policy's defaults; with a rule base, the same with every rule off
// (the crisp policy alone), so the genetic-fuzzy search starts no worse
// than the crisp rules it extends; and the seeds the policy declares
// (policy.Spec.Seeds; for hgfs the configurations that act as
// idle-timeout).
func (p *PolicyProblem) Seeds() [][]float64 {
	def := p.Spec.Fill(policy.Config{Name: p.Spec.Name})
	seeds := [][]float64{p.Encode(def)}
	if p.Spec.Fuzzy != nil {
		crisp := p.Encode(def)
		for i := range p.Spec.Fuzzy.Rules {
			crisp[p.nParam+i] = 0 // rule off
		}
		seeds = append(seeds, crisp)
	}
	for _, c := range p.Spec.Seeds {
		seeds = append(seeds, p.Encode(p.Spec.Fill(c)))
	}
	return seeds
}

// ScheduleRuleFixed returns the variable (index → value) that holds the
// policy's own scheduling rule off (policy.Spec.ScheduleRule), nil when
// the policy declares none.
func (p *PolicyProblem) ScheduleRuleFixed() map[int]float64 {
	r := p.Spec.ScheduleRule
	if r == nil {
		return nil
	}
	base := p.Spec.Fill(policy.Config{Name: p.Spec.Name})
	base.Params[r.Param] = r.Off
	x := p.Encode(base)
	for k, v := range p.vars {
		if k < p.nParam && v.Name == r.Param {
			return map[int]float64{k: x[k]}
		}
	}
	return nil
}

// ReactiveFixed returns the variables (index → value) that hold the policy
// in its reactive subspace (policy.Spec.Reactive): every variable but the
// free parameters at the subspace's base, rule shifts at 0. Nil when the
// policy declares none. Tune gives it to the first island when there are
// several (Settings.Fixed).
func (p *PolicyProblem) ReactiveFixed() map[int]float64 {
	sub := p.Spec.Reactive
	if sub == nil {
		return nil
	}
	base := p.Spec.Fill(sub.Base)
	if base.Fuzzy != nil {
		base.Fuzzy = base.Fuzzy.Clone()
		for _, v := range fuzzyVars(base.Fuzzy) {
			v.Shifts = nil // no rule fires: shifts change nothing
		}
	}
	x := p.Encode(base)
	fixed := make(map[int]float64, len(x))
	for k, v := range p.vars {
		if k < p.nParam && slices.Contains(sub.Free, v.Name) {
			continue
		}
		fixed[k] = x[k] // valid already: no trip through the search scale, which could round
	}
	return fixed
}

// NewEvaluator implements Problem: a replayer (the Scorer's scoring
// state: a simulator of its own) per worker.
func (p *PolicyProblem) NewEvaluator() (search.Evaluator, error) {
	if p.robust != nil {
		return p.newRobustEvaluator()
	}
	rep := ecoreplay.NewReplayer(p.Cluster, p.Options)
	if err := rep.Check(p.Trace); err != nil {
		return nil, err // a bad cluster or trace fails here, not at the first evaluation
	}
	e := &policyEvaluator{p: p, rep: rep}
	e.mk = e.policy
	return e, nil
}

// policyEvaluator evaluates candidates on one worker. In steady state an
// evaluation allocates nothing: the candidate is decoded into one Config,
// the last policy is renewed for it (policy.Spec.Renew), and the
// replayer reuses its simulator, result and score buffers.
type policyEvaluator struct {
	p   *PolicyProblem
	rep *ecoreplay.Replayer
	cfg policy.Config // the last candidate decoded
	pol policy.Policy // the last candidate's policy, renewed for the next
	sc  objectives.Scores
	mk  sim.PolicyMaker // e.policy, made once
}

// policy makes the policy of e.cfg: the last one renewed, except with
// partitions, where a replay makes one policy per partition.
func (e *policyEvaluator) policy() (policy.Policy, error) {
	if len(e.p.Cluster.Partitions) > 0 {
		return e.p.Spec.New(e.cfg) // not policy.New: no lookup building every Spec
	}
	pol, err := e.p.Spec.Renew(e.pol, e.cfg)
	if err != nil {
		e.pol = nil
		return nil, err
	}
	e.pol = pol
	return pol, nil
}

// scoreAt is sc.Get(name) without copying sc to the heap.
func scoreAt(sc *objectives.Scores, name string) (float64, error) {
	if o, err := objectives.Lookup(name); err == nil {
		return o.At(sc), nil
	}
	return sc.Get(name) // "jobs"
}

// Evaluate implements Evaluator.
func (e *policyEvaluator) Evaluate(x, f []float64) (float64, error) {
	e.p.configInto(x, &e.cfg)
	var err error
	if e.sc, err = e.rep.Score(e.p.Trace, e.mk); err != nil {
		return 0, err
	}
	for k, o := range e.p.Objs {
		if f[k], err = scoreAt(&e.sc, o.Name); err != nil {
			return 0, err
		}
	}
	return e.p.violationAt(&e.sc, e.p.bounds)
}

// violationAt sums how far *sc misses each constraint's bound.
func (p *PolicyProblem) violationAt(sc *objectives.Scores, bounds []float64) (float64, error) {
	cv := 0.0
	for i, c := range p.Constraints {
		v, err := scoreAt(sc, c.Name)
		if err != nil {
			return 0, err
		}
		cv += Violation(c.Op, v, bounds[i])
	}
	return cv, nil
}
