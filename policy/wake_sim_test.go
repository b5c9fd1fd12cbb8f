package policy_test

import (
	"maps"
	"reflect"
	"testing"

	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
)

// everyTick wraps a policy and asks to be consulted at every decision
// tick (Wake = now + 1): the simulator then never skips a tick, so any
// Wake of the wrapped policy that was too late would show as a different
// run.
type everyTick struct{ p policy.Policy }

func (e everyTick) Name() string { return e.p.Name() }
func (e everyTick) Decide(v *policy.View, d *policy.Decision) {
	e.p.Decide(v, d)
	d.Wake = v.Now + 1
}
func (e everyTick) SetFuture(jobs []policy.FutureJob) {
	if c, ok := e.p.(policy.Clairvoyant); ok {
		c.SetFuture(jobs)
	}
}

type everyTickPlacer struct {
	everyTick
	policy.Placer
}

// Every policy's run on a real trace is the same whether the simulator
// skips ticks before the policy's Wake or consults it at every tick:
// the Wakes are honest. The first 3000 jobs of NASA-iPSC by default, the
// whole trace with -tags long.
func TestWakeHonestInSimulator(t *testing.T) {
	tr, c := openShared(t, "NASA-iPSC-1993-3.1-cln.swf.gz")
	if !long {
		tr.Jobs = tr.Jobs[:3000]
	}
	c.Groups[0].Model.Freqs = []policy.FreqLevel{{Name: "2.4GHz", SlotW: 80, Speed: 1}, {Name: "1.6GHz", SlotW: 45, Speed: 0.67}}
	c.Groups[0].Model.SleepLevels = []policy.SleepLevel{{Name: "suspend", W: 5, EnterS: 10, EnterWh: 0.02, ExitS: 20, ExitWh: 0.5}}
	s, err := sim.New(tr, c, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, spec := range policy.All() {
		t.Run(spec.Name, func(t *testing.T) {
			skipping, err := s.Run(mustPolicy(t, spec.Name))
			if err != nil {
				t.Fatal(err)
			}
			p := mustPolicy(t, spec.Name)
			var every policy.Policy = everyTick{p}
			if pl, ok := p.(policy.Placer); ok {
				every = everyTickPlacer{everyTick{p}, pl}
			}
			always, err := s.Run(every)
			if err != nil {
				t.Fatal(err)
			}
			always.IgnoredCommands = skipping.IgnoredCommands // repeated ignored commands may differ (sim doc)
			if !reflect.DeepEqual(skipping, always) {
				t.Errorf("runs differ: off %d vs %d s, reconfigurations %d vs %d, jobs equal %v",
					skipping.OffNodeSeconds, always.OffNodeSeconds, skipping.Reconfigurations, always.Reconfigurations,
					reflect.DeepEqual(skipping.Jobs, always.Jobs))
			}
		})
	}
}

// Tuned hgfs configurations keep the Wake contract too, under EASY
// backfilling as the tuner runs them: a random rule base with shifted
// labels and a reactive seed (every rule off), on the first 3000 jobs of
// SDSC-SP2, whose queue often holds the idle nodes.
func TestWakeHonestHGFSTuned(t *testing.T) {
	tr, c := openShared(t, "SDSC-SP2-1998-4.2-cln.swf.gz")
	tr.Jobs = tr.Jobs[:3000]
	s, err := sim.New(tr, c, sim.Options{Scheduler: sim.EASY})
	if err != nil {
		t.Fatal(err)
	}
	spec, err := policy.Lookup("hgfs")
	if err != nil {
		t.Fatal(err)
	}
	drained := func(c policy.Config, lead, gap float64) policy.Config {
		c.Params = maps.Clone(c.Params)
		c.Params["drain_lead"], c.Params["drain_gap"] = lead, gap
		return c
	}
	for name, cfg := range map[string]policy.Config{
		"random": tunedHGFS(), "reactive": spec.Seeds[3],
		"random drained": drained(tunedHGFS(), 2900, 3600), "reactive drained": drained(spec.Seeds[3], 1200, 60),
	} {
		t.Run(name, func(t *testing.T) {
			skipping, err := s.Run(mustConfig(t, cfg))
			if err != nil {
				t.Fatal(err)
			}
			always, err := s.Run(everyTick{mustConfig(t, cfg)})
			if err != nil {
				t.Fatal(err)
			}
			if skipping.Reconfigurations == 0 {
				t.Fatal("no reconfiguration: the run tests nothing")
			}
			always.IgnoredCommands = skipping.IgnoredCommands
			if !reflect.DeepEqual(skipping, always) {
				t.Errorf("runs differ: off %d vs %d s, reconfigurations %d vs %d",
					skipping.OffNodeSeconds, always.OffNodeSeconds, skipping.Reconfigurations, always.Reconfigurations)
			}
		})
	}
}

func mustConfig(t *testing.T, c policy.Config) policy.Policy {
	t.Helper()
	p, err := policy.New(c)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func mustPolicy(t *testing.T, name string) policy.Policy {
	t.Helper()
	p, err := policy.New(policy.Config{Name: name})
	if err != nil {
		t.Fatal(err)
	}
	return p
}
