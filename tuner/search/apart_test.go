package search_test

import (
	"context"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/ecotune/ecotune/tuner/search"
	"github.com/ecotune/ecotune/tuner/search/testproblems"
)

// memExchange is an Exchange in memory for islands run as goroutines;
// the islands in missing never publish and are skipped at once.
type memExchange struct {
	mu      sync.Mutex
	cond    *sync.Cond
	pops    map[[2]int][]search.Member
	missing map[int]bool
	calls   int
}

func newMemExchange(missing ...int) *memExchange {
	x := &memExchange{pops: map[[2]int][]search.Member{}, missing: map[int]bool{}}
	x.cond = sync.NewCond(&x.mu)
	for _, i := range missing {
		x.missing[i] = true
	}
	return x
}

func (x *memExchange) Migrate(_ context.Context, gen, island int, pop []search.Member, want []int) (map[int][]search.Member, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.calls++
	x.pops[[2]int{gen, island}] = pop
	x.cond.Broadcast()
	got := map[int][]search.Member{}
	for _, j := range want {
		if x.missing[j] {
			continue
		}
		for x.pops[[2]int{gen, j}] == nil {
			x.cond.Wait()
		}
		got[j] = x.pops[[2]int{gen, j}]
	}
	return got, nil
}

// runApart runs every island not in missing as a goroutine and returns
// their last checkpoints with every evaluation (nil for the missing).
func runApart(t *testing.T, p search.Problem, s flat, x *memExchange) []*search.Checkpoint {
	t.Helper()
	cks := make([]*search.Checkpoint, s.Islands)
	errs := make([]error, s.Islands)
	var wg sync.WaitGroup
	for i := range s.Islands {
		if x.missing[i] {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			si := s
			var cache []search.Member
			si.Recorders = []search.Recorder{search.RecorderFunc(func(st *search.Status) error {
				cache = append(cache, st.Fresh...)
				ck := *st.Checkpoint
				ck.Cache = cache
				cks[i] = &ck
				return nil
			})}
			_, errs[i] = minimizeIsland(context.Background(), p, si, i, x)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("island %d: %v", i, err)
		}
	}
	return cks
}

// Islands run apart through an Exchange give the one search's archive,
// evaluation count and generations exactly (a reference implementation:
// Minimize with eaopt's islands and migration), with and without an
// island of fixed variables, whatever the migration interval.
func TestMinimizeIslandEqualsMinimize(t *testing.T) {
	cases := []struct {
		name string
		s    flat
	}{
		{"4 islands", flat{Population: 12, Generations: 9, Islands: 4, MigrationEvery: 2, Migrants: 3, Seed: 7, Workers: 2}},
		{"3 islands, migrate every generation", flat{Population: 8, Generations: 5, Islands: 3, MigrationEvery: 1, Migrants: 8, Seed: 2, Workers: 1}},
		{"fixed island", flat{Population: 10, Generations: 8, Islands: 2, MigrationEvery: 3, Migrants: 4, Seed: 5, Workers: 2,
			Fixed: []map[int]float64{{0: 0.3, 1: 0}}}},
		{"one island", flat{Population: 8, Generations: 4, Islands: 1, Seed: 1, Workers: 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := testproblems.ZDT1()
			want, err := minimize(context.Background(), p, c.s)
			if err != nil {
				t.Fatal(err)
			}
			x := newMemExchange()
			cks := runApart(t, p, c.s, x)
			got, err := search.MergeResults(p, cks)
			if err != nil {
				t.Fatal(err)
			}
			if got.Evaluations != want.Evaluations || got.Generations != want.Generations {
				t.Errorf("apart: %d evaluations, %d generations; one search: %d, %d", got.Evaluations, got.Generations, want.Evaluations, want.Generations)
			}
			if !reflect.DeepEqual(got.Archive, want.Archive) {
				t.Errorf("apart: archive of %d members differs from the one search's %d", len(got.Archive), len(want.Archive))
			}
			if c.s.Islands > 1 && x.calls != c.s.Islands*(c.s.Generations/c.s.MigrationEvery) {
				t.Errorf("%d migrations, want %d islands × %d epochs", x.calls, c.s.Islands, c.s.Generations/c.s.MigrationEvery)
			}
		})
	}
}

// A missing island is skipped: the others finish, and the merge of what
// they did differs from the whole search's (the missing island's
// evaluations are absent) but is a result.
func TestMinimizeIslandMissing(t *testing.T) {
	p := testproblems.ZDT1()
	s := flat{Population: 8, Generations: 6, Islands: 4, MigrationEvery: 2, Migrants: 2, Seed: 3, Workers: 1}
	cks := runApart(t, p, s, newMemExchange(2))
	if cks[2] != nil {
		t.Fatal("the missing island ran")
	}
	for i, ck := range cks {
		if i != 2 && ck.Generation != 6 {
			t.Errorf("island %d stopped at generation %d", i, ck.Generation)
		}
	}
	got, err := search.MergeResults(p, cks)
	if err != nil {
		t.Fatal(err)
	}
	want, err := minimize(context.Background(), p, s)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Archive) == 0 || got.Evaluations >= want.Evaluations {
		t.Errorf("three islands: %d archive members, %d evaluations (four: %d)", len(got.Archive), got.Evaluations, want.Evaluations)
	}
}

// Settings an island cannot keep apart are refused, naming why.
func TestMinimizeIslandRefuses(t *testing.T) {
	p := testproblems.ZDT1()
	for _, c := range []struct {
		s      flat
		island int
		want   string
	}{
		{flat{Population: 8, Islands: 2, Evaluations: 100}, 0, "evaluation budget"},
		{flat{Population: 8, Islands: 2}, 2, "islands 0..1"},
		{flat{Population: 8, Islands: 2}, -1, "islands 0..1"},
	} {
		_, err := minimizeIsland(context.Background(), p, c.s, c.island, newMemExchange())
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("island %d of %+v: error %v, want one naming %q", c.island, c.s, err, c.want)
		}
	}
}
