package objectives

import (
	"fmt"
	"strings"
)

// Direction says which way a score is better.
type Direction int8

// The two directions.
const (
	Minimize Direction = iota // lower is better
	Maximize                  // higher is better
)

// String is "min" or "max", as the tuner's "min:"/"max:" prefixes spell it.
func (d Direction) String() string {
	if d == Maximize {
		return "max"
	}
	return "min"
}

// Better is "lower is better" or "higher is better".
func (d Direction) Better() string {
	if d == Maximize {
		return "higher is better"
	}
	return "lower is better"
}

// An Objective describes one score of Scores: the one place its name,
// unit, direction, meaning and formats are written down. Flags, JSON keys,
// front columns, report labels and presets all read the table (All).
type Objective struct {
	// Name is the score's name as flags, JSON keys, CSV headers and
	// Parquet columns spell it ("qos_p90").
	Name string
	// Label is its name for people ("p90 wait ratio").
	Label string
	// Unit is the unit of the stored value: "ratio", "s", "node-s", "kWh",
	// "nodes" or "count".
	Unit string
	// Direction is the way the score is better; the tuner optimises it so
	// unless told otherwise.
	Direction Direction
	// Description is one line on what the score measures.
	Description string
	// Format is the fmt verb that prints the stored value (as a float64)
	// in text output: "%.4f", "%.0f".
	Format string
	// DisplayUnit is the unit people read it in ("node-hours", "hours",
	// "kWh"); empty for ratios and counts.
	DisplayUnit string
	// DisplayScale converts the stored value to DisplayUnit.
	DisplayScale float64
	// Service marks a score of the service the jobs get (their waits),
	// which the clairvoyant oracle keeps at always-on's by design (it
	// starts every job when always-on does, up to backfilling under
	// EASY): a hypervolume box takes its bounds from always-on alone.
	Service bool

	get func(*Scores) float64
}

const (
	hour   = 1.0 / 3600
	counts = "%.0f"
)

// table is the objectives in the order of names.go: the order of the
// front files' columns.
var table = []Objective{
	{Name: QoSP90, Label: "p90 wait ratio", Unit: "ratio", Direction: Minimize, Format: "%.4f", DisplayScale: 1, Service: true,
		Description: "wait / run time of the job at the 90th percentile (the QoS of docs/architecture.md; a zero run counts as 1 s)",
		get:         func(s *Scores) float64 { return s.QoSP90 }},
	{Name: OffNodeSeconds, Label: "nodes off", Unit: "node-s", Direction: Maximize, Format: counts, DisplayUnit: "node-hours", DisplayScale: hour,
		Description: "time nodes spent powered off between the first submission and the last end: the energy saved",
		get:         func(s *Scores) float64 { return float64(s.OffNodeSeconds) }},
	{Name: Reconfigurations, Label: "reconfigurations", Unit: "count", Direction: Minimize, Format: counts, DisplayScale: 1,
		Description: "power-ons plus power-offs of nodes within the span",
		get:         func(s *Scores) float64 { return float64(s.Reconfigurations) }},
	{Name: EnergyKWh, Label: "energy", Unit: "kWh", Direction: Minimize, Format: "%.3f", DisplayUnit: "kWh", DisplayScale: 1,
		Description: "energy the nodes drew, from the node power model (W per state, Wh per transition)",
		get:         func(s *Scores) float64 { return s.EnergyKWh }},
	{Name: MeanWait, Label: "mean wait", Unit: "s", Direction: Minimize, Format: "%.1f", DisplayUnit: "hours", DisplayScale: hour, Service: true,
		Description: "mean time from a job's submission to its start",
		get:         func(s *Scores) float64 { return s.MeanWait }},
	{Name: MedianWait, Label: "median wait", Unit: "s", Direction: Minimize, Format: "%.1f", DisplayUnit: "hours", DisplayScale: hour, Service: true,
		Description: "median time from a job's submission to its start",
		get:         func(s *Scores) float64 { return s.MedianWait }},
	{Name: MaxWait, Label: "longest wait", Unit: "s", Direction: Minimize, Format: counts, DisplayUnit: "hours", DisplayScale: hour, Service: true,
		Description: "longest time from a job's submission to its start",
		get:         func(s *Scores) float64 { return float64(s.MaxWait) }},
	{Name: BoundedSlowdown, Label: "bounded slowdown", Unit: "ratio", Direction: Minimize, Format: "%.3f", DisplayScale: 1, Service: true,
		Description: "mean of max(1, (wait + run) / max(run, 10 s)) over the jobs",
		get:         func(s *Scores) float64 { return s.BoundedSlowdown }},
	{Name: Makespan, Label: "makespan", Unit: "s", Direction: Minimize, Format: counts, DisplayUnit: "hours", DisplayScale: hour, Service: true,
		Description: "time from the first submission to the last end",
		get:         func(s *Scores) float64 { return float64(s.Makespan) }},
	{Name: PeakPowered, Label: "peak powered nodes", Unit: "nodes", Direction: Minimize, Format: counts, DisplayUnit: "nodes", DisplayScale: 1,
		Description: "most nodes powered (booting, idle, busy or shutting down) at once",
		get:         func(s *Scores) float64 { return float64(s.PeakPowered) }},
	{Name: Boots, Label: "boots", Unit: "count", Direction: Minimize, Format: counts, DisplayScale: 1,
		Description: "node power-ons",
		get:         func(s *Scores) float64 { return float64(s.Boots) }},
	{Name: Shutdowns, Label: "shutdowns", Unit: "count", Direction: Minimize, Format: counts, DisplayScale: 1,
		Description: "node power-offs",
		get:         func(s *Scores) float64 { return float64(s.Shutdowns) }},
}

