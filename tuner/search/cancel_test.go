package search_test

import (
	"bytes"
	"context"
	"sync/atomic"
	"testing"

	"github.com/ecotune/ecotune/tuner/search"
	"github.com/ecotune/ecotune/tuner/search/testproblems"
)

// cancelling is a problem whose evaluations cancel a context at the
// at-th evaluation.
type cancelling struct {
	search.Problem
	n      *atomic.Int64
	at     int64
	cancel context.CancelFunc
}

func (p cancelling) NewEvaluator() (search.Evaluator, error) {
	ev, err := p.Problem.NewEvaluator()
	if err != nil {
		return nil, err
	}
	return search.EvaluatorFunc(func(x, f []float64) (float64, error) {
		if p.n.Add(1) == p.at {
			p.cancel()
		}
		return ev.Evaluate(x, f)
	}), nil
}

// TestCancelInsideGeneration cancels a search inside the initial
// population and inside a later generation: the checkpoint keeps every
// evaluation finished (more than the last whole generation had), and
// resuming gives an uninterrupted run's result.
func TestCancelInsideGeneration(t *testing.T) {
	s := resumeSettings()
	s.Generations = 6
	whole, err := minimize(context.Background(), testproblems.ZDT1(), s)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		at      int64
		wantGen int
		islands bool
	}{
		{"initial population", 30, 0, false}, // 3 islands of 24: 72 initial candidates
		{"generation 3", 72 + 2*72 + 40, 2, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			ckw := &search.CheckpointWriter{Dir: dir}
			s := resumeSettings()
			s.Generations = 6
			s.Workers = 2
			var lastEntries int
			s.Recorders = []search.Recorder{ckw}
			p := cancelling{Problem: testproblems.ZDT1(), n: new(atomic.Int64), at: tc.at, cancel: cancel}
			res, err := minimize(ctx, p, s)
			ckw.Close()
			if err != nil {
				t.Fatal(err)
			}
			if !res.Interrupted || res.Generations != tc.wantGen {
				t.Fatalf("interrupted %v after generation %d, want generation %d", res.Interrupted, res.Generations, tc.wantGen)
			}
			ck, err := search.ReadCheckpoint(dir)
			if err != nil {
				t.Fatal(err)
			}
			lastEntries = ck.CacheEntries
			if ck.Generation != tc.wantGen || (len(ck.Islands) > 0) != tc.islands || int64(lastEntries) < tc.at-1 {
				t.Fatalf("checkpoint: generation %d, %d islands, %d evaluations; want generation %d, islands %v, at least %d evaluations",
					ck.Generation, len(ck.Islands), lastEntries, tc.wantGen, tc.islands, tc.at-1)
			}
			s.Recorders = nil
			s.Resume = ck
			again, err := minimize(context.Background(), testproblems.ZDT1(), s)
			if err != nil {
				t.Fatal(err)
			}
			if a, b := resultJSON(t, whole), resultJSON(t, again); !bytes.Equal(a, b) {
				t.Error("resumed result differs from the uninterrupted run's")
			}
		})
	}
}
