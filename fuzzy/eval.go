package fuzzy

import "math"

// CentroidGrid is the number of evenly spaced points over the output range
// on which Mamdani inference computes the centroid.
const CentroidGrid = 201

// Eval infers the output for inputs (one value per input variable, in
// order; values beyond a variable's range count as its end labels). A
// rule fires with strength Weight × min over its antecedents of the
// memberships (inputs with Any are skipped). Mamdani inference clips each
// output label at the largest strength of the rules concluding it, takes
// the maximum of the clipped sets and returns their centroid (trapezoid
// rule on CentroidGrid points); TSK returns the strength-weighted average
// of the rules' conclusions (label centres, or Values). Eval returns NaN
// when no rule fires.
//
// Eval does not allocate and does not modify s: one System may be
// evaluated from several goroutines. s must be valid (see Validate);
// len(inputs) must equal len(s.Inputs).
func (s *System) Eval(inputs []float64) float64 {
	if len(inputs) != len(s.Inputs) {
		panic("fuzzy: Eval: wrong number of inputs")
	}
	var mu [MaxInputs][MaxLabels]float64
	var c [MaxLabels]float64
	for j := range s.Inputs {
		in := &s.Inputs[j]
		in.centers(&c)
		memberships(&c, len(in.Labels), inputs[j], &mu[j])
	}
	var outC [MaxLabels]float64
	s.Output.centers(&outC)
	var alpha [MaxLabels]float64
	num, den := 0.0, 0.0
	for r := range s.Rules {
		rule := &s.Rules[r]
		if rule.Then == NoRule {
			continue
		}
		w := ruleStrength(rule, &mu)
		if w <= 0 {
			continue
		}
		den += w
		if rule.Value != nil {
			num += w * *rule.Value
			continue
		}
		num += w * outC[rule.Then]
		alpha[rule.Then] = max(alpha[rule.Then], w)
	}
	if den == 0 {
		return math.NaN()
	}
	if s.Inference == TSK {
		return num / den
	}
	return centroid(&s.Output, &outC, &alpha)
}

func ruleStrength(r *Rule, mu *[MaxInputs][MaxLabels]float64) float64 {
	w := 1.0
	for j, l := range r.If {
		if l != Any {
			w = min(w, mu[j][l])
		}
	}
	if r.Weight != 0 {
		w *= r.Weight
	}
	return w
}

// centroid is the centroid over CentroidGrid points of the output range
// of max_k min(alpha_k, μ_k(y)). The partition is strong, so at each y at
// most the two labels whose centres bracket y are non-zero: one pass.
func centroid(out *Variable, c *[MaxLabels]float64, alpha *[MaxLabels]float64) float64 {
	n := len(out.Labels)
	num, den := 0.0, 0.0
	k := 0
	for i := range CentroidGrid {
		y := out.Min + (out.Max-out.Min)*float64(i)/(CentroidGrid-1)
		var m float64
		switch {
		case n == 1 || y <= c[0]:
			m = alpha[0]
		case y >= c[n-1]:
			m = alpha[n-1]
		default:
			for y > c[k+1] { // c[k] < y ≤ c[k+1]; y only grows
				k++
			}
			r := rising(c[k], c[k+1], y)
			m = max(min(alpha[k], 1-r), min(alpha[k+1], r))
		}
		if i == 0 || i == CentroidGrid-1 {
			m /= 2 // trapezoid rule
		}
		num += y * m
		den += m
	}
	return num / den
}