// byName indexes table.
var byName = func() map[string]int {
	m := make(map[string]int, len(table))
	for i, o := range table {
		m[o.Name] = i
	}
	return m
}()

// All returns the table of objectives, in the order of names.go (a copy
// the caller may change).
func All() []Objective { return append([]Objective(nil), table...) }

// Names lists every objective's name, in the order of All.
func Names() []string {
	out := make([]string, len(table))
	for i, o := range table {
		out[i] = o.Name
	}
	return out
}

// Lookup returns the objective called name, or an error naming the known
// ones.
func Lookup(name string) (Objective, error) {
	i, ok := byName[name]
	if !ok {
		return Objective{}, fmt.Errorf("objectives: unknown score %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	return table[i], nil
}

// Maximized reports whether the score called name is better higher; false
// for unknown names.
func Maximized(name string) bool {
	i, ok := byName[name]
	return ok && table[i].Direction == Maximize
}

// Served reports whether the score called name is a Service score; false
// for unknown names.
func Served(name string) bool {
	i, ok := byName[name]
	return ok && table[i].Service
}

// Of returns o's value in s, in o's Unit.
func (o Objective) Of(s Scores) float64 { return o.get(&s) }

// At is Of for scores the caller holds: unlike Of, which copies s to the
// heap, it allocates nothing (a tuner's evaluator reads its objectives
// after every replay).
func (o Objective) At(s *Scores) float64 { return o.get(s) }

// Display converts a value in o's Unit to its DisplayUnit.
func (o Objective) Display(v float64) float64 { return v * o.DisplayScale }

// Text prints a value in o's Unit with o's Format.
func (o Objective) Text(v float64) string { return fmt.Sprintf(o.Format, v) }

// Heading names the objective for people, with its display unit:
// "nodes off (node-hours)", "p90 wait ratio".
func (o Objective) Heading() string {
	if o.DisplayUnit == "" {
		return o.Label
	}
	return o.Label + " (" + o.DisplayUnit + ")"
}

// AxisLabel is Heading and which way is better: "p90 wait ratio — lower is
// better".
func (o Objective) AxisLabel() string { return o.Heading() + " — " + o.Direction.Better() }

// Help lists the objectives for command-line help, one a line: name,
// direction, unit and meaning.
func Help() string {
	var b strings.Builder
	for _, o := range table {
		fmt.Fprintf(&b, "  %-19s %s, %s: %s\n", o.Name, o.Direction, o.Unit, o.Description)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
