package policy

import (
	"math"

	"gonum.org/v1/gonum/mathext"
)

// Predictive policies: switch an idle node off when its next use is
// expected (break-even) or likely (exponential, gamma) only after the
// break-even time Ts of its model (NodeModel.BreakEven), as predicted from
// the last arrivals of View.Recent.
//
// Which arrival uses which node: idle nodes are ranked most recently used
// first (the warm ones serve the next jobs; the least recently used go off
// first). Arrivals are first served by booting slots beyond the queue's
// needs, then by the idle nodes in rank order, each arrival taking the
// window's mean slots: idle node k, with B slots ranked before it, is next
// used by arrival m = ⌊B ÷ mean slots⌋ + 1 (m = 0 when the queue already
// needs it). All three boot on demand.

type predictKind int

const (
	predictBreakEven predictKind = iota
	predictExponential
	predictGamma
)

type predictive struct {
	kind      predictKind
	window    int
	threshold float64
	order     []int
}

var windowParam = Param{Name: "window", Unit: "arrivals", Doc: "recent arrivals the prediction is fitted on", Min: 2, Max: RecentCap, Default: 32, Integer: true, Log: true}

func thresholdParam(doc string) Param {
	return Param{Name: "threshold", Unit: "probability", Doc: doc, Min: 0.001, Max: 0.999, Default: 0.5}
}

func breakEvenSpec() Spec {
	return withCheck(Spec{
		Name: "break-even",
		Doc:  "off when the node's next use, at the recent arrival rate, is expected after the break-even time Ts",
		Source: "break-even time of dynamic power management (Benini, Bogliolo, De Micheli, \"A survey of design techniques " +
			"for system-level dynamic power management\", IEEE TVLSI 8(3), 2000); Ts from the node power model",
		Params: []Param{windowParam},
	}, func(c Config) (Policy, error) {
		return &predictive{kind: predictBreakEven, window: int(c.Params["window"])}, nil
	})
}

func exponentialSpec() Spec {
	return withCheck(Spec{
		Name: "exponential",
		Doc:  "exponential inter-arrivals (MLE on a window): off when P(node used within Ts) < threshold",
		Source: "predictive shutdown with exponential inter-arrival model (Hwang, Wu, \"A predictive system shutdown method " +
			"for energy saving of event-driven computation\", ACM TODAES 5(2), 2000); Ts from the node power model",
		Params: []Param{windowParam, thresholdParam("switch off when the chance of use within Ts is below this")},
	}, func(c Config) (Policy, error) {
		return &predictive{kind: predictExponential, window: int(c.Params["window"]), threshold: c.Params["threshold"]}, nil
	})
}

func gammaSpec() Spec {
	return withCheck(Spec{
		Name: "gamma",
		Doc:  "gamma inter-arrivals (MLE, Minka's method on a window): off when P(node used within Ts) < threshold",
		Source: "gamma inter-arrival model; MLE by Minka, \"Estimating a Gamma distribution\" (2002), started from the " +
			"Choi–Wette closed form (Technometrics 11(4), 1969); Ts from the node power model",
		Params: []Param{windowParam, thresholdParam("switch off when the chance of use within Ts is below this")},
	}, func(c Config) (Policy, error) {
		return &predictive{kind: predictGamma, window: int(c.Params["window"]), threshold: c.Params["threshold"]}, nil
	})
}

func (p *predictive) Name() string {
	return [...]string{"break-even", "exponential", "gamma"}[p.kind]
}

// arrivalFit is what a window of arrivals says.
type arrivalFit struct {
	n         int     // arrivals in the window
	first     int64   // time of the first
	meanSlots float64 // slots per arrival
	shape     float64 // gamma shape of the inter-arrival times (1: exponential)
	rate      float64 // gamma rate (per s) of the inter-arrival times
}

func fitArrivals(recent []Arrival, window int, kind predictKind) arrivalFit {
	w := recent[max(0, len(recent)-window):]
	f := arrivalFit{n: len(w)}
	if f.n == 0 {
		return f
	}
	f.first = w[0].Time
	slots, sumGap, sumLog := 0, 0.0, 0.0
	for i, a := range w {
		slots += a.Slots
		if i > 0 {
			gap := math.Max(1, float64(a.Time-w[i-1].Time)) // 1-s resolution of logs
			sumGap += gap
			sumLog += math.Log(gap)
		}
	}
	f.meanSlots = float64(slots) / float64(f.n)
	if gaps := float64(f.n - 1); gaps > 0 {
		f.shape = 1
		if kind == predictGamma {
			f.shape = gammaShape(math.Log(sumGap/gaps) - sumLog/gaps)
		}
		f.rate = f.shape / (sumGap / gaps)
	}
	return f
}

