package daemon

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ecotune/ecotune/internal/horizon"
)

// What Slurm reports beyond the bounds `ecotune decide` accepts (issue
// 36): a job asking more CPUs than the cluster, a time limit beyond 100
// years or negative, a submit time after now are clamped and logged, and
// the cycle decides; a clock beyond the horizon fails the cycle, deciding
// nothing. Without the clamp the first job made every cycle fail ("job
// asks 1000000000000 slots").
func TestCycleClampsSlurm(t *testing.T) {
	now := time.Unix(1100, 0)
	for _, c := range []struct {
		name  string
		job   Job
		clock time.Time
		warn  string // "" for none
		fail  string // "" for a cycle that decides
	}{
		{"sane", Job{ID: 1, CPUs: 2, Submit: 1050, TimeLimit: 3600}, now, "", ""},
		{"CPUs", Job{ID: 2, CPUs: 1e12, Submit: 1050, TimeLimit: 3600}, now, "job 2: 1000000000000 CPUs out of range: the cluster has 3 slots: taken as 3", ""},
		{"time limit", Job{ID: 3, CPUs: 1, Submit: 1050, TimeLimit: 1 << 62}, now, "job 3: time limit 4611686018427387904 s out of range", ""},
		{"negative time limit", Job{ID: 4, CPUs: 1, Submit: 1050, TimeLimit: -5}, now, "job 4: time limit -5 s is negative", ""},
		{"submit", Job{ID: 5, CPUs: 1, Submit: 1 << 62, TimeLimit: 60}, now, "job 5: submit 4611686018427387904 out of range [0, now 1100]: taken as 1100", ""},
		{"clock", Job{ID: 6, CPUs: 1, Submit: 1050, TimeLimit: 60}, time.Unix(horizon.Unix+1, 0), "", "out of range: beyond [0, the horizon 2200-01-01T00:00:00Z"},
		{"clock near 2^63", Job{ID: 7, CPUs: 1, Submit: 1050, TimeLimit: 60}, time.Unix(1<<63-10, 0), "", "out of range"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := &fakeSlurm{nodes: threeIdle(), jobs: []Job{c.job}}
			var logged []string
			log := &syncBuffer{}
			d, err := New(Config{Rules: fakeRules(t), Source: f, Actuator: f, Log: log, DryRun: true,
				Now: func() time.Time { return c.clock }, Logf: func(format string, args ...any) { logged = append(logged, fmt.Sprintf(format, args...)) }})
			if err != nil {
				t.Fatal(err)
			}
			err = d.Cycle(context.Background())
			switch {
			case c.fail == "" && err != nil:
				t.Fatalf("cycle: %v", err)
			case c.fail != "" && (err == nil || !strings.Contains(err.Error(), c.fail)):
				t.Fatalf("cycle: %v, want an error with %q", err, c.fail)
			}
			recs := log.records(t)
			if len(recs) != 1 {
				t.Fatalf("%d records", len(recs))
			}
			if c.fail != "" {
				if recs[0].Decision != nil {
					t.Errorf("decided %+v with the clock out of range", recs[0].Decision)
				}
				return
			}
			if recs[0].Decision == nil {
				t.Error("no decision")
			}
			all := strings.Join(logged, "\n")
			switch {
			case c.warn == "" && strings.Contains(all, "out of range"):
				t.Errorf("logged %q for a job within the bounds", all)
			case c.warn != "" && !strings.Contains(all, c.warn):
				t.Errorf("logged %q, want %q", all, c.warn)
			case c.warn != "" && !strings.Contains(strings.Join(recs[0].Warnings, "\n"), c.warn):
				t.Errorf("record warnings %q, want %q", recs[0].Warnings, c.warn)
			}
		})
	}
}
