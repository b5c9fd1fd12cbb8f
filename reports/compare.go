package reports

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
	"github.com/ecotune/ecotune/tuner/scoring"
)

// An Entry is one row of a comparison: a label and the policy it runs.
type Entry struct {
	Label  string
	Config policy.Config
}

// CompareOptions control a comparison.
type CompareOptions struct {
	Sim     sim.Options // Timeline is ignored
	Workers int         // parallel simulations; 0 means GOMAXPROCS
}

// CompareRow is one policy's results, as the Grid'5000 energy-policy
// study tabulates them.
type CompareRow struct {
	Label  string             `json:"label"`
	Policy string             `json:"policy"`
	Params map[string]float64 `json:"params"`
	// BootsShutdowns is the number of power-ons plus power-offs.
	BootsShutdowns int64   `json:"boots_shutdowns"`
	EnergyKWh      float64 `json:"energy_kwh"`
	// MinimalKWh is the oracle's energy: the clairvoyant bound (nil when
	// no oracle policy is registered).
	MinimalKWh *float64 `json:"minimal_kwh"`
	// ConsumedPct is EnergyKWh as a percentage of MinimalKWh.
	ConsumedPct *float64 `json:"consumed_minimal_pct"`
	// SavedKWh is always-on's energy minus EnergyKWh.
	SavedKWh float64 `json:"saved_kwh"`
	// SavedPerSwitchKWh is SavedKWh per boot or shutdown; nil when the
	// policy switched nothing.
	SavedPerSwitchKWh *float64          `json:"saved_kwh_per_switch"`
	QoSP90            float64           `json:"qos_p90"`
	MeanWait          float64           `json:"mean_wait_s"`
	Scores            objectives.Scores `json:"scores"`
}

// Comparison is every compared policy on one trace, rows in entry order.
type Comparison struct {
	Trace       string       `json:"trace"`
	Jobs        int          `json:"jobs"`
	Nodes       int          `json:"nodes"`
	Slots       int          `json:"slots"`
	AlwaysOnKWh float64      `json:"always_on_kwh"`
	MinimalKWh  *float64     `json:"minimal_kwh"` // nil without an oracle policy
	Rows        []CompareRow `json:"rows"`
}

// DefaultEntries is every registered policy with its default parameters,
// in the registry's order.
func DefaultEntries() []Entry {
	specs := policy.All()
	out := make([]Entry, len(specs))
	for i, s := range specs {
		out[i] = Entry{Label: s.Name, Config: s.Defaults()}
	}
	return out
}

// Compare replays tr on c under every entry and tabulates the results
// against always-on and the oracle (without a registered oracle policy
// the minimal-energy columns stay empty). Everything runs in parallel,
// one simulator per worker; the rows keep the entries' order. Always-on
// and the oracle at their defaults are simulated once, whether or not
// they are also entries.
func Compare(tr *datasets.Trace, c sim.Cluster, entries []Entry, opt CompareOptions) (*Comparison, error) {
	if len(entries) == 0 {
		return nil, errors.New("reports: compare: no policy to compare")
	}
	opt.Sim.Timeline = false
	jobs := slices.Clone(entries)
	onAt := referenceIndex(&jobs, AlwaysOn)
	oracleAt := -1
	if _, err := policy.Lookup(Oracle); err == nil {
		oracleAt = referenceIndex(&jobs, Oracle)
	}
	scores, nodes, slots, err := runAll(tr, c, jobs, opt)
	if err != nil {
		return nil, err
	}
	cmp := &Comparison{
		Trace: tr.Meta.Name, Jobs: len(tr.Jobs), Nodes: nodes, Slots: slots,
		AlwaysOnKWh: scores[onAt].EnergyKWh,
	}
	if oracleAt >= 0 {
		minimal := scores[oracleAt].EnergyKWh
		cmp.MinimalKWh = &minimal
	}
	for i, e := range entries {
		cmp.Rows = append(cmp.Rows, cmp.row(e, scores[i]))
	}
	return cmp, nil
}

