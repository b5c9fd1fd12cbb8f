package scoring_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"testing"

	"github.com/ecotune/ecotune/datasets"
	ecoobj "github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
	"github.com/ecotune/ecotune/tuner/scoring"
)

// scorerInputs are two windows of the embedded trace, its cluster and a
// few configs.
func scorerInputs(t *testing.T) ([]*datasets.Trace, sim.Cluster, []policy.Config) {
	t.Helper()
	tr, err := datasets.Default()
	if err != nil {
		t.Fatal(err)
	}
	c, err := sim.ClusterFromTrace(tr.Meta)
	if err != nil {
		t.Fatal(err)
	}
	w := []*datasets.Trace{{Meta: tr.Meta, Jobs: tr.Jobs[:1500]}, {Meta: tr.Meta, Jobs: tr.Jobs[1500:3000]}}
	var configs []policy.Config
	for _, name := range []string{"always-on", "idle-timeout"} {
		spec, err := policy.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		configs = append(configs, spec.Defaults())
	}
	idle := configs[1]
	idle.Params = map[string]float64{"idle_timeout": 60}
	return w, c, append(configs, idle)
}

// TestScorerDeterministic: the scores do not depend on the workers or
// GOMAXPROCS, ScoreOn is ScoreConfigs per window, and each score is a
// plain replay's (sim.Run, ecoobj.Compute).
func TestScorerDeterministic(t *testing.T) {
	windows, c, configs := scorerInputs(t)
	opt := sim.Options{Scheduler: sim.EASY}
	var results [][][]ecoobj.Scores
	for _, n := range []int{1, 3} {
		prev := runtime.GOMAXPROCS(min(n, 2))
		sc := scoring.NewScorer(c, opt, n)
		got, err := sc.ScoreOn(context.Background(), windows, configs)
		sc.Close()
		runtime.GOMAXPROCS(prev)
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, got)
	}
	if !reflect.DeepEqual(results[0], results[1]) {
		t.Error("1 and 3 workers score differently")
	}
	sc := scoring.NewScorer(c, opt, 2)
	defer sc.Close()
	for k, w := range windows {
		one, err := sc.ScoreConfigs(context.Background(), w, configs)
		if err != nil {
			t.Fatal(err)
		}
		for i, cfg := range configs {
			if !reflect.DeepEqual(one[i], results[0][i][k]) {
				t.Errorf("config %d window %d: ScoreConfigs and ScoreOn differ", i, k)
			}
			p, err := policy.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			r, err := sim.Run(w, c, p, opt)
			if err != nil {
				t.Fatal(err)
			}
			if want := ecoobj.Compute(r); !reflect.DeepEqual(one[i], want) {
				t.Errorf("config %d window %d: %+v, a plain replay gives %+v", i, k, one[i], want)
			}
		}
	}
	if results[0][0][0].OffNodeSeconds != 0 || results[0][2][0].OffNodeSeconds == 0 {
		t.Error("always-on switched nodes off, or idle-timeout none")
	}
}

// TestScorerErrors: a bad config is an error naming it; a cancelled
// context stops the scoring.
func TestScorerErrors(t *testing.T) {
	windows, c, configs := scorerInputs(t)
	sc := scoring.NewScorer(c, sim.Options{}, 2)
	defer sc.Close()
	bad := append(configs, policy.Config{Name: "no-such-policy"})
	if _, err := sc.ScoreConfigs(context.Background(), windows[0], bad); err == nil {
		t.Error("unknown policy: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := sc.ScoreConfigs(ctx, windows[0], configs); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: error %v", err)
	}
}

// A Scorer scores configs on several windows of a trace at once (robust
// evaluation): one pool of workers, results in order.
func ExampleScorer() {
	tr, err := datasets.Default()
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := sim.ClusterFromTrace(tr.Meta)
	if err != nil {
		fmt.Println(err)
		return
	}
	windows := []*datasets.Trace{{Meta: tr.Meta, Jobs: tr.Jobs[:1000]}, {Meta: tr.Meta, Jobs: tr.Jobs[1000:2000]}}
	configs := []policy.Config{{Name: "always-on"}, {Name: "idle-timeout", Params: map[string]float64{"idle_timeout": 600}}}
	sc := scoring.NewScorer(c, sim.Options{Scheduler: sim.EASY}, 0)
	defer sc.Close()
	scores, err := sc.ScoreOn(context.Background(), windows, configs)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, cfg := range configs {
		for k := range windows {
			fmt.Printf("%s window %d: nodes off %v\n", cfg.Name, k+1, scores[i][k].OffNodeSeconds > 0)
		}
	}
	// Output:
	// always-on window 1: nodes off false
	// always-on window 2: nodes off false
	// idle-timeout window 1: nodes off true
	// idle-timeout window 2: nodes off true
}
