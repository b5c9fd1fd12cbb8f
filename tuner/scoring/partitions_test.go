package scoring_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/datasets"
	ecoobj "github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
	"github.com/ecotune/ecotune/tuner/scoring"
)

// TestScorerPartitions: on a cluster with partitions the Scorer's scores
// are those of sim.RunPartitioned with a fresh policy per partition,
// whatever the number of workers, and a job no partition takes fails the
// task, naming it.
func TestScorerPartitions(t *testing.T) {
	full, err := datasets.Default()
	if err != nil {
		t.Fatal(err)
	}
	tr := &datasets.Trace{Meta: full.Meta}
	for _, j := range full.Jobs[:3000] {
		if j.Procs <= 64 {
			j.Queue = []string{"even", "odd"}[j.ID%2]
			tr.Jobs = append(tr.Jobs, j)
		}
	}
	c := sim.Cluster{
		Groups: []sim.NodeGroup{{Name: "e", Count: 64, Slots: 1, Model: sim.ESCS}, {Name: "o", Count: 64, Slots: 1, Model: sim.ESCS}},
		Partitions: []sim.Partition{
			{Name: "even", Groups: []string{"e"}},
			{Name: "odd", Groups: []string{"o"}},
		},
	}
	_, _, configs := scorerInputs(t)
	opt := sim.Options{Scheduler: sim.EASY}
	var want []ecoobj.Scores
	for _, cfg := range configs {
		r, err := sim.RunPartitioned(tr, c, func() (policy.Policy, error) { return policy.New(cfg) }, opt)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Partitions) != 2 || r.Partitions[0].Jobs == 0 || r.Partitions[1].Jobs == 0 {
			t.Fatalf("partitions %+v", r.Partitions)
		}
		want = append(want, ecoobj.Compute(r))
	}
	for _, workers := range []int{1, 2} {
		sc := scoring.NewScorer(c, opt, workers)
		got, err := sc.ScoreConfigs(context.Background(), tr, configs)
		sc.Close()
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%d workers: scores\n%+v\nwant\n%+v", workers, got, want)
		}
	}
	bad := &datasets.Trace{Meta: tr.Meta, Jobs: append([]datasets.Job(nil), tr.Jobs...)}
	bad.Jobs[5].Queue = "nowhere"
	sc := scoring.NewScorer(c, opt, 1)
	defer sc.Close()
	if _, err := sc.ScoreConfigs(context.Background(), bad, configs[:1]); err == nil || !strings.Contains(err.Error(), `queue "nowhere"`) {
		t.Errorf("a job of no partition: error %v", err)
	}
}
