package tuner

import (
	"testing"

	"github.com/ecotune/ecotune/objectives"
)

func sol(qos float64, off, reconf int64) Solution {
	return Solution{Train: objectives.Scores{QoSP90: qos, OffNodeSeconds: off, Reconfigurations: reconf}}
}

func TestPresetChoose(t *testing.T) {
	// A front on the train split: rows by rising QoS ratio.
	front := []Solution{
		sol(0, 100, 10),    // 0: best QoS
		sol(0, 100, 8),     // 1: best QoS, same off-seconds, fewer reconfigurations
		sol(0.05, 500, 40), // 2
		sol(0.1, 800, 60),  // 3: most off-seconds within 0.1
		sol(0.1, 800, 50),  // 4: same, fewer reconfigurations
		sol(0.4, 900, 70),  // 5
		sol(2, 1000, 90),   // 6
	}
	alwaysOn := objectives.Scores{QoSP90: 0.3}
	presets := DefaultPresets()
	rel, err := ParsePreset("rel=qos_p90<=always_on+0.15")
	if err != nil {
		t.Fatal(err)
	}
	tight, err := ParsePreset("tight=qos_p90<=-1")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		preset   Preset
		row      int
		feasible bool
		resolved float64
	}{
		{presets[0], 1, true, 0},               // qos0: QoS 0, then 100 off-s, then 8 < 10 reconfigurations
		{presets[1], 4, true, 0.1},             // qos0.1: 800 off-s at QoS 0.1, 50 < 60 reconfigurations
		{presets[2], 5, true, 0.5},             // qos0.5: 900 off-s at 0.4
		{rel, 5, true, alwaysOn.QoSP90 + 0.15}, // 0.45: row 5 (0.4) has the most off-s
		// Nothing meets QoS ≤ −1: the least violating (QoS 0), then by
		// the order (most off-seconds, fewest reconfigurations): row 1.
		{tight, 1, false, -1},
	}
	for _, tc := range tests {
		ch, err := tc.preset.Choose(front, DefaultObjectives(), alwaysOn)
		if err != nil {
			t.Fatalf("%s: %v", tc.preset.Name, err)
		}
		if ch.Row != tc.row || ch.Feasible != tc.feasible || ch.Resolved != tc.resolved {
			t.Errorf("%s: row %d feasible %v resolved %g; want row %d feasible %v resolved %g",
				tc.preset.Name, ch.Row, ch.Feasible, ch.Resolved, tc.row, tc.feasible, tc.resolved)
		}
	}
}

func TestKnee(t *testing.T) {
	// Normalised over the front: (0,1,·), (0.1,0.2,·) and (1,0,·) in QoS
	// and off-seconds (maximised, so 1000 → 0); reconfigurations all equal.
	// Sums 1, 0.3 and 1: the middle row is the knee.
	front := []Solution{sol(0, 0, 5), sol(0.1, 800, 5), sol(1, 1000, 5)}
	ch, err := Preset{Name: "knee", Knee: true}.Choose(front, DefaultObjectives(), objectives.Scores{})
	if err != nil {
		t.Fatal(err)
	}
	if ch.Row != 1 {
		t.Errorf("knee row %d, want 1", ch.Row)
	}
}

func TestParseConstraint(t *testing.T) {
	tests := []struct {
		in   string
		want Constraint
		err  bool
	}{
		{in: "qos_p90<=0.1", want: Constraint{Name: "qos_p90", Op: "<=", Bound: 0.1}},
		{in: " qos_p90 <= always_on + 0.1 ", want: Constraint{Name: "qos_p90", Op: "<=", Bound: 0.1, Relative: true}},
		{in: "qos_p90<=always_on-0.5", want: Constraint{Name: "qos_p90", Op: "<=", Bound: -0.5, Relative: true}},
		{in: "qos_p90<=always_on", want: Constraint{Name: "qos_p90", Op: "<=", Relative: true}},
		{in: "off_node_seconds>=1e6", want: Constraint{Name: "off_node_seconds", Op: ">=", Bound: 1e6}},
		{in: "qos_p90=0.1", err: true},
		{in: "nonsense<=1", err: true},
		{in: "qos_p90<=abc", err: true},
		{in: "qos_p90<=NaN", err: true},
		{in: "qos_p90<=+Inf", err: true},
	}
	for _, tc := range tests {
		got, err := ParseConstraint(tc.in)
		if (err != nil) != tc.err || (!tc.err && got != tc.want) {
			t.Errorf("ParseConstraint(%q) = %+v, %v; want %+v, error %v", tc.in, got, err, tc.want, tc.err)
		}
	}
}

func TestParseObjectives(t *testing.T) {
	got, err := ParseObjectives("qos_p90, off_node_seconds,max:reconfigurations,min:energy_kwh")
	if err != nil {
		t.Fatal(err)
	}
	want := []Objective{{Name: "qos_p90"}, {Name: "off_node_seconds", Maximize: true}, {Name: "reconfigurations", Maximize: true}, {Name: "energy_kwh"}}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("objective %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	for _, bad := range []string{"", "qos_p90,qos_p90", "watts"} {
		if _, err := ParseObjectives(bad); err == nil {
			t.Errorf("ParseObjectives(%q): no error", bad)
		}
	}
}

func FuzzParseConstraint(f *testing.F) {
	for _, s := range []string{"qos_p90<=0.1", "qos_p90<=always_on+0.1", "off_node_seconds>=1e6", "x<=", "<=always_on"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseConstraint(s)
		if err != nil {
			return
		}
		back, err := ParseConstraint(c.String())
		if err != nil || back != c {
			t.Fatalf("%q → %+v → %q → %+v, %v", s, c, c.String(), back, err)
		}
	})
}
