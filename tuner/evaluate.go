package tuner

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
// not evaluated again. Results do not depend on the number of workers.
type pool struct {
	sense []bool // sense[k]: objective k is maximised
	ws    *workers
	own   bool // ws is the pool's own, closed with it
	evs   []Evaluator

	mu    sync.Mutex
	cache map[string]*entry
	fresh []*entry // evaluated since the last takeFresh
}

// entry is one cached evaluation.
type entry struct {
	x    []float64
	f    []float64 // minimisation-oriented
	cv   float64
	err  error
	done chan struct{}
}

// errInterrupted is the error of an evaluation the context's
// cancellation left undone.
var errInterrupted = errors.New("tuner: interrupted")

// newPool makes a pool of workers evaluators on shared, or on workers of
// its own when shared is nil or of another size.
func newPool(p Problem, workers int, shared *workers) (*pool, error) {
	objs := p.Objectives()
	pl := &pool{
		sense: make([]bool, len(objs)),
		cache: make(map[string]*entry),
		evs:   make([]Evaluator, workers),
	}
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
		pl.ws, pl.own = newWorkers(workers), true
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
		pl.ws.close()
	}
}

// evaluate returns the members for candidates xs, evaluating the ones not
// seen before in parallel. Once ctx is cancelled no more evaluations
// begin: the begun ones finish and stay in the cache, the others are
// forgotten, and evaluate returns an error wrapping errInterrupted.
func (pl *pool) evaluate(ctx context.Context, xs [][]float64) ([]*member, error) {
	ms := make([]*member, len(xs))
	entries := make([]*entry, len(xs))
	var todo []*entry
	pl.mu.Lock()
	for i, x := range xs {
		key := genomeKey(x)
		e, ok := pl.cache[key]
		if !ok {
			e = &entry{x: x, done: make(chan struct{})}
			pl.cache[key] = e
			pl.fresh = append(pl.fresh, e)
			todo = append(todo, e)
		}
		entries[i] = e
		ms[i] = &member{x: x, key: key}
	}
	pl.mu.Unlock()
	begun, _ := pl.ws.run(ctx, len(todo), func(w, i int) { pl.work(w, todo[i]) })
	if begun < len(todo) {
		pl.forget(todo[begun:])
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

// forget drops entries never evaluated (interrupted) from the cache and
// the fresh list, failing whoever waits for them with errInterrupted.
func (pl *pool) forget(es []*entry) {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	gone := make(map[*entry]bool, len(es))
	for _, e := range es {
		gone[e] = true
		delete(pl.cache, genomeKey(e.x))
		e.err = errInterrupted
		close(e.done)
	}
	pl.fresh = slices.DeleteFunc(pl.fresh, func(e *entry) bool { return gone[e] })
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
	for _, m := range cache {
		e := &entry{x: m.X, f: orient(slices.Clone(m.F), pl.sense), cv: m.Violation, done: make(chan struct{})}
		close(e.done)
		pl.cache[genomeKey(m.X)] = e
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