// gammaShape is the maximum-likelihood shape of a gamma distribution from
// s = ln(mean) − mean(ln x) ≥ 0: the Choi–Wette closed form refined by
// Minka's generalized Newton steps. Nearly constant gaps (s → 0) cap the
// shape at 1000.
func gammaShape(s float64) float64 {
	if s < 1e-6 {
		return 1000
	}
	a := (3 - s + math.Sqrt((s-3)*(s-3)+24*s)) / (12 * s)
	for range 4 {
		a = 1 / (1/a + (math.Log(a)-mathext.Digamma(a)-s)/(a*a*(1/a-trigamma(a))))
	}
	return math.Min(a, 1000)
}

// trigamma is ψ'(x) for x > 0: recurrence up to x ≥ 12, then the
// asymptotic series.
func trigamma(x float64) float64 {
	r := 0.0
	for ; x < 12; x++ {
		r += 1 / (x * x)
	}
	x2 := 1 / (x * x)
	return r + 1/x + x2/2 + x2/x*(1.0/6-x2*(1.0/30-x2*(1.0/42-x2/30)))
}

func (p *predictive) Decide(v *View, d *Decision) {
	if need := queueDeficit(v); need > 0 {
		bootInOrder(v, d, nil, need, 0, -1)
		return
	}
	f := fitArrivals(v.Recent, p.window, p.kind)
	p.order = recentFirst(v, p.order)
	ahead := v.BootingSlots - v.QueuedSlots
	last := struct { // the previous node's question and answer
		m    int
		ts   float64
		off  bool
		wake int64
	}{m: -1}
	for _, i := range p.order {
		n := &v.Nodes[i]
		m := 0
		if ahead >= 0 {
			m = int(float64(ahead)/math.Max(f.meanSlots, 1)) + 1
		}
		ahead += n.Slots
		ts := v.Groups[n.Group].Model.BreakEven()
		if m != last.m || ts != last.ts {
			last.m, last.ts = m, ts
			last.off, last.wake = p.off(v.Now, f, m, ts)
		}
		off, wake := last.off, last.wake
		if off {
			d.PowerOff = append(d.PowerOff, NodeCommand{Node: i})
		}
		d.Wake = earliest(d.Wake, wake)
	}
}

// off decides for an idle node used by arrival m (0: needed now), and
// returns when that decision would change with time alone.
func (p *predictive) off(now int64, f arrivalFit, m int, ts float64) (bool, int64) {
	switch {
	case m == 0:
		return false, NoTime
	case f.n < 2: // no arrival rate to speak of: no use foreseen
		return true, NoTime
	case p.kind == predictBreakEven:
		return expectedAfter(now, f, m, ts)
	}
	// Arrival m comes after m gamma(shape, rate) gaps: its time is
	// gamma(m·shape, rate); P(it comes within Ts) is the regularized
	// lower incomplete gamma function.
	return mathext.GammaIncReg(float64(m)*f.shape, f.rate*ts) < p.threshold, NoTime
}

// expectedAfter: at the rate (n−1) ÷ (t − first) of the window up to time
// t, arrival m is expected m·(t − first) ÷ (n−1) after t; the node goes off
// when that exceeds Ts. The rate falls as time passes without arrivals, so
// a kept node is reconsidered when the expectation crosses Ts.
func expectedAfter(now int64, f arrivalFit, m int, ts float64) (bool, int64) {
	after := func(t int64) bool { return float64(m)*float64(t-f.first) > ts*float64(f.n-1) }
	if after(now) {
		return true, NoTime
	}
	t := f.first + int64(ts*float64(f.n-1)/float64(m))
	for t > now+1 && after(t-1) {
		t--
	}
	for !after(t) {
		t++
	}
	return false, later(now, t)
}

// recentFirst appends the idle nodes to buf[:0], most recently idle first,
// ties by ID: View.IdleLRU backwards, each run of equal IdleSince kept in
// ID order.
func recentFirst(v *View, buf []int) []int {
	buf = buf[:0]
	lru := v.IdleLRU
	for end := len(lru); end > 0; {
		since := v.Nodes[lru[end-1]].IdleSince
		start := end - 1
		for start > 0 && v.Nodes[lru[start-1]].IdleSince == since {
			start--
		}
		buf = append(buf, lru[start:end]...)
		end = start
	}
	return buf
}
