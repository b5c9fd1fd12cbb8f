package scoring

import (
	"math"

	"github.com/ecotune/ecotune/objectives"
	rundir "github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/tuner/search"
)

// HVMargin is how far beyond the worse reference the nadir lies, as a
// fraction of the references' distance: a solution at (or slightly past)
// the worse reference in one objective still adds hypervolume.
const HVMargin = 0.1

// TieTolerance is how close, relative to the better value's magnitude
// (at least 1), the two references' values of an objective must be for
// the Normalizer to treat them as equal.
const TieTolerance = 0.01

// Normalizer maps objective values of one split to a fixed box, [0, 1] in
// every objective, so hypervolumes of fronts of different policies, runs
// and splits compare: every hypervolume lies in [0, 1].
//
// The box is bounded by two reference policies evaluated on the same split,
// always-on and the clairvoyant oracle. For each objective the better of
// the two is the ideal (0) and the worse, moved HVMargin of their distance
// further, the nadir (1): always-on bounds reconfigurations from the good
// side, the oracle off-seconds. Values outside the box are clamped to it:
// one beyond the nadir adds nothing in that objective.
//
// The service scores (objectives.Objective.Service: qos_p90 and the
// waits) are bounded by always-on alone: it is the ideal, and the span is
// its own value's magnitude (at least 1), so the nadir is 2.1 times
// always-on's p90 wait ratio, or a ratio 1.1 higher when always-on's is
// below 1. The oracle starts every job when always-on does, so its waits
// differ from always-on's only by what backfilling moves under EASY, and
// that difference is noise, not a scale: a box between them made
// qos_p90 a threshold near always-on's value, a member scored by whether
// backfilling happened to favour it, not by how much it delays jobs
// (docs/experiments.md, "The normalizer's service box"). A
// service score better than always-on's (hgfs's drain rule can bring
// qos_p90 below it under EASY: a schedule change, not a power decision)
// counts as the ideal.
//
// For the other objectives, references that tie — differ by at most
// TieTolerance of the better value's magnitude (at least 1) — are taken to
// be that magnitude apart, or 1 if it is below 1, so that a near tie does
// not stretch that objective a hundredfold and swamp the others.
// The hypervolume reference point is the nadir, (1, …, 1).
//
// Its fields are run.Normalizer's (run.json's "normalizers": Best is the
// ideal, Span the references' distance, so the nadir is Best ± (1 +
// HVMargin) × Span): convert with Normalizer(m.Normalizers["test"]).
type Normalizer rundir.Normalizer

// NewNormalizer bounds the box by the raw objective values of the two
// reference policies: alwaysOn, always-on's, and other, the oracle's.
func NewNormalizer(objs []Objective, alwaysOn, other []float64) Normalizer {
	n := Normalizer{Objectives: objs, Best: make([]float64, len(objs)), Span: make([]float64, len(objs))}
	for k, o := range objs {
		if !o.Maximize && objectives.Served(o.Name) {
			n.Best[k], n.Span[k] = alwaysOn[k], math.Max(1, math.Abs(alwaysOn[k]))
			continue
		}
		lo, hi := math.Min(alwaysOn[k], other[k]), math.Max(alwaysOn[k], other[k])
		best := lo
		if o.Maximize {
			best = hi
		}
		span, scale := hi-lo, math.Max(1, math.Abs(best))
		if span <= TieTolerance*scale {
			span = scale
		}
		n.Best[k], n.Span[k] = best, span
	}
	return n
}

// Normalize maps raw values into the box: 0 the ideal (the better
// reference), 1 the nadir (the worse reference plus HVMargin), larger is
// worse for every objective, values outside clamped.
func (n Normalizer) Normalize(f []float64) []float64 {
	out := make([]float64, len(f))
	for k, o := range n.Objectives {
		d := f[k] - n.Best[k]
		if o.Maximize {
			d = -d
		}
		out[k] = math.Min(1, math.Max(0, d/((1+HVMargin)*n.Span[k])))
		if math.IsNaN(out[k]) {
			out[k] = 1
		}
	}
	return out
}

// Hypervolume is the hypervolume of raw objective vectors after
// normalisation, with reference point the nadir: a number in [0, 1].
func (n Normalizer) Hypervolume(points [][]float64) float64 {
	norm := make([][]float64, len(points))
	for i, p := range points {
		norm[i] = n.Normalize(p)
	}
	return search.Hypervolume(norm, n.Nadir())
}

// Nadir is the reference point in the box, (1, …, 1).
func (n Normalizer) Nadir() []float64 {
	ref := make([]float64, len(n.Objectives))
	for k := range ref {
		ref[k] = 1
	}
	return ref
}

// Progress is the best-so-far archive's hypervolume in a fixed box: the
// non-dominated normalised points of every front it was given. Since the
// box is fixed and points are only added, the value never decreases: the
// progress display shows it rather than the current populations' front,
// whose hypervolume can fall when crowding drops a member.
type Progress struct {
	norm Normalizer
	pts  [][]float64
	hv   float64
}

// NewProgress starts an empty archive in norm's box.
func NewProgress(norm Normalizer) *Progress { return &Progress{norm: norm} }

// Add adds the feasible members of ms (Violation 0) to the archive and
// returns its hypervolume.
func (p *Progress) Add(ms []search.Member) float64 {
	changed := false
	for _, m := range ms {
		if m.Violation != 0 {
			continue
		}
		q := p.norm.Normalize(m.F)
		if !below(q, p.norm.Nadir()) || p.dominated(q) {
			continue
		}
		kept := p.pts[:0]
		for _, r := range p.pts {
			if !weaklyDominates(q, r) {
				kept = append(kept, r)
			}
		}
		p.pts = append(kept, q)
		changed = true
	}
	if changed {
		p.hv = math.Max(p.hv, search.Hypervolume(p.pts, p.norm.Nadir()))
	}
	return p.hv
}

// dominated reports whether a point of the archive weakly dominates q.
func (p *Progress) dominated(q []float64) bool {
	for _, r := range p.pts {
		if weaklyDominates(r, q) {
			return true
		}
	}
	return false
}

// weaklyDominates reports whether a is at least as good as b everywhere.
func weaklyDominates(a, b []float64) bool {
	for k := range a {
		if a[k] > b[k] {
			return false
		}
	}
	return true
}

// below reports whether p is strictly better than ref in every objective.
func below(p, ref []float64) bool {
	for k := range ref {
		if !(p[k] < ref[k]) {
			return false
		}
	}
	return true
}
