package objectives

import (
	"reflect"
	"strings"
	"testing"
)

// The table and Scores agree: each objective's name is the JSON tag of
// one Scores field, its getter reads that field, and every field but
// "jobs" has a row. The fields get distinct values so a getter reading
// the wrong field shows.
func TestTableMatchesScores(t *testing.T) {
	var s Scores
	v := reflect.ValueOf(&s).Elem()
	tags := map[string]float64{}
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		val := float64(i + 1)
		switch f.Kind() {
		case reflect.Float64:
			f.SetFloat(val + 0.25)
			val += 0.25
		case reflect.Int, reflect.Int64:
			f.SetInt(int64(i + 1))
		default:
			t.Fatalf("field %s has kind %s", v.Type().Field(i).Name, f.Kind())
		}
		tags[strings.Split(v.Type().Field(i).Tag.Get("json"), ",")[0]] = val
	}
	if len(tags) != len(table)+1 {
		t.Errorf("Scores has %d JSON keys, the table %d rows plus jobs", len(tags), len(table))
	}
	if got, _ := s.Get("jobs"); got != tags["jobs"] {
		t.Errorf("Get(jobs) = %v, want %v", got, tags["jobs"])
	}
	for _, o := range All() {
		want, ok := tags[o.Name]
		if !ok {
			t.Errorf("%s: no Scores field has this JSON key", o.Name)
			continue
		}
		if got := o.Of(s); got != want {
			t.Errorf("%s: Of = %v, want the field's %v", o.Name, got, want)
		}
		if got := o.At(&s); got != want {
			t.Errorf("%s: At = %v, want the field's %v", o.Name, got, want)
		}
		if got, err := s.Get(o.Name); err != nil || got != want {
			t.Errorf("%s: Get = %v, %v, want %v", o.Name, got, err, want)
		}
	}
}

// Every row is complete and names are unique; Names follows the
// constants of names.go in their order (the front files' column order).
func TestTableRows(t *testing.T) {
	want := []string{QoSP90, OffNodeSeconds, Reconfigurations, EnergyKWh, MeanWait, MedianWait,
		MaxWait, BoundedSlowdown, Makespan, PeakPowered, Boots, Shutdowns}
	if got := Names(); !reflect.DeepEqual(got, want) {
		t.Errorf("Names() = %v, want %v", got, want)
	}
	units := map[string]bool{"ratio": true, "s": true, "node-s": true, "kWh": true, "nodes": true, "count": true}
	for _, o := range All() {
		if o.Label == "" || o.Description == "" || o.Format == "" || o.DisplayScale <= 0 || !units[o.Unit] || o.get == nil {
			t.Errorf("%s: incomplete row %+v", o.Name, o)
		}
		if got, err := Lookup(o.Name); err != nil || got.Name != o.Name {
			t.Errorf("Lookup(%s) = %v, %v", o.Name, got.Name, err)
		}
		if (o.DisplayUnit == "") != (o.Unit == "ratio" || o.Unit == "count") {
			t.Errorf("%s: display unit %q for unit %q", o.Name, o.DisplayUnit, o.Unit)
		}
	}
	if _, err := Lookup("qos_p95"); err == nil || !strings.Contains(err.Error(), QoSP90) {
		t.Errorf("Lookup(qos_p95): %v, want an error listing the known names", err)
	}
	if _, err := (Scores{}).Get("nope"); err == nil {
		t.Error("Get(nope): no error")
	}
}

// Hand-worked labels, directions and conversions.
func TestPresentation(t *testing.T) {
	tests := []struct {
		name      string
		max       bool
		heading   string
		axis      string
		raw, disp float64
		text      string
	}{
		{QoSP90, false, "p90 wait ratio", "p90 wait ratio — lower is better", 0.12345, 0.12345, "0.1235"},
		{OffNodeSeconds, true, "nodes off (node-hours)", "nodes off (node-hours) — higher is better", 7200, 2, "7200"},
		{Reconfigurations, false, "reconfigurations", "reconfigurations — lower is better", 42, 42, "42"},
		{EnergyKWh, false, "energy (kWh)", "energy (kWh) — lower is better", 52930.5, 52930.5, "52930.500"},
		{MeanWait, false, "mean wait (hours)", "mean wait (hours) — lower is better", 5400, 1.5, "5400.0"},
		{Makespan, false, "makespan (hours)", "makespan (hours) — lower is better", 86400, 24, "86400"},
	}
	for _, tc := range tests {
		o, err := Lookup(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		if Maximized(tc.name) != tc.max || (o.Direction == Maximize) != tc.max {
			t.Errorf("%s: maximized %v, want %v", tc.name, Maximized(tc.name), tc.max)
		}
		if got := o.Heading(); got != tc.heading {
			t.Errorf("%s: Heading = %q, want %q", tc.name, got, tc.heading)
		}
		if got := o.AxisLabel(); got != tc.axis {
			t.Errorf("%s: AxisLabel = %q, want %q", tc.name, got, tc.axis)
		}
		if got := o.Display(tc.raw); got != tc.disp {
			t.Errorf("%s: Display(%v) = %v, want %v", tc.name, tc.raw, got, tc.disp)
		}
		if got := o.Text(tc.raw); got != tc.text {
			t.Errorf("%s: Text(%v) = %q, want %q", tc.name, tc.raw, got, tc.text)
		}
	}
	if Maximized("nope") {
		t.Error("Maximized(nope) = true")
	}
	if Minimize.String() != "min" || Maximize.String() != "max" {
		t.Errorf("directions print %q, %q", Minimize, Maximize)
	}
}

// Help has one line per objective, each naming it with its direction.
func TestHelp(t *testing.T) {
	lines := strings.Split(Help(), "\n")
	if len(lines) != len(table) {
		t.Fatalf("Help has %d lines for %d objectives:\n%s", len(lines), len(table), Help())
	}
	for i, o := range table {
		f := strings.Fields(lines[i])
		if len(f) < 3 || f[0] != o.Name || f[1] != o.Direction.String()+"," {
			t.Errorf("line %d: %q", i, lines[i])
		}
	}
}
