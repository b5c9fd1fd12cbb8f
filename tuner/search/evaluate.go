package search

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
)

// pool evaluates candidates on the tuner's worker pool (workers), each
// worker with its own Evaluator, and remembers every result: a candidate
// whose key was seen before (or is being evaluated by another island) is
// not evaluated again. Nor is one whose canonical form (a Canonicalizer
// problem's: the policy it decodes to, with the genes that cannot change
// a decision at fixed values) is that of a candidate seen before: it
// takes that candidate's result, which is its own since evaluation is
// deterministic. Such a memo hit is still a candidate of its own (a cache
// entry, an evaluation in Settings.Evaluations' count, a checkpoint
// record): only its replay is saved, so the search, its checkpoints and
// its front are what they would be without the memo. Results do not
// depend on the number of workers.
type pool struct {
	sense []bool // sense[k]: objective k is maximised
	ws    *Workers
	own   bool // ws is the pool's own, closed with it
	evs   []Evaluator
	canon Canonicalizer // nil: every candidate is its own canonical form

	mu    sync.Mutex
	cache map[string]*entry // by genome key
	memo  map[string]*entry // by canonical key: the entry evaluated
	fresh []*entry          // evaluated since the last takeFresh
	hits  int               // entries that took another's result
}

// Canonicalizer is a Problem whose distinct candidates may evaluate
// alike by construction (PolicyProblem: genes the policy never reads).
type Canonicalizer interface {
	// Canonical returns x's canonical form: the same for candidates that
	// evaluate alike, x itself (not a copy) when x is canonical.
	Canonical(x []float64) []float64
}

// entry is one cached evaluation.
type entry struct {
	x     []float64
	f     []float64 // minimisation-oriented
	cv    float64
	err   error
	done  chan struct{}
	canon string // genomeKey of x's canonical form
	// same, for a memo hit, is the entry evaluated for the same canonical
	// form; nil for an entry evaluated itself.
	same *entry
}

// errInterrupted is the error of an evaluation the context's
// cancellation left undone.
var errInterrupted = errors.New("tuner: interrupted")

// newPool makes a pool of workers evaluators on shared, or on workers of
// its own when shared is nil or of another size.
func newPool(p Problem, workers int, shared *Workers) (*pool, error) {
	objs := p.Objectives()
	pl := &pool{
		sense: make([]bool, len(objs)),
		cache: make(map[string]*entry),
		memo:  make(map[string]*entry),
		evs:   make([]Evaluator, workers),
	}
	pl.canon, _ = p.(Canonicalizer)
	for k, o := range objs {
		pl.sense[k] = o.Maximize
	}
	for i := range pl.evs {
		ev, err := p.NewEvaluator()
		if err != nil {
			return nil, fmt.Errorf("tuner: evaluator %d: %w", i, err)
		}
		pl.evs[i] = ev
	}
	if shared != nil && shared.n == workers {
		pl.ws = shared
	} else {
		pl.ws, pl.own = NewWorkers(workers), true
	}
	return pl, nil
}

// work evaluates e on worker w.
func (pl *pool) work(w int, e *entry) {
	e.f = make([]float64, len(pl.sense))
	e.cv, e.err = pl.evs[w].Evaluate(e.x, e.f)
	if e.err == nil {
		e.err = checkEvaluation(e.f, e.cv)
	}
	orient(e.f, pl.sense)
	close(e.done)
}

// close stops the workers, unless they are shared (Tune's Scorer's).
func (pl *pool) close() {
	if pl.own {
		pl.ws.Close()
	}
}

// evaluate returns the members for candidates xs, evaluating the ones not
// seen before in parallel. Once ctx is cancelled no more evaluations
// begin: the begun ones finish and stay in the cache, the others are
// forgotten, and evaluate returns an error wrapping errInterrupted.
func (pl *pool) evaluate(ctx context.Context, xs [][]float64) ([]*member, error) {
	ms := make([]*member, len(xs))
	entries := make([]*entry, len(xs))
	var todo, hits []*entry
	pl.mu.Lock()
	for i, x := range xs {
		key := genomeKey(x)
		e, ok := pl.cache[key]
		if !ok {
			e = &entry{x: x, done: make(chan struct{}), canon: pl.canonicalKey(x, key)}
			pl.cache[key] = e
			pl.fresh = append(pl.fresh, e)
			if same, ok := pl.memo[e.canon]; ok {
				e.same = same
				hits = append(hits, e)
			} else {
				pl.memo[e.canon] = e
				todo = append(todo, e)
			}
		}
		entries[i] = e
		ms[i] = &member{x: x, key: key}
	}
	pl.mu.Unlock()
	begun, _ := pl.ws.Run(ctx, len(todo), func(w, i int) { pl.work(w, todo[i]) })
	if begun < len(todo) {
		pl.forget(todo[begun:])
	}
	// Memo hits after this call's own evaluations: an entry evaluated by
	// another call (island) is done or forgotten before that call waits.
	for _, e := range hits {
		pl.copyResult(e)
	}
	for _, e := range entries {
		<-e.done
	}
	for i, e := range entries {
		if e.err != nil {
			if errors.Is(e.err, errInterrupted) {
				return nil, e.err
			}
			return nil, fmt.Errorf("tuner: evaluating %s: %w", formatX(e.x), e.err)
		}
		ms[i].f, ms[i].cv = e.f, e.cv
	}
	return ms, nil
}

