package testproblems

import (
	"fmt"
	"math"

	"github.com/ecotune/ecotune/tuner/search"
)

// Problem is a test problem: box-bounded real variables, minimised
// objectives, and a sampler of its true Pareto front.
type Problem struct {
	Name  string
	vars  []search.Var
	objs  []search.Objective
	eval  func(x, f []float64)
	front func(n int) [][]float64
}

// Vars implements search.Problem.
func (p *Problem) Vars() []search.Var { return p.vars }

// Objectives implements search.Problem.
func (p *Problem) Objectives() []search.Objective { return p.objs }

// NewEvaluator implements search.Problem; the functions are stateless.
func (p *Problem) NewEvaluator() (search.Evaluator, error) {
	return search.EvaluatorFunc(func(x, f []float64) (float64, error) {
		p.eval(x, f)
		return 0, nil
	}), nil
}

// Evaluate computes the objectives of x into f.
func (p *Problem) Evaluate(x, f []float64) { p.eval(x, f) }

// TrueFront returns about n points of the true Pareto front, evenly
// spread in the front's parameters.
func (p *Problem) TrueFront(n int) [][]float64 { return p.front(n) }

func unitVars(n int) []search.Var {
	vs := make([]search.Var, n)
	for i := range vs {
		vs[i] = search.Var{Name: fmt.Sprintf("x%d", i+1), Min: 0, Max: 1}
	}
	return vs
}

func minimised(names ...string) []search.Objective {
	os := make([]search.Objective, len(names))
	for i, n := range names {
		os[i] = search.Objective{Name: n}
	}
	return os
}

// zdtG is g(x) = 1 + 9/(n−1) Σ_{i≥2} x_i, 1 on the front.
func zdtG(x []float64) float64 {
	s := 0.0
	for _, v := range x[1:] {
		s += v
	}
	return 1 + 9*s/float64(len(x)-1)
}

// zdt builds a ZDT problem (Zitzler, Deb and Thiele 2000) of n variables
// in [0, 1] with f1 = x1 and f2 = g·h(f1/g).
func zdt(name string, n int, h func(r, f1 float64) float64, front func(n int) [][]float64) *Problem {
	return &Problem{
		Name: name,
		vars: unitVars(n),
		objs: minimised("f1", "f2"),
		eval: func(x, f []float64) {
			g := zdtG(x)
			f[0] = x[0]
			f[1] = g * h(x[0]/g, x[0])
		},
		front: front,
	}
}

// curve samples f2 = h(f1) at n points of f1 in [0, 1].
func curve(n int, h func(f1 float64) float64) [][]float64 {
	pts := make([][]float64, n)
	for i := range pts {
		f1 := float64(i) / float64(n-1)
		pts[i] = []float64{f1, h(f1)}
	}
	return pts
}

// ZDT1 has a convex front f2 = 1 − √f1 (30 variables).
func ZDT1() *Problem {
	return zdt("ZDT1", 30, func(r, _ float64) float64 { return 1 - math.Sqrt(r) },
		func(n int) [][]float64 { return curve(n, func(f1 float64) float64 { return 1 - math.Sqrt(f1) }) })
}

// ZDT2 has a concave front f2 = 1 − f1² (30 variables).
func ZDT2() *Problem {
	return zdt("ZDT2", 30, func(r, _ float64) float64 { return 1 - r*r },
		func(n int) [][]float64 { return curve(n, func(f1 float64) float64 { return 1 - f1*f1 }) })
}

// ZDT3 has a front of five disconnected pieces, the non-dominated part of
// f2 = 1 − √f1 − f1·sin(10π f1) (30 variables).
func ZDT3() *Problem {
	h := func(f1 float64) float64 { return 1 - math.Sqrt(f1) - f1*math.Sin(10*math.Pi*f1) }
	return zdt("ZDT3", 30, func(r, f1 float64) float64 { return 1 - math.Sqrt(r) - r*math.Sin(10*math.Pi*f1) },
		func(n int) [][]float64 { return nonDominated(curve(n, h)) })
}

// DTLZ2 has a spherical front, the positive octant of the unit sphere (3
// objectives, 12 variables; Deb, Thiele, Laumanns and Zitzler 2002).
func DTLZ2() *Problem {
	const m, nvars = 3, 12
	return &Problem{
		Name: "DTLZ2",
		vars: unitVars(nvars),
		objs: minimised("f1", "f2", "f3"),
		eval: func(x, f []float64) {
			g := 0.0
			for _, v := range x[m-1:] {
				g += (v - 0.5) * (v - 0.5)
			}
			a, b := x[0]*math.Pi/2, x[1]*math.Pi/2
			f[0] = (1 + g) * math.Cos(a) * math.Cos(b)
			f[1] = (1 + g) * math.Cos(a) * math.Sin(b)
			f[2] = (1 + g) * math.Sin(a)
		},
		front: func(n int) [][]float64 {
			side := max(2, int(math.Sqrt(float64(n))))
			pts := make([][]float64, 0, side*side)
			for i := range side {
				for j := range side {
					a := float64(i) / float64(side-1) * math.Pi / 2
					b := float64(j) / float64(side-1) * math.Pi / 2
					pts = append(pts, []float64{math.Cos(a) * math.Cos(b), math.Cos(a) * math.Sin(b), math.Sin(a)})
				}
			}
			return pts
		},
	}
}

// nonDominated keeps the points no other point dominates (minimisation),
// for two objectives: sweep by f1 keeping strictly decreasing f2.
func nonDominated(pts [][]float64) [][]float64 {
	var out [][]float64
	best := math.Inf(1)
	for _, p := range pts { // sorted by f1
		if p[1] < best {
			out = append(out, p)
			best = p[1]
		}
	}
	return out
}
