package serve

import (
	"net/url"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
	"github.com/ecotune/ecotune/tuner"
)

// FuzzParseRequest feeds the simulation and tuning forms' fields to the
// server's parser: it never panics, and what it accepts is a request the
// runner can start (known policy and scheduler, parameters in bounds,
// settings in range, presets that parse, a trace ID that names no path).
func FuzzParseRequest(f *testing.F) {
	f.Add("tune", "embedded", "hgfs", "easy", "1", "300", "150", "32", "2", "qos0.1=qos_p90<=0.1\nknee", "", "")
	f.Add("simulate", "0123456789abcdef", "idle-timeout", "fcfs", "0", "", "", "", "", "", "idle_timeout", "600")
	f.Add("simulate", "../../etc/passwd", "idle-timeout", "", "", "", "", "", "", "", "idle_timeout", "1e400")
	f.Add("tune", "", "always-on", "sjf", "x", "-1", "0", "3", "1000", "=", "", "")
	f.Fuzz(func(t *testing.T, kind, trace, pol, sched, seed, evals, gens, pop, islands, presets, param, value string) {
		if kind != KindTune {
			kind = KindSimulate
		}
		v := url.Values{"trace": {trace}, "policy": {pol}, "scheduler": {sched}, "seed": {seed}, "evaluations": {evals},
			"generations": {gens}, "population": {pop}, "islands": {islands}, "presets": {presets}, "param." + param: {value}}
		req, err := ParseRequest(kind, v)
		if err != nil {
			if err.Error() == "" {
				t.Error("an empty error message")
			}
			return
		}
		if req.Trace != EmbeddedTrace && !validID(req.Trace) {
			t.Errorf("accepted trace %q", req.Trace)
		}
		if strings.ContainsAny(req.Trace, `./\`) {
			t.Errorf("trace %q could be a path", req.Trace)
		}
		spec, err := policy.Lookup(req.Policy)
		if err != nil {
			t.Errorf("accepted policy %q: %v", req.Policy, err)
		}
		if req.Scheduler != sim.EASY && req.Scheduler != sim.FCFS {
			t.Errorf("accepted scheduler %q", req.Scheduler)
		}
		if kind == KindSimulate {
			if _, err := policy.ParseSet(spec, setArgs(req.Set)); err != nil {
				t.Errorf("accepted parameters %v: %v", req.Set, err)
			}
			return
		}
		if req.Evaluations < 0 || req.Evaluations > maxEvaluations || req.Generations < 1 || req.Population < 4 || req.Islands < 1 || req.Islands > maxIslands {
			t.Errorf("accepted settings %+v", req)
		}
		for _, p := range req.Presets {
			if _, err := tuner.ParsePreset(p); err != nil {
				t.Errorf("accepted preset %q: %v", p, err)
			}
		}
	})
}

// FuzzDisplayName: a client's file name shown on the page keeps no path
// separator and no control character.
func FuzzDisplayName(f *testing.F) {
	for _, s := range []string{"../../evil.swf", `..\x`, "a/b/c.gz", "..", "", "\x00\n.swf"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d := displayName(s)
		if d == "" || d == "." || d == ".." || strings.ContainsAny(d, "/\\\x00\n\r") {
			t.Errorf("displayName(%q) = %q", s, d)
		}
	})
}
