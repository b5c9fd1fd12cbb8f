package search

import (
	"context"
	"math"
	"reflect"
	"slices"
	"sync/atomic"
	"testing"
)

// gatedProblem has a gene that matters only while another is on, as
// hgfs's drain_gap matters only while drain is on: variables on (0/1),
// gap (0…7), level (0…7) and w in [0, 1]; f1 = level + w, f2 = 8 − level
// + (gap if on) − w. Few values, so the search meets the same candidates
// and the same canonical forms often.
type gatedProblem struct {
	calls *atomic.Int64
}

func (p gatedProblem) Vars() []Var {
	return []Var{
		{Name: "on", Levels: 2},
		{Name: "gap", Min: 0, Max: 7, Integer: true},
		{Name: "level", Min: 0, Max: 7, Integer: true},
		{Name: "w", Min: 0, Max: 1},
	}
}

func (p gatedProblem) Objectives() []Objective {
	return []Objective{{Name: "f1"}, {Name: "f2"}}
}

func (p gatedProblem) NewEvaluator() (Evaluator, error) {
	return EvaluatorFunc(func(x, f []float64) (float64, error) {
		p.calls.Add(1)
		f[0] = x[2] + math.Round(x[3]*4)/4
		f[1] = 8 - x[2] - math.Round(x[3]*4)/4
		if x[0] == 1 {
			f[1] += x[1]
		}
		return 0, nil
	}), nil
}

// memoGated is gatedProblem with its canonical form: gap 0 while off.
type memoGated struct{ gatedProblem }

func (p memoGated) Canonical(x []float64) []float64 {
	if x[0] == 1 || x[1] == 0 {
		return x
	}
	c := slices.Clone(x)
	c[1] = 0
	return c
}

// The memo changes nothing a search returns (members, archive, the
// evaluations counted against the budget, checkpoints' fresh candidates),
// whatever the workers, and saves replays: the evaluator runs once per
// canonical form, as often as the pool says it replayed.
func TestMemoChangesNothingButReplays(t *testing.T) {
	type run struct {
		res   *Result
		fresh [][]Member
		calls int64
	}
	run1 := func(p Problem, calls *atomic.Int64, workers int) run {
		var fresh [][]Member
		s := config{Population: 16, Generations: 15, Islands: 2, Seed: 3, Workers: workers,
			Recorders: []Recorder{RecorderFunc(func(st *Status) error {
				fresh = append(fresh, st.Fresh)
				return nil
			})}}
		res, err := minimize(context.Background(), p, s)
		if err != nil {
			t.Fatal(err)
		}
		return run{res, fresh, calls.Load()}
	}
	var plainCalls atomic.Int64
	plain := run1(gatedProblem{&plainCalls}, &plainCalls, 2)
	for _, workers := range []int{1, 2, 5} {
		var calls atomic.Int64
		memo := run1(memoGated{gatedProblem{&calls}}, &calls, workers)
		if !reflect.DeepEqual(memo.res, plain.res) {
			t.Errorf("workers %d: the memo changed the result", workers)
		}
		if !reflect.DeepEqual(memo.fresh, plain.fresh) {
			t.Errorf("workers %d: the memo changed the fresh candidates recorded", workers)
		}
		if plain.calls != int64(plain.res.Evaluations) {
			t.Errorf("without memo: %d evaluator calls for %d evaluations", plain.calls, plain.res.Evaluations)
		}
		t.Logf("workers %d: %d evaluations, %d replays with the memo", workers, plain.res.Evaluations, memo.calls)
		if memo.calls >= plain.calls {
			t.Errorf("workers %d: %d evaluator calls with the memo, %d without: nothing saved", workers, memo.calls, plain.calls)
		}
	}
}

// The pool's counts: a memo hit is an evaluation (and a fresh candidate)
// but not a replay; a repeated candidate is neither.
func TestPoolMemoCounts(t *testing.T) {
	var calls atomic.Int64
	pl, err := newPool(memoGated{gatedProblem{&calls}}, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer pl.close()
	xs := [][]float64{
		{0, 3, 1, 0.5}, // canonical {0, 0, 1, 0.5}
		{0, 5, 1, 0.5}, // the same canonical form: a hit
		{0, 0, 1, 0.5}, // the canonical form itself: a hit
		{1, 3, 1, 0.5}, // on: its own
		{1, 5, 1, 0.5}, // on: its own
		{0, 3, 1, 0.5}, // a repeat: the cache
	}
	ms, err := pl.evaluate(context.Background(), xs)
	if err != nil {
		t.Fatal(err)
	}
	if got := calls.Load(); got != 3 {
		t.Errorf("%d evaluator calls, want 3", got)
	}
	if pl.evaluations() != 5 || pl.replays() != 3 {
		t.Errorf("%d evaluations, %d replays; want 5 and 3", pl.evaluations(), pl.replays())
	}
	if fresh := pl.takeFresh(); len(fresh) != 5 {
		t.Errorf("%d fresh candidates, want 5", len(fresh))
	}
	for i, m := range ms {
		f := make([]float64, 2)
		ev, _ := gatedProblem{&calls}.NewEvaluator()
		if _, err := ev.Evaluate(xs[i], f); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(m.f, f) {
			t.Errorf("candidate %v: %v, its own evaluation %v", xs[i], m.f, f)
		}
	}
}

// A memo hit whose canonical twin was interrupted is forgotten with it,
// not left in the cache with no result.
func TestPoolMemoInterrupted(t *testing.T) {
	var calls atomic.Int64
	pl, err := newPool(memoGated{gatedProblem{&calls}}, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer pl.close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = pl.evaluate(ctx, [][]float64{{0, 3, 1, 0.5}, {0, 5, 1, 0.5}})
	if err == nil {
		t.Fatal("no error from a cancelled evaluation")
	}
	if n := pl.evaluations(); n != 0 {
		t.Errorf("%d evaluations kept after the interruption, want 0", n)
	}
	if _, err := pl.evaluate(context.Background(), [][]float64{{0, 5, 1, 0.5}}); err != nil {
		t.Errorf("evaluating again after the interruption: %v", err)
	}
}
