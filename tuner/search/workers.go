package search

import (
	"context"
	"sync"
)

// Workers is the tuner's one worker pool: n goroutines, each with an index
// its tasks use to reach per-worker state (a simulator, an evaluator).
// The Scorer and the search's candidate pool both run on it.
type Workers struct {
	n     int
	tasks chan task
	wg    sync.WaitGroup
	once  sync.Once
}

// task is fn(w, i) on worker w, then done.Done(): sent by value, so that
// handing out a task allocates nothing.
type task struct {
	fn   func(w, i int)
	i    int
	done *sync.WaitGroup
}

// NewWorkers starts n workers.
func NewWorkers(n int) *Workers {
	ws := &Workers{n: n, tasks: make(chan task)}
	for w := range n {
		ws.wg.Add(1)
		go func() {
			defer ws.wg.Done()
			for t := range ws.tasks {
				t.fn(w, t.i)
				t.done.Done()
			}
		}()
	}
	return ws
}

// Run calls fn(w, i) for i = 0 … n−1 on the workers and waits for them.
// Once ctx is cancelled it hands out no more tasks: the tasks begun
// finish, and run returns ctx's error with the number of tasks begun (a
// prefix of 0 … n−1).
func (ws *Workers) Run(ctx context.Context, n int, fn func(w, i int)) (int, error) {
	var wg sync.WaitGroup
	begun := 0
	var err error
	for i := range n {
		if err = ctx.Err(); err != nil {
			break
		}
		wg.Add(1)
		select {
		case ws.tasks <- task{fn: fn, i: i, done: &wg}:
			begun++
		case <-ctx.Done():
			wg.Done()
			err = ctx.Err()
		}
		if err != nil {
			break
		}
	}
	wg.Wait()
	return begun, err
}

// N is the number of workers.
func (ws *Workers) N() int { return ws.n }

// Close stops the workers.
func (ws *Workers) Close() {
	ws.once.Do(func() {
		close(ws.tasks)
		ws.wg.Wait()
	})
}
