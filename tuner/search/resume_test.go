package search_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/ecotune/ecotune/tuner/search"
	"github.com/ecotune/ecotune/tuner/search/testproblems"
)

// resumeSettings exercise islands, ring migration, an island with fixed
// variables, the cache and the budget check together.
func resumeSettings() flat {
	return flat{Population: 24, Generations: 30, Islands: 3, MigrationEvery: 4, Migrants: 3, Seed: 7,
		Fixed: []map[int]float64{{0: 0.3, 2: 0.7}}}
}

func resultJSON(t *testing.T, r *search.Result) []byte {
	t.Helper()
	r.Interrupted = false
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSameFrontWhateverWorkers runs the same seed with GOMAXPROCS and
// workers 1 and 2 and expects identical bytes.
func TestSameFrontWhateverWorkers(t *testing.T) {
	var outs [][]byte
	for _, n := range []int{1, 2} {
		prev := runtime.GOMAXPROCS(n)
		s := resumeSettings()
		s.Workers = n
		res, err := minimize(context.Background(), testproblems.DTLZ2(), s)
		runtime.GOMAXPROCS(prev)
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, resultJSON(t, res))
	}
	if !bytes.Equal(outs[0], outs[1]) {
		t.Error("GOMAXPROCS=1 and GOMAXPROCS=2 give different results")
	}
}

// TestResumeAfterCancel cancels a run after generation 13, resumes it from
// its checkpoint and expects the uninterrupted run's result byte for byte,
// evaluation count included.
func TestResumeAfterCancel(t *testing.T) {
	p := testproblems.ZDT1()
	whole, err := minimize(context.Background(), p, resumeSettings())
	if err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ckw := &search.CheckpointWriter{Dir: dir}
	s := resumeSettings()
	s.Recorders = []search.Recorder{ckw, search.RecorderFunc(func(st *search.Status) error {
		if st.Generation == 13 {
			cancel()
		}
		return nil
	})}
	cut, err := minimize(ctx, p, s)
	if err != nil {
		t.Fatal(err)
	}
	ckw.Close()
	if !cut.Interrupted || cut.Generations != 13 {
		t.Fatalf("cancelled run: interrupted %v after %d generations, want true after 13", cut.Interrupted, cut.Generations)
	}

	// A crash between appending to the cache and replacing checkpoint.json
	// leaves extra records; they must be ignored.
	f, err := os.OpenFile(filepath.Join(dir, search.CheckpointCache), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(bytes.Repeat([]byte{0xff}, 100))
	f.Close()

	ck, err := search.ReadCheckpoint(dir)
	if err != nil {
		t.Fatal(err)
	}
	if ck.Generation != 13 {
		t.Fatalf("checkpoint at generation %d, want 13", ck.Generation)
	}
	s = resumeSettings()
	s.Resume = ck
	ckw = &search.CheckpointWriter{Dir: dir}
	s.Recorders = []search.Recorder{ckw}
	resumed, err := minimize(context.Background(), p, s)
	ckw.Close()
	if err != nil {
		t.Fatal(err)
	}
	if a, b := resultJSON(t, whole), resultJSON(t, resumed); !bytes.Equal(a, b) {
		t.Errorf("resumed run differs from the uninterrupted one (evaluations %d vs %d)", resumed.Evaluations, whole.Evaluations)
	}

	// The final checkpoint resumes to the same result without evolving.
	ck, err = search.ReadCheckpoint(dir)
	if err != nil {
		t.Fatal(err)
	}
	s = resumeSettings()
	s.Resume = ck
	again, err := minimize(context.Background(), p, s)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := resultJSON(t, whole), resultJSON(t, again); !bytes.Equal(a, b) {
		t.Error("resuming a finished run changes its result")
	}
}

func TestResumeRejectsOtherSettings(t *testing.T) {
	dir := t.TempDir()
	ckw := &search.CheckpointWriter{Dir: dir}
	s := resumeSettings()
	s.Generations = 2
	s.Recorders = []search.Recorder{ckw}
	if _, err := minimize(context.Background(), testproblems.ZDT1(), s); err != nil {
		t.Fatal(err)
	}
	ckw.Close()
	ck, err := search.ReadCheckpoint(dir)
	if err != nil {
		t.Fatal(err)
	}
	s = resumeSettings()
	s.Seed++
	s.Resume = ck
	if _, err := minimize(context.Background(), testproblems.ZDT1(), s); err == nil {
		t.Error("resuming with another seed: no error")
	}
}
