package policy

import (
	"strings"
	"testing"
)

func TestParseSet(t *testing.T) {
	s, err := Lookup("idle-timeout")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		kv      []string
		wantErr string
		want    map[string]float64
	}{
		{kv: nil, want: map[string]float64{"idle_timeout": 1800, "spare": 0, "max_booting": 0}},
		{kv: []string{"idle_timeout=600", " spare = 2 "}, want: map[string]float64{"idle_timeout": 600, "spare": 2, "max_booting": 0}},
		{kv: []string{"idle_timeout=99999"}, wantErr: "--set idle_timeout: 99999 out of [60, 86400]"},
		{kv: []string{"spare=1.5"}, wantErr: "--set spare: 1.5 is not a whole number"},
		{kv: []string{"nope=1"}, wantErr: "unknown parameter of idle-timeout (valid: idle_timeout, spare, max_booting)"},
		{kv: []string{"spare"}, wantErr: "want name=value"},
		{kv: []string{"spare=abc"}, wantErr: `"abc" is not a number`},
		{kv: []string{"spare=NaN"}, wantErr: "not a finite number"},
		{kv: []string{"spare@phys=1"}, wantErr: "spare takes no per-group values"},
	}
	for _, tt := range tests {
		c, err := ParseSet(s, tt.kv)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%q: error %v; want it to contain %q", tt.kv, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", tt.kv, err)
		}
		if c.Name != "idle-timeout" || len(c.Params) != len(tt.want) {
			t.Errorf("%q: got %+v", tt.kv, c)
		}
		for k, v := range tt.want {
			if c.Params[k] != v {
				t.Errorf("%q: %s = %v; want %v", tt.kv, k, c.Params[k], v)
			}
		}
	}
}

func TestNewFillsDefaultsAndChecks(t *testing.T) {
	if _, err := New(Config{Name: "idle-timeout"}); err != nil {
		t.Errorf("defaults: %v", err)
	}
	_, err := New(Config{Name: "idle-timeout", Params: map[string]float64{"idle_timeout": 5}})
	if err == nil || !strings.Contains(err.Error(), "params.idle_timeout: 5 out of [60, 86400]") {
		t.Errorf("got %v", err)
	}
	if _, err := New(Config{Name: "nope"}); err == nil {
		t.Error("unknown policy accepted")
	}
}

// Every spec's defaults lie within its bounds and pass Check, and names are
// unique.
func TestSpecsConsistent(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range All() {
		if seen[s.Name] {
			t.Errorf("duplicate policy %s", s.Name)
		}
		seen[s.Name] = true
		if s.Doc == "" || s.Source == "" || s.New == nil {
			t.Errorf("%s: missing doc, source or constructor", s.Name)
		}
		for _, p := range s.Params {
			if p.Unit == "" || p.Doc == "" || p.Min > p.Max || (p.Log && p.Min <= 0) {
				t.Errorf("%s.%s: bad declaration %+v", s.Name, p.Name, p)
			}
		}
		if err := s.Check(s.Defaults()); err != nil {
			t.Errorf("%s: defaults: %v", s.Name, err)
		}
	}
}