// canonicalKey is the genome key of x's canonical form; key is x's own.
func (pl *pool) canonicalKey(x []float64, key string) string {
	if pl.canon == nil {
		return key
	}
	c := pl.canon.Canonical(x)
	if len(c) == len(x) && (len(c) == 0 || &c[0] == &x[0]) {
		return key
	}
	return genomeKey(c)
}

// copyResult gives memo hit e the result of the entry it shares a
// canonical form with, once that is done; if that was interrupted, e is
// forgotten too.
func (pl *pool) copyResult(e *entry) {
	<-e.same.done
	if errors.Is(e.same.err, errInterrupted) {
		pl.forget([]*entry{e})
		return
	}
	e.f, e.cv, e.err = slices.Clone(e.same.f), e.same.cv, e.same.err
	pl.mu.Lock()
	pl.hits++
	pl.mu.Unlock()
	close(e.done)
}

// forget drops entries never evaluated (interrupted) from the cache, the
// memo and the fresh list, failing whoever waits for them with
// errInterrupted.
func (pl *pool) forget(es []*entry) {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	gone := make(map[*entry]bool, len(es))
	for _, e := range es {
		gone[e] = true
		delete(pl.cache, genomeKey(e.x))
		if pl.memo[e.canon] == e {
			delete(pl.memo, e.canon)
		}
		e.err = errInterrupted
		close(e.done)
	}
	pl.fresh = slices.DeleteFunc(pl.fresh, func(e *entry) bool { return gone[e] })
}

// replays is how many candidates were evaluated (replayed) rather than
// taken from the memo: evaluations less memo hits.
func (pl *pool) replays() int {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	return len(pl.cache) - pl.hits
}

// evaluations is how many distinct candidates were evaluated.
func (pl *pool) evaluations() int {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	return len(pl.cache)
}

// takeFresh returns the candidates evaluated since the last call, ordered
// by key, and forgets them.
func (pl *pool) takeFresh() []Member {
	pl.mu.Lock()
	fresh := pl.fresh
	pl.fresh = nil
	pl.mu.Unlock()
	out := make([]Member, len(fresh))
	for i, e := range fresh {
		<-e.done
		out[i] = Member{X: e.x, F: orient(slices.Clone(e.f), pl.sense), Violation: e.cv}
	}
	slices.SortFunc(out, func(a, b Member) int { return strings.Compare(genomeKey(a.X), genomeKey(b.X)) })
	return out
}

// restore fills the cache from a checkpoint.
func (pl *pool) restore(cache []Member) {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if pl.memo == nil {
		pl.memo = map[string]*entry{} // a pool only restored into (MergeResults)
	}
	for _, m := range cache {
		key := genomeKey(m.X)
		e := &entry{x: m.X, f: orient(slices.Clone(m.F), pl.sense), cv: m.Violation, done: make(chan struct{}), canon: pl.canonicalKey(m.X, key)}
		close(e.done)
		pl.cache[key] = e
		if _, ok := pl.memo[e.canon]; !ok {
			pl.memo[e.canon] = e
		}
	}
}

func formatX(x []float64) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, v := range x {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%g", v)
	}
	b.WriteByte(']')
	return b.String()
}

// orient negates the maximised objectives of f in place (and back again)
// and returns f.
func orient(f []float64, maximise []bool) []float64 {
	for k, max := range maximise {
		if max {
			f[k] = -f[k]
		}
	}
	return f
}

// checkEvaluation rejects values no ranking can use.
func checkEvaluation(f []float64, cv float64) error {
	if !(cv >= 0) || math.IsInf(cv, 1) {
		return fmt.Errorf("constraint violation %g is not a finite number ≥ 0", cv)
	}
	for k, v := range f {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("objective %d is %g", k, v)
		}
	}
	return nil
}

// all returns every evaluated candidate as a member, in key order.
func (pl *pool) all() []*member {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	ms := make([]*member, 0, len(pl.cache))
	for key, e := range pl.cache {
		<-e.done
		ms = append(ms, &member{x: e.x, f: e.f, cv: e.cv, key: key})
	}
	sortByKey(ms)
	return ms
}
