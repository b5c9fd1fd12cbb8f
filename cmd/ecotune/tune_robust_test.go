package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/tuner"
	"github.com/ecotune/ecotune/tuner/pick"
	"github.com/ecotune/ecotune/tuner/scoring"
)

// --robust and its parts reach run.json; bad values are refused naming
// the setting.
func TestTuneRobustFlags(t *testing.T) {
	trace := testTrace(t, "NASA-iPSC-1993-3.1-cln.swf.gz")
	cases := []struct {
		flags []string
		want  scoring.Robust
	}{
		{[]string{"--robust"}, scoring.DefaultRobust()},
		{[]string{"--robust-aggregate", "worst"}, scoring.Robust{Windows: 4, Replicas: 1, Jitter: 1800, Aggregate: "worst"}},
		{[]string{"--robust", "--robust-windows", "3", "--robust-replicas", "0"}, scoring.Robust{Windows: 3, Aggregate: "cvar", Alpha: 0.5}},
		{[]string{"--robust", "--robust-jitter", "600", "--robust-alpha", "0.25"}, scoring.Robust{Windows: 4, Replicas: 1, Jitter: 600, Aggregate: "cvar", Alpha: 0.25}},
		{[]string{"--robust-replicas", "0", "--robust-thin", "0.8", "--robust-relative"}, scoring.Robust{Windows: 4, Aggregate: "cvar", Alpha: 0.5, Thin: 0.8, Relative: true}},
	}
	for _, tc := range cases {
		meta := tinyRunMeta(t, trace, tc.flags...)
		if meta.Robust == nil || *meta.Robust != tc.want {
			t.Errorf("%v: run.json robust %+v, want %+v", tc.flags, meta.Robust, tc.want)
		}
	}
	// One window and no replicas is the plain replay, as are --robust=false
	// and no flag at all: no robust in run.json.
	for _, flags := range [][]string{{"--robust-windows", "1", "--robust-replicas", "0"}, {"--robust=false"}, nil} {
		if meta := tinyRunMeta(t, trace, flags...); meta.Robust != nil {
			t.Errorf("%v: run.json robust %+v, want none", flags, meta.Robust)
		}
	}
	bad := []struct {
		flags []string
		want  string
	}{
		{[]string{"--robust-aggregate", "median"}, "aggregate"},
		{[]string{"--robust-windows", "0"}, "robust-windows"},
		{[]string{"--robust-replicas", "-1"}, "replicas"},
		{[]string{"--robust-aggregate", "mean", "--robust-alpha", "0.5"}, "alpha"},
		{[]string{"--robust=false", "--robust-windows", "2"}, "--robust=false"},
		{[]string{"--robust-thin", "1"}, "thin"},
		{[]string{"--pick-loads", "0.9,x"}, "pick-loads"},
		{[]string{"--pick-loads", "1.5"}, "pick-loads"},
		{[]string{"--pick-loads", "0.8,1"}, "pick-loads"},
	}
	for _, tc := range bad {
		args := append(tinyTune(trace, filepath.Join(t.TempDir(), "r"), "--json"), tc.flags...)
		if _, err := runApp(t, args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want one mentioning %q", tc.flags, err, tc.want)
		}
	}
}

// --pick-loads reaches each relative preset's choice in run.json: the
// fractions checked, a bound and a level for each; 1 turns it off.
func TestTunePickLoads(t *testing.T) {
	trace := testTrace(t, "NASA-iPSC-1993-3.1-cln.swf.gz")
	for _, tc := range []struct {
		flags []string
		want  []float64
	}{
		{nil, pick.DefaultPickLoads()},
		{[]string{"--pick-loads", "0.7,0.85"}, []float64{0.7, 0.85}},
		{[]string{"--pick-loads", "1"}, nil},
	} {
		meta := tinyRunMeta(t, trace, tc.flags...)
		found := false
		for _, p := range meta.Presets {
			if p.Name != "rel10" {
				if len(p.Loads) != 0 {
					t.Errorf("%v: absolute preset %s checked on loads %v", tc.flags, p.Name, p.Loads)
				}
				continue
			}
			found = true
			if !slices.Equal(p.Loads, tc.want) || len(p.LoadBounds) != len(tc.want) || len(p.LoadLevels) != len(tc.want) {
				t.Errorf("%v: rel10 loads %v bounds %v levels %v, want loads %v", tc.flags, p.Loads, p.LoadBounds, p.LoadLevels, tc.want)
			}
		}
		if !found {
			t.Errorf("%v: no rel10 in run.json", tc.flags)
		}
	}
}

// --pick-window-aggregate reaches rel10's window check in run.json: the
// aggregate named, its level the median or the mean of the windows'; a
// feasible pick's level at most 1; an unknown aggregate refused.
func TestTunePickWindowAggregate(t *testing.T) {
	trace := testTrace(t, "NASA-iPSC-1993-3.1-cln.swf.gz")
	for _, tc := range []struct {
		flags []string
		want  string
	}{
		{nil, pick.PickWindowMedian},
		{[]string{"--pick-window-aggregate", "mean"}, pick.PickWindowMean},
	} {
		meta := tinyRunMeta(t, trace, tc.flags...)
		found := false
		for _, p := range meta.Presets {
			if p.Name != "rel10" {
				continue
			}
			found = true
			if p.Windows == 0 || p.WindowAggregate != tc.want || p.WindowLevel == nil || p.WindowMeanLevel == nil {
				t.Fatalf("%v: rel10 windows %d aggregate %q level %v, want windows checked with %s", tc.flags, p.Windows, p.WindowAggregate, p.WindowLevel, tc.want)
			}
			if tc.want == pick.PickWindowMean && *p.WindowLevel != *p.WindowMeanLevel {
				t.Errorf("%v: level %g, mean level %g: want the same", tc.flags, *p.WindowLevel, *p.WindowMeanLevel)
			}
			if p.Feasible && *p.WindowLevel > 1 {
				t.Errorf("%v: rel10 feasible with window level %g > 1", tc.flags, *p.WindowLevel)
			}
		}
		if !found {
			t.Errorf("%v: no rel10 in run.json", tc.flags)
		}
	}
	dir := filepath.Join(t.TempDir(), "run")
	if _, err := runApp(t, append(tinyTune(trace, dir, "--no-report"), "--pick-window-aggregate", "cvar")...); err == nil || !strings.Contains(err.Error(), "--pick-window-aggregate") {
		t.Errorf("--pick-window-aggregate cvar: error %v, want one naming the flag", err)
	}
}

// tinyRunMeta runs tinyTune on trace with flags and returns its run.json.
func tinyRunMeta(t *testing.T, trace string, flags ...string) tuner.RunMeta {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	out, err := runApp(t, append(tinyTune(trace, dir, "--json", "--no-report"), flags...)...)
	if err != nil {
		t.Fatalf("%v: %v", flags, err)
	}
	var meta tuner.RunMeta
	decodeOne(t, out, &meta)
	return meta
}
