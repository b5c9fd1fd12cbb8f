package reports

import (
	"fmt"
	"github.com/ecotune/ecotune/datasets"
	"slices"
	"strings"
	"time"

	"github.com/ecotune/ecotune/policy"
)

// CompareEntries chooses the rows of `ecotune compare`. Without a run:
// every registered policy (or those named) at its defaults. With a run:
// the run's references (in key order) then each preset's solution,
// labelled "policy preset"; names, when given, keep only those policies.
func CompareEntries(names []string, run *Run) ([]Entry, error) {
	for _, n := range names {
		if _, err := policy.Lookup(n); err != nil {
			return nil, fmt.Errorf("reports: compare: %w", err)
		}
	}
	keep := func(name string) bool { return len(names) == 0 || slices.Contains(names, name) }
	var out []Entry
	if run == nil {
		for _, e := range DefaultEntries() {
			if keep(e.Config.Name) {
				out = append(out, e)
			}
		}
		return out, nil
	}
	for _, k := range sortedKeys(run.Meta.References) {
		if c := run.Meta.References[k].Config; keep(c.Name) {
			out = append(out, Entry{Label: k, Config: c})
		}
	}
	for _, p := range run.Meta.Presets {
		if c := run.Front.Solutions[p.Row].Config; keep(c.Name) {
			out = append(out, Entry{Label: c.Name + " " + p.Name, Config: c})
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("reports: compare: none of %s is in run %s", strings.Join(names, ", "), run.Dir)
	}
	return out, nil
}

// ParseTime reads a --from/--to time with datasets.ParseTime (the
// module's one time parser) in UTC; "" is 0 (unset).
func ParseTime(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	t, err := datasets.ParseTime(s, time.UTC)
	if err != nil {
		return 0, fmt.Errorf("reports: %w", err)
	}
	return t, nil
}