// referenceIndex returns the index in jobs of the policy name at its
// defaults, appending it when no job is.
func referenceIndex(jobs *[]Entry, name string) int {
	spec, _ := policy.Lookup(name)
	defaults := spec.Defaults()
	for i, e := range *jobs {
		if e.Config.Name == name && reflect.DeepEqual(spec.Fill(e.Config), defaults) {
			return i
		}
	}
	*jobs = append(*jobs, Entry{Label: name, Config: defaults})
	return len(*jobs) - 1
}

func (cmp *Comparison) row(e Entry, sc objectives.Scores) CompareRow {
	r := CompareRow{
		Label: e.Label, Policy: e.Config.Name, Params: e.Config.Params,
		BootsShutdowns: sc.Boots + sc.Shutdowns,
		EnergyKWh:      sc.EnergyKWh,
		MinimalKWh:     cmp.MinimalKWh,
		SavedKWh:       cmp.AlwaysOnKWh - sc.EnergyKWh,
		QoSP90:         sc.QoSP90,
		MeanWait:       sc.MeanWait,
		Scores:         sc,
	}
	if m := cmp.MinimalKWh; m != nil && *m > 0 {
		pct := 100 * sc.EnergyKWh / *m
		r.ConsumedPct = &pct
	}
	if r.BootsShutdowns > 0 {
		v := r.SavedKWh / float64(r.BootsShutdowns)
		r.SavedPerSwitchKWh = &v
	}
	return r
}

// runAll replays every entry with the tuner's Scorer (one simulator per
// worker); scores[i] is entry i's, and nodes and slots are the cluster's
// as the simulator saw it.
func runAll(tr *datasets.Trace, c sim.Cluster, entries []Entry, opt CompareOptions) (scores []objectives.Scores, nodes, slots int, err error) {
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	sc := scoring.NewScorer(c, opt.Sim, max(1, min(workers, len(entries))))
	defer sc.Close()
	tasks := make([]scoring.ScoreTask, len(entries))
	for i, e := range entries {
		tasks[i] = scoring.ScoreTask{Trace: tr, Config: e.Config}
	}
	scores = make([]objectives.Scores, len(entries))
	var once sync.Once
	err = sc.Replay(context.Background(), tasks, func(i int, r *sim.Result) error {
		scores[i] = objectives.Compute(r)
		once.Do(func() { nodes, slots = r.Nodes, r.Slots })
		return nil
	})
	if err != nil {
		return nil, 0, 0, fmt.Errorf("reports: compare: %w", err)
	}
	return scores, nodes, slots, nil
}

// compareHeader names the columns of Markdown and CSV output.
var compareHeader = []string{"policy", "boots+shutdowns", objectives.EnergyKWh, "minimal_kwh", "consumed_minimal_pct",
	"saved_kwh", "saved_kwh_per_switch", objectives.QoSP90, objectives.MeanWait}

func (r CompareRow) cells(f func(float64) string) []string {
	return []string{r.Label, strconv.FormatInt(r.BootsShutdowns, 10), f(r.EnergyKWh), optional(r.MinimalKWh, f),
		optional(r.ConsumedPct, f), f(r.SavedKWh), optional(r.SavedPerSwitchKWh, f), f(r.QoSP90), f(r.MeanWait)}
}

// Markdown renders the comparison as a Markdown table, kWh to two
// decimals.
func (cmp *Comparison) Markdown() []byte {
	var b bytes.Buffer
	minimal := "not available (no oracle policy)"
	if cmp.MinimalKWh != nil {
		minimal = fixed2(*cmp.MinimalKWh) + " kWh"
	}
	fmt.Fprintf(&b, "Trace %s: %d jobs on %d nodes (%d slots); always-on %.2f kWh, oracle (minimal) %s.\n\n",
		cmp.Trace, cmp.Jobs, cmp.Nodes, cmp.Slots, cmp.AlwaysOnKWh, minimal)
	rows := make([][]string, len(cmp.Rows))
	for i, r := range cmp.Rows {
		rows[i] = r.cells(fixed2)
	}
	writeMarkdownTable(&b, compareHeader, rows)
	return b.Bytes()
}

