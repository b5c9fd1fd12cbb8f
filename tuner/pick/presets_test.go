package pick

import (
	"math"
	"testing"

	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/tuner/scoring"
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
		ch, err := tc.preset.Choose(front, scoring.DefaultObjectives(), alwaysOn)
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
	ch, err := Preset{Name: "knee", Knee: true}.Choose(front, scoring.DefaultObjectives(), objectives.Scores{})
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
		want scoring.Constraint
		err  bool
	}{
		{in: "qos_p90<=0.1", want: scoring.Constraint{Name: "qos_p90", Op: "<=", Bound: 0.1}},
		{in: " qos_p90 <= always_on + 0.1 ", want: scoring.Constraint{Name: "qos_p90", Op: "<=", Bound: 0.1, Relative: true}},
		{in: "qos_p90<=always_on-0.5", want: scoring.Constraint{Name: "qos_p90", Op: "<=", Bound: -0.5, Relative: true}},
		{in: "qos_p90<=always_on", want: scoring.Constraint{Name: "qos_p90", Op: "<=", Relative: true}},
		{in: "off_node_seconds>=1e6", want: scoring.Constraint{Name: "off_node_seconds", Op: ">=", Bound: 1e6}},
		{in: "qos_p90=0.1", err: true},
		{in: "nonsense<=1", err: true},
		{in: "qos_p90<=abc", err: true},
		{in: "qos_p90<=NaN", err: true},
		{in: "qos_p90<=+Inf", err: true},
		{in: "qos_p90<=max(1.1*always_on,always_on+0.1)", want: Rel10},
		{in: "qos_p90 <= max( 1.5 * always_on , always_on - 2 )", want: scoring.Constraint{Name: "qos_p90", Op: "<=", Bound: -2, Relative: true, Factor: 1.5}},
		{in: "off_node_seconds>=min(0.9*always_on,always_on+0)", want: scoring.Constraint{Name: "off_node_seconds", Op: ">=", Relative: true, Factor: 0.9}},
		{in: "qos_p90<=min(1.1*always_on,always_on+0.1)", err: true}, // min with <=
		{in: "qos_p90<=max(1.1*always_on)", err: true},
		{in: "qos_p90<=max(0*always_on,always_on+0.1)", err: true},
		{in: "qos_p90<=max(1.1*always_on,always_on+x)", err: true},
	}
	for _, tc := range tests {
		got, err := scoring.ParseConstraint(tc.in)
		if (err != nil) != tc.err || (!tc.err && got != tc.want) {
			t.Errorf("ParseConstraint(%q) = %+v, %v; want %+v, error %v", tc.in, got, err, tc.want, tc.err)
		}
		if err == nil { // String reads back
			if back, err := scoring.ParseConstraint(got.String()); err != nil || back != got {
				t.Errorf("ParseConstraint(%q) = %+v, %v; want %+v", got.String(), back, err, got)
			}
		}
	}
}

// TestRel10 resolves rel10 by hand: the factor governs above always-on's
// 1 (1.1 × 5 = 5.5 > 5.1), the offset below it (0.02 + 0.1 > 0.022),
// and Assess marks the pick on the test split against always-on's there.
func TestRel10(t *testing.T) {
	for _, tc := range []struct{ ao, want float64 }{{5, 5.5}, {0.02, 0.12}, {1, 1.1}, {0, 0.1}} {
		got, err := Rel10.Resolve(objectives.Scores{QoSP90: tc.ao})
		if err != nil || math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("rel10 with always-on %g: %g, %v; want %g", tc.ao, got, err, tc.want)
		}
	}
	var rel Preset
	for _, p := range DefaultPresets() {
		if p.Name == "rel10" {
			rel = p
		}
	}
	if rel.Constraint == nil {
		t.Fatal("no rel10 among the default presets")
	}
	test := func(q float64) *objectives.Scores { return &objectives.Scores{QoSP90: q} }
	front := []Solution{sol(5, 100, 1), sol(5.5, 300, 2), sol(6, 900, 3)}
	front[0].Test, front[1].Test, front[2].Test = test(4), test(4.5), test(9)
	ch, err := rel.Choose(front, scoring.DefaultObjectives(), objectives.Scores{QoSP90: 5})
	if err != nil || ch.Row != 1 || !ch.Feasible || ch.Resolved != 5.5 {
		t.Fatalf("rel10 on train: %+v, %v; want row 1 feasible at 5.5", ch, err)
	}
	for _, tc := range []struct {
		aoTest   float64
		feasible bool
		bound    float64
	}{{4, false, 4.4}, {4.1, true, 4.51}, {0.01, false, 0.11}} {
		c := ch
		if err := rel.Assess(&c, front, test(tc.aoTest)); err != nil {
			t.Fatal(err)
		}
		if c.FeasibleTest == nil || *c.FeasibleTest != tc.feasible || c.ResolvedTest == nil || math.Abs(*c.ResolvedTest-tc.bound) > 1e-12 {
			t.Errorf("always-on's test qos %g: feasible %v bound %v; want %v %g", tc.aoTest, c.FeasibleTest, c.ResolvedTest, tc.feasible, tc.bound)
		}
		if c.Train == nil || c.Train.QoSP90 != 5.5 || c.Test == nil || c.Test.QoSP90 != 4.5 {
			t.Errorf("pick's scores %v / %v, want row 1's", c.Train, c.Test)
		}
	}
	// Without a test split: scores on train only, no test verdict.
	c := ch
	if err := rel.Assess(&c, front, nil); err != nil || c.FeasibleTest != nil || c.Train == nil {
		t.Errorf("no test split: %+v, %v", c, err)
	}
}

