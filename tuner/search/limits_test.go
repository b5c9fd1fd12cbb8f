package search_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ecotune/ecotune/tuner/search"
	"github.com/ecotune/ecotune/tuner/search/testproblems"
)

// TestSettingsLimits: searches beyond search.MaxCandidates or search.MaxWorkers are
// refused by CheckLimits and by Minimize, in under a second, naming the
// setting; at the limits they pass CheckLimits.
func TestSettingsLimits(t *testing.T) {
	for _, c := range []struct {
		s    flat
		want string // "" = within the limits
	}{
		{flat{Population: 100_000_000}, "population 100000000"},
		{flat{Islands: 100_000}, "islands 100000"},
		{flat{Population: 300, Islands: 300}, "population 300 × islands 300"},
		{flat{Population: 1 << 62, Islands: 1 << 62}, "population 4611686018427387904"},
		{flat{Workers: 1 << 20}, "workers 1048576"},
		{flat{Population: search.MaxCandidates, Islands: 1}, ""},
		{flat{Population: 4, Islands: search.MaxCandidates / 4, Workers: search.MaxWorkers}, ""},
		{flat{}, ""},
	} {
		err := c.s.CheckLimits()
		if c.want == "" {
			if err != nil {
				t.Errorf("%+v: %v", c.s, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error naming %q", c.s, err, c.want)
		}
		start := time.Now()
		_, err = minimize(context.Background(), testproblems.ZDT1(), c.s)
		if err == nil || !strings.Contains(err.Error(), c.want) || time.Since(start) > time.Second {
			t.Errorf("Minimize %+v: %v after %v", c.s, err, time.Since(start))
		}
	}
}
