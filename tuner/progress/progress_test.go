package progress

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/ecotune/ecotune/tuner/search"
)

// TestLine works the description out by hand: 30 evaluations in 10 s is
// 3/s; 2 generations in 10 s leave 8 more, 40 s, unless the budget ends
// sooner.
func TestLine(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	first := search.Status{Generation: 0, Generations: 10, Evaluations: 10, Hypervolume: math.NaN()}
	for _, tc := range []struct {
		name string
		s    search.Status
		want string
	}{
		{"no budget", search.Status{Generation: 2, Generations: 10, Evaluations: 40, Hypervolume: math.NaN()},
			"generation 2/10, 40 evaluations, 3/s, 40s left"},
		{"budget sooner", search.Status{Generation: 2, Generations: 10, Evaluations: 40, Budget: 46, Hypervolume: math.NaN()},
			"generation 2/10, 40 evaluations, 3/s, 2s left"},
		{"hypervolume", search.Status{Generation: 2, Generations: 10, Evaluations: 40, Hypervolume: 0.25, Front: make([]search.Member, 1)},
			"generation 2/10, 40 evaluations, 3/s, HV 0.2500, 40s left"},
	} {
		p := &Bar{seen: true, first: first, start: t0}
		if got := p.line(&tc.s, t0.Add(10*time.Second)); got != tc.want {
			t.Errorf("%s: line = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestPlainLines: off a terminal, the first status and the last are
// printed and those between them, within a few seconds, are not.
func TestPlainLines(t *testing.T) {
	var out bytes.Buffer
	p := New(&out, false)
	for g := 0; g <= 3; g++ {
		if err := p.Record(&search.Status{Generation: g, Generations: 3, Evaluations: 10 * g, Hypervolume: math.NaN()}); err != nil {
			t.Fatal(err)
		}
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "generation 0/3") || !strings.HasPrefix(lines[1], "generation 3/3") {
		t.Fatalf("plain progress printed %q, want the first and the last generation", lines)
	}
	p.Done()
	p.Note("next\n")
	if !strings.HasSuffix(out.String(), "next\n") {
		t.Error("Note did not print its line")
	}
}