func fixed2(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

// CSV renders the comparison with every digit.
func (cmp *Comparison) CSV() ([]byte, error) {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	rows := [][]string{compareHeader}
	for _, r := range cmp.Rows {
		rows = append(rows, r.cells(full))
	}
	if err := w.WriteAll(rows); err != nil {
		return nil, fmt.Errorf("reports: compare csv: %w", err)
	}
	return b.Bytes(), nil
}

// A Sweep runs one parameter over a range of values: From, From+Step, ...
// up to To.
type Sweep struct {
	Name           string
	From, To, Step float64
}

// maxSweep bounds the number of values of a sweep.
const maxSweep = 10000

// ParseSweep reads name=from:to:step.
func ParseSweep(s string) (Sweep, error) {
	name, rng, ok := strings.Cut(s, "=")
	parts := strings.Split(rng, ":")
	if !ok || name == "" || len(parts) != 3 {
		return Sweep{}, fmt.Errorf("reports: sweep %q: want name=from:to:step", s)
	}
	var v [3]float64
	for i, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || !finite(f) {
			return Sweep{}, fmt.Errorf("reports: sweep %q: %q is not a number", s, p)
		}
		v[i] = f
	}
	sw := Sweep{Name: strings.TrimSpace(name), From: v[0], To: v[1], Step: v[2]}
	switch {
	case sw.Step <= 0:
		return Sweep{}, fmt.Errorf("reports: sweep %q: step must be positive", s)
	case sw.To < sw.From:
		return Sweep{}, fmt.Errorf("reports: sweep %q: to is below from", s)
	case (sw.To-sw.From)/sw.Step >= maxSweep:
		return Sweep{}, fmt.Errorf("reports: sweep %q: more than %d values", s, maxSweep)
	}
	vs := sw.Values()
	for i := 1; i < len(vs); i++ {
		if vs[i] <= vs[i-1] {
			return Sweep{}, fmt.Errorf("reports: sweep %q: step too small for the precision of the values", s)
		}
	}
	return sw, nil
}

// Values lists the swept values: From + i·Step for i = 0, 1, ... while
// not above To (within rounding).
func (sw Sweep) Values() []float64 {
	n := int(math.Floor((sw.To-sw.From)/sw.Step+1e-9)) + 1
	vs := make([]float64, n)
	for i := range vs {
		vs[i] = sw.From + float64(i)*sw.Step
	}
	return vs
}

// Entries expands base over the sweep: every entry whose policy has the
// swept parameter becomes one entry per value, labelled "label
// name=value"; the others stay as they are, as references. It fails if
// no entry has the parameter.
func (sw Sweep) Entries(base []Entry) ([]Entry, error) {
	var out []Entry
	swept := false
	for _, e := range base {
		spec, err := policy.Lookup(e.Config.Name)
		if err != nil {
			return nil, fmt.Errorf("reports: sweep: %w", err)
		}
		if _, ok := spec.Param(sw.Name); !ok {
			out = append(out, e)
			continue
		}
		swept = true
		for _, v := range sw.Values() {
			c := spec.Fill(e.Config)
			params := make(map[string]float64, len(c.Params))
			for k, x := range c.Params {
				params[k] = x
			}
			params[sw.Name] = v
			c.Params = params
			out = append(out, Entry{Label: fmt.Sprintf("%s %s=%s", e.Label, sw.Name, num(v)), Config: c})
		}
	}
	if !swept {
		return nil, fmt.Errorf("reports: sweep: no compared policy has a parameter %q", sw.Name)
	}
	return out, nil
}
