package scoring

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/datasets"
)

// TestWindowBounds works the cuts by hand, the edge cases included.
func TestWindowBounds(t *testing.T) {
	for _, c := range []struct {
		n, k int
		want []int
	}{
		{10, 1, []int{0, 10}},             // one window: everything
		{10, 2, []int{0, 5, 10}},          // even
		{10, 3, []int{0, 3, 6, 10}},       // ⌊10/3⌋, ⌊20/3⌋: the last takes the rest
		{43, 4, []int{0, 10, 21, 32, 43}}, // ⌊43/4⌋, ⌊86/4⌋, ⌊129/4⌋
		{2, 4, []int{0, 0, 1, 1, 2}},      // more windows than jobs: some empty
		{0, 3, []int{0, 0, 0, 0}},         // no jobs
		{7, 0, []int{0}},                  // no window
		{1000, 5, []int{0, 200, 400, 600, 800, 1000}},
	} {
		got := WindowBounds(c.n, c.k)
		if !slices.Equal(got, c.want) {
			t.Errorf("WindowBounds(%d, %d) = %v, want %v", c.n, c.k, got, c.want)
		}
	}
}

// TestCutWindows: the windows partition the jobs in order, equal counts
// to one job, each noted, the input untouched.
func TestCutWindows(t *testing.T) {
	tr := &datasets.Trace{}
	for i := range 43 {
		tr.Jobs = append(tr.Jobs, datasets.Job{ID: int64(i + 1), Submit: int64(10 * i), Run: 5, Procs: 1})
	}
	for _, k := range []int{1, 4, 43, 50} {
		wins := CutWindows(tr, k, func(w, i, j int) string { return fmt.Sprintf("w%d %d:%d", w, i, j) })
		if len(wins) != k {
			t.Fatalf("k %d: %d windows", k, len(wins))
		}
		next := int64(1)
		for w, win := range wins {
			if n := len(win.Jobs); n < 43/k || n > 43/k+1 {
				t.Errorf("k %d window %d: %d jobs", k, w, n)
			}
			if note := win.Meta.Notes[len(win.Meta.Notes)-1]; !strings.HasPrefix(note, fmt.Sprintf("w%d ", w)) {
				t.Errorf("k %d window %d: note %q", k, w, note)
			}
			for _, j := range win.Jobs {
				if j.ID != next {
					t.Fatalf("k %d window %d: job %d, want %d", k, w, j.ID, next)
				}
				next++
			}
		}
		if next != 44 {
			t.Errorf("k %d: the windows hold %d jobs, want 43", k, next-1)
		}
	}
	if len(tr.Meta.Notes) != 0 {
		t.Errorf("the trace's notes changed: %v", tr.Meta.Notes)
	}
}
