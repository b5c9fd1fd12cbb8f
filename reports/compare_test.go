package reports

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
)

func TestParseSweep(t *testing.T) {
	tests := []struct {
		in   string
		want []float64
		err  bool
	}{
		{"idle_timeout=600:3600:600", []float64{600, 1200, 1800, 2400, 3000, 3600}, false},
		{"spare=0:3:2", []float64{0, 2}, false}, // 4 would pass the end
		{"x=0.1:0.3:0.1", []float64{0.1, 0.2, 0.30000000000000004}, false},
		{"x=5:5:1", []float64{5}, false},
		{" x = 1 : 2 : 1", []float64{1, 2}, false},
		{"x=1:2", nil, true},
		{"=1:2:1", nil, true},
		{"x1:2:1", nil, true},
		{"x=1:2:0", nil, true},
		{"x=1:2:-1", nil, true},
		{"x=2:1:1", nil, true},
		{"x=a:2:1", nil, true},
		{"x=0:1e9:1", nil, true},
		{"x=NaN:1:1", nil, true},
	}
	for _, tt := range tests {
		sw, err := ParseSweep(tt.in)
		if (err != nil) != tt.err {
			t.Errorf("ParseSweep(%q): error %v", tt.in, err)
			continue
		}
		if err == nil && !reflect.DeepEqual(sw.Values(), tt.want) {
			t.Errorf("ParseSweep(%q).Values() = %v, want %v", tt.in, sw.Values(), tt.want)
		}
	}
}

func FuzzParseSweep(f *testing.F) {
	for _, s := range []string{"idle_timeout=600:3600:600", "x=0.1:0.3:0.1", "x=1:2", "a=-1:1:0.5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sw, err := ParseSweep(s)
		if err != nil {
			return
		}
		vs := sw.Values()
		if len(vs) == 0 || len(vs) > maxSweep+1 {
			t.Fatalf("%q: %d values", s, len(vs))
		}
		for i, v := range vs {
			if math.IsNaN(v) || (i > 0 && v <= vs[i-1]) || v > sw.To+sw.Step*1e-6 {
				t.Fatalf("%q: values %v not increasing within [from, to]", s, vs)
			}
		}
	})
}

func FuzzParseTime(f *testing.F) {
	for _, s := range []string{"749458803", "1993-11-10", "1993-11-10T08:00", "1993-11-10T08:00:00Z", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ParseTime(s) // must not panic
	})
}

