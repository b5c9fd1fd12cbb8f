package policy_test

import (
	"slices"
	"testing"

	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
)

// exercisedTraces are the traces on which other policies are known to
// reach always-on's QoS, so the property must be exercised there; on the
// others (heavily loaded logs) often no contender reaches it and the check
// is vacuous, which the test logs.
var exercisedTraces = map[string]bool{"NASA-iPSC-1993-3.1-cln.swf.gz": true, "SDSC-SP2-1998-4.2-cln.swf.gz": true}

// dominanceTraces are the shared traces the oracle property is checked on:
// two by default, every shared SWF trace with -tags long.
func dominanceTraces() []string {
	names := []string{"NASA-iPSC-1993-3.1-cln.swf.gz", "SDSC-SP2-1998-4.2-cln.swf.gz"}
	if long {
		names = append(names, "OSC-Clust-2000-3.1-cln.swf.gz", "LANL-CM5-1994-4.1-cln.swf.gz",
			"SDSC-Par-1996-3.1-cln.swf.gz", "SDSC-BLUE-2000-4.2-cln.swf.gz", "Sandia-Ross-2001-1.1-cln.swf.gz",
			"LLNL-Atlas-2006-2.1-cln.swf.gz", "SDSC-DS-2004-2.1-cln.swf.gz", "CEA-Curie-2011-2.1-cln.swf.gz",
			"RICC-2010-2.swf.gz", "synthetic/lublin_256.swf", "synthetic/lublin-aaroh.swf")
	}
	return names
}

// dominanceContenders are the deployable policies the oracle is measured
// against: every non-clairvoyant policy at its defaults, and idle-timeout
// over a sweep of timeouts and spare nodes.
func dominanceContenders() []policy.Config {
	var cs []policy.Config
	for _, s := range policy.All() {
		if !s.Clairvoyant {
			cs = append(cs, policy.Config{Name: s.Name})
		}
	}
	for _, timeout := range []float64{60, 300, 900, 3600, 14400, 86400} {
		for _, spare := range []float64{0, 4, 16} {
			cs = append(cs, policy.Config{Name: "idle-timeout", Params: map[string]float64{"idle_timeout": timeout, "spare": spare}})
		}
	}
	return cs
}

// The oracle's off-seconds are at least those of every other policy whose
// QoS equals always-on's (issue 4), under FCFS, where the oracle keeps every
// always-on start (TestOracleKeepsAlwaysOnStarts). Under EASY the
// reservations depend on which nodes are powered, so no start-preserving
// bound exists there and the property is not claimed.
func TestOracleDominatesEqualQoS(t *testing.T) {
	for _, name := range dominanceTraces() {
		t.Run(name, func(t *testing.T) {
			s := sharedSimulator(t, name, sim.Options{Scheduler: sim.FCFS})
			on, oracle := run(t, s, "always-on"), run(t, s, "oracle")
			qosOn, qosOracle := qosP90(on), qosP90(oracle)
			if qosOracle != qosOn {
				t.Fatalf("oracle qos_p90 %v, always-on %v", qosOracle, qosOn)
			}
			compared := 0
			for _, cfg := range dominanceContenders() {
				p, err := policy.New(cfg)
				if err != nil {
					t.Fatal(err)
				}
				r, err := s.Run(p)
				if err != nil {
					t.Fatal(err)
				}
				if qosP90(r) != qosOn {
					continue
				}
				compared++
				if r.OffNodeSeconds > oracle.OffNodeSeconds {
					t.Errorf("%s %v: %d off node-seconds at always-on QoS %v, oracle only %d",
						cfg.Name, cfg.Params, r.OffNodeSeconds, qosOn, oracle.OffNodeSeconds)
				}
			}
			t.Logf("oracle %d off node-seconds, qos_p90 %v; %d contenders at that QoS", oracle.OffNodeSeconds, qosOn, compared)
			if compared < 2 && exercisedTraces[name] { // always-on itself is one
				t.Errorf("only %d contenders share always-on's QoS: the property was not exercised", compared)
			}
		})
	}
}

// qosP90 is the p90 wait ratio as docs/architecture.md defines it, computed here
// independently of package objectives: r_(k), k = floor(0.9 n) clamped to
// n−1, zero run times counting as one second.
func qosP90(r *sim.Result) float64 {
	ratios := make([]float64, len(r.Jobs))
	for i, j := range r.Jobs {
		run := j.End - j.Start
		if run == 0 {
			run = 1
		}
		ratios[i] = float64(j.Start-j.Submit) / float64(run)
	}
	slices.Sort(ratios)
	k := min(len(ratios)*9/10, len(ratios)-1)
	return ratios[k]
}
