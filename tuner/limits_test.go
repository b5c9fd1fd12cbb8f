package tuner_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ecotune/ecotune/tuner"
	"github.com/ecotune/ecotune/tuner/testproblems"
)

// TestSettingsLimits: searches beyond tuner.MaxCandidates or tuner.MaxWorkers are
// refused by CheckLimits and by Minimize, in under a second, naming the
// setting; at the limits they pass CheckLimits.
func TestSettingsLimits(t *testing.T) {
	for _, c := range []struct {
		s    tuner.Settings
		want string // "" = within the limits
	}{
		{tuner.Settings{Population: 100_000_000}, "population 100000000"},
		{tuner.Settings{Islands: 100_000}, "islands 100000"},
		{tuner.Settings{Population: 300, Islands: 300}, "population 300 × islands 300"},
		{tuner.Settings{Population: 1 << 62, Islands: 1 << 62}, "population 4611686018427387904"},
		{tuner.Settings{Workers: 1 << 20}, "workers 1048576"},
		{tuner.Settings{Population: tuner.MaxCandidates}, ""},
		{tuner.Settings{Population: 4, Islands: tuner.MaxCandidates / 4, Workers: tuner.MaxWorkers}, ""},
		{tuner.Settings{}, ""},
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
		_, err = tuner.Minimize(context.Background(), testproblems.ZDT1(), c.s)
		if err == nil || !strings.Contains(err.Error(), c.want) || time.Since(start) > time.Second {
			t.Errorf("Minimize %+v: %v after %v", c.s, err, time.Since(start))
		}
	}
}
