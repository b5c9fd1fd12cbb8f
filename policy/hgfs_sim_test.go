package policy_test

import (
	"maps"
	"reflect"
	"testing"

	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
)

// hgfs generalises idle-timeout: each of its 12 reactive seeds replays
// NASA-iPSC and SDSC-SP2 exactly as idle-timeout with the same timeout,
// no spare nodes and the same boot limit does, and so does each seed
// given spare nodes and another boot limit, against idle-timeout with the
// same.
func TestHGFSReactiveSeedsAreIdleTimeout(t *testing.T) {
	spec, err := policy.Lookup("hgfs")
	if err != nil {
		t.Fatal(err)
	}
	if len(spec.Seeds) == 0 {
		t.Fatal("hgfs declares no seeds")
	}
	lead, _ := spec.Param("drain_lead")
	reactive := 0
	for _, name := range []string{"NASA-iPSC-1993-3.1-cln.swf.gz", "SDSC-SP2-1998-4.2-cln.swf.gz"} {
		s := sharedSimulator(t, name, sim.Options{Scheduler: sim.EASY})
		for _, seed := range spec.Seeds {
			if seed.Params["drain_lead"] < lead.Max {
				continue // a drain seed
			}
			reactive++
			for _, v := range []struct{ spare, maxBoot float64 }{{0, 0}, {3, 4}} {
				if v.spare != 0 || v.maxBoot != 0 {
					seed.Params = maps.Clone(seed.Params)
					seed.Params["spare"], seed.Params["max_booting"] = v.spare, v.maxBoot
				}
				sameAsIdleTimeout(t, s, name, seed)
			}
		}
	}
	if reactive < 2*12 {
		t.Errorf("%d reactive seeds checked on 2 traces, want 12 each", reactive)
	}
}

// sameAsIdleTimeout checks that the hgfs configuration seed (rules off, R2
// never, R3 always) replays as idle-timeout with its min_idle, spare and
// max_booting.
func sameAsIdleTimeout(t *testing.T, s *sim.Simulator, name string, seed policy.Config) {
	t.Helper()
	timeout := seed.Params["min_idle"]
	h, err := policy.New(seed)
	if err != nil {
		t.Fatal(err)
	}
	it, err := policy.New(policy.Config{Name: "idle-timeout", Params: map[string]float64{
		"idle_timeout": timeout, "spare": seed.Params["spare"], "max_booting": seed.Params["max_booting"]}})
	if err != nil {
		t.Fatal(err)
	}
	rh, err := s.Run(h)
	if err != nil {
		t.Fatal(err)
	}
	ri, err := s.Run(it)
	if err != nil {
		t.Fatal(err)
	}
	rh.IgnoredCommands, ri.IgnoredCommands = 0, 0 // repeated ignored commands may differ (sim/doc.go)
	if !reflect.DeepEqual(rh, ri) {
		t.Errorf("%s, %v: hgfs %d off-s %d reconfigs, idle-timeout %d off-s %d reconfigs",
			name, seed.Params, rh.OffNodeSeconds, rh.Reconfigurations, ri.OffNodeSeconds, ri.Reconfigurations)
	}
}

// Every policy's declared seeds are valid configurations of it.
func TestSeedsAreValid(t *testing.T) {
	for _, s := range policy.All() {
		for i, c := range s.Seeds {
			if _, err := s.New(c); err != nil {
				t.Errorf("%s seed %d: %v", s.Name, i, err)
			}
		}
	}
}
