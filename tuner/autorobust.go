package tuner

import (
	"context"
	"fmt"

	"github.com/ecotune/ecotune/policy"
)

// LoadedQoS is the p90 wait ratio of always-on on the train split from
// which Options.AutoRobust turns robust evaluation on: a log where, with
// every node on, a tenth of the jobs wait longer than they run. The
// public logs fall far on either side of it (EASY, the whole log):
// NASA-iPSC, OSC-Clust, LLNL-Atlas, LCG and Sandia-Ross 0 to 0.012;
// CEA-Curie 5.5, SDSC-BLUE 71, SDSC-Par 150, SDSC-SP2 260, LANL-CM5 404,
// SDSC-DS 573, RICC 1,913.
const LoadedQoS = 1.0

// resolveAutoRobust returns o with AutoRobust resolved: when it is set
// and o.Robust is the zero (plain) value, robust evaluation takes
// DefaultRobust's settings if always-on's p90 wait ratio on the train
// split is at least LoadedQoS, and stays plain otherwise; either way
// AutoRobust is then cleared, so the settings recorded (run.json, the
// fingerprint, a distributed plan) are explicit. It costs one replay of
// always-on on the train split.
func resolveAutoRobust(ctx context.Context, o Options) (Options, error) {
	if !o.AutoRobust {
		return o, nil
	}
	o.AutoRobust = false
	if !o.Robust.IsZero() {
		return o, nil
	}
	d, err := o.withDefaults()
	if err != nil {
		return o, err
	}
	train, _, err := d.Split.Apply(d.Trace)
	if err != nil {
		return o, fmt.Errorf("tuner: %w", err)
	}
	spec, err := policy.Lookup(AlwaysOn)
	if err != nil {
		return o, err
	}
	sc := NewScorer(*d.Cluster, d.Sim, d.Settings.Workers)
	defer sc.Close()
	s, err := sc.ScoreConfigs(ctx, train, []policy.Config{spec.Fill(policy.Config{Name: AlwaysOn})})
	if err != nil {
		return o, fmt.Errorf("tuner: always-on on the train split: %w", err)
	}
	if s[0].QoSP90 >= LoadedQoS {
		o.Robust = DefaultRobust()
		note(o.Monitor, "robust evaluation on: always-on's p90 wait ratio on the train split is %.4g (≥ %g: a loaded log); --robust=false for one plain replay\n", s[0].QoSP90, LoadedQoS)
	}
	return o, nil
}