func TestParseObjectives(t *testing.T) {
	got, err := scoring.ParseObjectives("qos_p90, off_node_seconds,max:reconfigurations,min:energy_kwh")
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
		if _, err := scoring.ParseObjectives(bad); err == nil {
			t.Errorf("ParseObjectives(%q): no error", bad)
		}
	}
}

func FuzzParseConstraint(f *testing.F) {
	for _, s := range []string{"qos_p90<=0.1", "qos_p90<=always_on+0.1", "off_node_seconds>=1e6", "x<=", "<=always_on"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := scoring.ParseConstraint(s)
		if err != nil {
			return
		}
		back, err := scoring.ParseConstraint(c.String())
		if err != nil || back != c {
			t.Fatalf("%q → %+v → %q → %+v, %v", s, c, c.String(), back, err)
		}
	})
}

// TestHindsight works the hindsight member out by hand: the preset's
// choice had it seen the test split.
func TestHindsight(t *testing.T) {
	presets := map[string]Preset{}
	for _, p := range DefaultPresets() {
		presets[p.Name] = p
	}
	withTest := func(s Solution, qos float64, off int64) Solution {
		s.Test = &objectives.Scores{QoSP90: qos, OffNodeSeconds: off, Reconfigurations: s.Train.Reconfigurations}
		return s
	}
	// Always-on's qos_p90 is 5 on train (rel10 bound 5.5) and 10 on
	// test (bound 11).
	front := []Solution{
		withTest(sol(4, 100, 1), 9, 90),     // 0: holds on both, few off-seconds
		withTest(sol(5.5, 400, 2), 12, 500), // 1: rel10's pick on train; misses on test
		withTest(sol(6, 600, 3), 10.5, 450), // 2: misses on train; holds on test with the most
		withTest(sol(8, 900, 4), 30, 900),   // 3: misses on both
	}
	trainAO, testAO := objectives.Scores{QoSP90: 5}, objectives.Scores{QoSP90: 10}
	tests := []struct {
		preset   string
		testAO   *objectives.Scores
		pick     int
		row      int // -1: none recorded
		feasible bool
	}{
		{"rel10", &testAO, 1, 2, true},
		{"qos0", &testAO, 0, 0, true},                         // best test QoS: row 0 (9)
		{"rel10", &objectives.Scores{QoSP90: 1}, 1, 0, false}, // bound 1.1: none holds; least violating
		{"rel10", nil, 1, -1, false},                          // no test split
		{"qos0.5", &testAO, 0, 0, false},                      // absolute bound 0.5: nothing holds on test
	}
	for _, tc := range tests {
		p := presets[tc.preset]
		ch, err := p.Choose(front, scoring.DefaultObjectives(), trainAO)
		if err != nil {
			t.Fatal(err)
		}
		if ch.Row != tc.pick {
			t.Fatalf("%s: pick %d, want %d", tc.preset, ch.Row, tc.pick)
		}
		if err := p.Hindsight(&ch, front, scoring.DefaultObjectives(), tc.testAO); err != nil {
			t.Fatal(err)
		}
		if tc.row < 0 {
			if ch.HindsightRow != nil || ch.HindsightFeasible != nil {
				t.Errorf("%s without a test split: hindsight %v %v, want none", tc.preset, ch.HindsightRow, ch.HindsightFeasible)
			}
			continue
		}
		if ch.HindsightRow == nil || *ch.HindsightRow != tc.row || *ch.HindsightFeasible != tc.feasible {
			t.Errorf("%s (always-on test %v): hindsight %v feasible %v, want row %d feasible %v",
				tc.preset, tc.testAO, ch.HindsightRow, ch.HindsightFeasible, tc.row, tc.feasible)
		}
		if ch.Row != tc.pick {
			t.Errorf("%s: hindsight moved the pick to %d", tc.preset, ch.Row)
		}
	}
	// A member without test scores: nothing recorded.
	partial := append([]Solution{sol(1, 1, 1)}, front...)
	ch, _ := presets["rel10"].Choose(partial, scoring.DefaultObjectives(), trainAO)
	if err := presets["rel10"].Hindsight(&ch, partial, scoring.DefaultObjectives(), &testAO); err != nil || ch.HindsightRow != nil {
		t.Errorf("a member without test scores: hindsight %v, %v; want none", ch.HindsightRow, err)
	}
}