func TestParseTime(t *testing.T) {
	tests := []struct {
		in   string
		want int64
	}{
		{"", 0},
		{"749458803", 749458803},
		{"1970-01-02", 86400},
		{"1970-01-01T01:00", 3600},
		{"1970-01-01T00:00:10Z", 10},
		{"1970-01-01T01:00:00+01:00", 0},
	}
	for _, tt := range tests {
		got, err := ParseTime(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseTime(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
	if _, err := ParseTime("yesterday"); err == nil {
		t.Error("ParseTime(yesterday): no error")
	}
}

func TestSweepEntries(t *testing.T) {
	sw, err := ParseSweep("idle_timeout=600:1800:600")
	if err != nil {
		t.Fatal(err)
	}
	base := []Entry{{Label: "always-on", Config: policy.Config{Name: "always-on"}}, {Label: "idle-timeout", Config: policy.Config{Name: "idle-timeout"}}}
	got, err := sw.Entries(base)
	if err != nil {
		t.Fatal(err)
	}
	// always-on has no idle_timeout: it stays, once; idle-timeout is
	// swept, its other parameters at their defaults.
	labels := []string{"always-on", "idle-timeout idle_timeout=600", "idle-timeout idle_timeout=1200", "idle-timeout idle_timeout=1800"}
	if len(got) != len(labels) {
		t.Fatalf("%d entries, want %d", len(got), len(labels))
	}
	for i, e := range got[1:] {
		if e.Label != labels[i+1] || e.Config.Params["idle_timeout"] != 600*float64(i+1) || e.Config.Params["spare"] != 0 {
			t.Errorf("entry %d: %s %v", i+1, e.Label, e.Config.Params)
		}
	}
	if got[0].Label != "always-on" {
		t.Errorf("entry 0 is %s, want always-on", got[0].Label)
	}
	if _, err := (Sweep{Name: "nope", From: 1, To: 1, Step: 1}).Entries(base); err == nil {
		t.Error("sweeping a parameter no policy has: no error")
	}
}

func TestCompareEntries(t *testing.T) {
	all, err := CompareEntries(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != len(policy.All()) {
		t.Errorf("%d default entries, want every policy (%d)", len(all), len(policy.All()))
	}
	r := testRun()
	got, err := CompareEntries(nil, r)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"always-on", "oracle", "idle-timeout qos0", "idle-timeout qos0.1", "idle-timeout qos0.5"}
	var labels []string
	for _, e := range got {
		labels = append(labels, e.Label)
	}
	if !reflect.DeepEqual(labels, want) {
		t.Errorf("run entries %v, want %v", labels, want)
	}
	if _, err := CompareEntries([]string{"no-such-policy"}, nil); err == nil {
		t.Error("unknown policy: no error")
	}
}

// Hand-worked comparison figures: always-on 100 kWh, oracle 40 kWh; a
// policy using 60 kWh with 30 boots and 30 shutdowns consumed 150 % of the
// minimum and saved 40 kWh, 0.6667 kWh per boot or shutdown.
func TestCompareRowFigures(t *testing.T) {
	minimal := 40.0
	cmp := &Comparison{AlwaysOnKWh: 100, MinimalKWh: &minimal}
	s := sc(0.2, 0, 60, 60)
	s.Boots, s.Shutdowns, s.MeanWait = 30, 30, 12
	r := cmp.row(Entry{Label: "p", Config: policy.Config{Name: "idle-timeout"}}, s)
	if r.BootsShutdowns != 60 || *r.ConsumedPct != 150 || r.SavedKWh != 40 || math.Abs(*r.SavedPerSwitchKWh-2.0/3) > 1e-12 {
		t.Errorf("row %+v", r)
	}
	on := cmp.row(Entry{Label: "always-on"}, sc(0, 0, 0, 100))
	if on.SavedPerSwitchKWh != nil || on.SavedKWh != 0 {
		t.Errorf("always-on row %+v", on)
	}
	cmp.Rows = []CompareRow{on, r}
	md := string(cmp.Markdown())
	if !strings.Contains(md, "| p | 60 | 60.00 | 40.00 | 150.00 | 40.00 | 0.67 | 0.20 | 12.00 |") {
		t.Errorf("markdown:\n%s", md)
	}
	csv, err := cmp.CSV()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(csv), "p,60,60,40,150,40,0.6666666666666666,0.2,12\n") {
		t.Errorf("csv:\n%s", csv)
	}
}

func ExampleParseSweep() {
	sw, err := ParseSweep("idle_timeout=600:3600:900")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(sw.Name, sw.Values())
	// Output: idle_timeout [600 1500 2400 3300]
}

// nasaTrace is the NASA iPSC/860 trace, the embedded default.
func nasaTrace(t testing.TB) *datasets.Trace {
	t.Helper()
	tr, err := datasets.Default()
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// On NASA-iPSC every policy gets a row and always-on uses 52.93 MWh.
func TestCompareNASA(t *testing.T) {
	tr := nasaTrace(t)
	c, err := sim.ClusterFromTrace(tr.Meta)
	if err != nil {
		t.Fatal(err)
	}
	cmp, err := Compare(tr, c, DefaultEntries(), CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cmp.Rows) != len(policy.All()) {
		t.Fatalf("%d rows, want %d", len(cmp.Rows), len(policy.All()))
	}
	for i, s := range policy.All() {
		if cmp.Rows[i].Policy != s.Name {
			t.Errorf("row %d is %s, want %s", i, cmp.Rows[i].Policy, s.Name)
		}
	}
	on := cmp.Rows[0]
	if on.Label != AlwaysOn || math.Round(on.EnergyKWh/10)/100 != 52.93 {
		t.Errorf("always-on row %s: %.3f kWh, want 52.93 MWh", on.Label, on.EnergyKWh)
	}
	for _, r := range cmp.Rows {
		if m := cmp.MinimalKWh; m != nil && r.EnergyKWh < *m-1e-6 {
			t.Errorf("%s uses %.2f kWh, below the oracle's %.2f", r.Label, r.EnergyKWh, *m)
		}
	}
	// Same rows with one worker, for three policies that are neither
	// always-on nor the oracle (Compare adds those itself).
	one, err := Compare(tr, c, DefaultEntries()[1:4], CompareOptions{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one.Rows, cmp.Rows[1:4]) || one.AlwaysOnKWh != cmp.AlwaysOnKWh || !reflect.DeepEqual(one.MinimalKWh, cmp.MinimalKWh) {
		t.Error("results depend on the number of workers or on the entries compared")
	}
}
