package reports

import (
	"fmt"
	"github.com/ecotune/ecotune/tuner"
	"slices"
	"strconv"
	"strings"

	"github.com/ecotune/ecotune/fuzzy"
	"github.com/ecotune/ecotune/objectives"
)

// A table is one table of a report, rendered as HTML, Markdown or CSV.
type table struct {
	ID      string
	Caption string
	Header  []string
	Rows    [][]string
}

// full formats a number with every digit (CSV).
func full(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// objectiveNames returns the names of the run's objectives.
func (rep *Report) objectiveNames() []string { return rep.Run.objectiveNames() }

// scoreCols are the score columns of a table. For programs (human false)
// a column is named SPLIT_NAME and holds the score in its own unit; for
// people it is headed "SPLIT HEADING" and holds the score in its display
// unit (node-hours, hours, kWh), both from the table of objectives.
type scoreCols struct {
	names []string
	human bool
}

// header names the columns of one split ("train", "test").
func (c scoreCols) header(split string) []string {
	out := make([]string, len(c.names))
	for i, n := range c.names {
		out[i] = split + "_" + n
		if o, err := objectives.Lookup(n); err == nil && c.human {
			out[i] = split + " " + o.Heading()
		}
	}
	return out
}

// cells formats the scores of sc ("" for every one when sc is nil).
func (c scoreCols) cells(sc *objectives.Scores, f func(float64) string) []string {
	cells := make([]string, len(c.names))
	if sc == nil {
		return cells
	}
	for i, n := range c.names {
		v, err := sc.Get(n)
		if err != nil {
			continue
		}
		if o, err := objectives.Lookup(n); err == nil && c.human {
			v = o.Display(v)
		}
		cells[i] = f(v)
	}
	return cells
}

// holdoutTable is the holdout report: each preset's objectives on the
// training and the test split, its energy, the saving against always-on
// and the distance to the oracle. For people (machine false) numbers are
// rounded and an infeasible preset reads INFEASIBLE; for programs every
// digit is kept and feasibility is true or false.
func (rep *Report) holdoutTable(machine bool) table {
	if !machine {
		return rep.holdoutTableForPeople()
	}
	f, feasible := num, feasibleText
	if machine {
		f, feasible = full, strconv.FormatBool
	}
	cols := scoreCols{withWaits(rep.objectiveNames()), !machine}
	header := []string{"preset", "bound", "relative", "resolved_bound", "feasible", "feasible_test", "row"}
	header = append(header, cols.header("train")...)
	header = append(header, cols.header("test")...)
	header = append(header, "energy_split", "energy_kwh", "saved_kwh", "saved_pct", "above_oracle_kwh")
	header = append(header, "hindsight_row", "hindsight_feasible_test")
	header = append(header, cols.header("hindsight_test")...)
	t := table{ID: "holdout", Caption: "Holdout: presets on the training and the test split", Header: header}
	for _, h := range rep.Holdout {
		feasibleTest := "" // no test split, or a run written before it was recorded
		if h.FeasibleTest != nil {
			feasibleTest = feasible(*h.FeasibleTest)
		}
		row := []string{h.Preset, f(h.Bound), strconv.FormatBool(h.Relative), f(h.Resolved), feasible(h.Feasible), feasibleTest, strconv.Itoa(h.Row)}
		row = append(row, cols.cells(&h.Train, f)...)
		row = append(row, cols.cells(h.Test, f)...)
		row = append(row, h.EnergySplit, f(h.KWh), optional(h.SavedKWh, f), optional(h.SavedPct, f), optional(h.AboveOracleKWh, f))
		hindRow, hindFeasible := "", ""
		if h.HindsightRow != nil {
			hindRow, hindFeasible = strconv.Itoa(*h.HindsightRow), feasible(*h.HindsightFeasible)
		}
		row = append(row, hindRow, hindFeasible)
		row = append(row, cols.cells(h.HindsightTest, f)...)
		t.Rows = append(t.Rows, row)
	}
	return t
}

// holdoutTableForPeople is the holdout table narrow enough for a page:
// the bound in one column, each objective's train and test scores in one
// cell ("train / test", display units), the energy figures headed in kWh
// (their split is named above the table).
func (rep *Report) holdoutTableForPeople() table {
	names := withWaits(rep.objectiveNames())
	header := []string{"preset", "bound on p90 wait ratio", "feasible, train / test", "row"}
	for _, n := range names {
		h := n
		if o, err := objectives.Lookup(n); err == nil {
			h = o.Heading()
		}
		header = append(header, h+", train / test")
	}
	header = append(header, "energy (kWh)", "saved (kWh)", "saved (%)", "above oracle (kWh)", "hindsight on test")
	t := table{ID: "holdout", Caption: "Holdout: presets on the training and the test split", Header: header}
	train, test := scoreCols{names, true}, scoreCols{names, true}
	for _, h := range rep.Holdout {
		bound := num(h.Resolved)
		switch {
		case h.Preset == "knee": // no bound: the front's knee
			bound = "– (knee)"
		case h.Relative:
			bound = fmt.Sprintf("always-on + %s = %s", num(h.Bound), num(h.Resolved))
		}
		feasible := feasibleText(h.Feasible)
		if h.FeasibleTest != nil {
			feasible += " / " + feasibleText(*h.FeasibleTest)
		}
		row := []string{h.Preset, bound, feasible, strconv.Itoa(h.Row)}
		tr, te := train.cells(&h.Train, num), test.cells(h.Test, num)
		for i := range tr {
			cell := tr[i]
			if h.Test != nil {
				cell += " / " + te[i]
			}
			row = append(row, cell)
		}
		row = append(row, num(h.KWh), optional(h.SavedKWh, num), optional(h.SavedPct, pct), optional(h.AboveOracleKWh, num), hindsightText(h))
		t.Rows = append(t.Rows, row)
	}
	return t
}

// pct formats a percentage to one decimal.
func pct(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// withWaits is names with the mean and the longest wait added when
// missing: a comparison of power policies shows what happens to waits
// beside qos_p90 (a policy's rule can change the schedule).
func withWaits(names []string) []string {
	out := slices.Clone(names)
	for _, w := range []string{objectives.MeanWait, objectives.MaxWait} {
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// optional formats *v, or "" when v is nil (a figure the run lacks).
func optional(v *float64, f func(float64) string) string {
	if v == nil {
		return ""
	}
	return f(*v)
}

func feasibleText(ok bool) string {
	if ok {
		return "yes"
	}
	return "INFEASIBLE"
}

// referencesTable lists the fixed policies evaluated on the same splits.
func (rep *Report) referencesTable() table {
	names := append(rep.objectiveNames(), objectives.EnergyKWh)
	cols := scoreCols{slices.Compact(names), true}
	header := append([]string{"reference", "policy"}, cols.header("train")...)
	header = append(header, cols.header("test")...)
	t := table{ID: "references", Caption: "References evaluated on the same splits", Header: header}
	refs := rep.Run.Meta.References
	for _, k := range sortedKeys(refs) {
		ref := refs[k]
		row := append([]string{k, ref.Config.Name}, cols.cells(&ref.Train, num)...)
		t.Rows = append(t.Rows, append(row, cols.cells(ref.Test, num)...))
	}
	return t
}

// frontTable lists every solution of the front: its parameters and
// objectives.
func (rep *Report) frontTable() table {
	fr := rep.Run.Front
	cols := scoreCols{rep.objectiveNames(), true}
	header := append([]string{"row", "rank", "presets"}, fr.ParamNames...)
	header = append(header, cols.header("train")...)
	header = append(header, cols.header("test")...)
	t := table{ID: "front", Caption: fmt.Sprintf("Front of %s: %d solutions", fr.Policy, len(fr.Solutions)), Header: header}
	for i, s := range fr.Solutions {
		row := []string{strconv.Itoa(i), strconv.Itoa(s.Rank), strings.Join(s.Presets, " ")}
		for _, p := range fr.ParamNames {
			row = append(row, num(s.Config.Params[p]))
		}
		row = append(row, cols.cells(&s.Train, num)...)
		t.Rows = append(t.Rows, append(row, cols.cells(s.Test, num)...))
	}
	return t
}

// solutionTable lists the picked solution's parameters.
func (rep *Report) solutionTable() table {
	c := rep.Solution.Config
	t := table{ID: "solution", Caption: fmt.Sprintf("Picked solution: %s, %s", c.Name, rep.Pick.Label), Header: []string{"parameter", "value"}}
	for _, k := range sortedKeys(c.Params) {
		t.Rows = append(t.Rows, []string{k, num(c.Params[k])})
	}
	if c.Fuzzy != nil {
		t.Rows = append(t.Rows, []string{"fuzzy rules", strconv.Itoa(len(c.Fuzzy.Rules))})
	}
	return t
}

// runTable describes the run.
func (rep *Report) runTable() table {
	m := rep.Run.Meta
	nodes, slots := 0, 0
	cl, _ := tuner.ClusterOf(m) // LoadRun checked it
	for _, g := range cl.Groups {
		nodes += g.Count
		slots += g.Count * g.Slots
	}
	rows := [][]string{
		{"policy", m.Policy},
		{"trace", m.Trace},
		{"trace sha256", m.TraceSHA256},
		{"split", m.Split.String()},
		{"cluster", fmt.Sprintf("%s: %d nodes, %d slots", cl.Name, nodes, slots)},
		{"scheduler", m.Scheduler},
		{"seed", strconv.FormatInt(m.Seed, 10)},
		{"evaluations", strconv.Itoa(m.Evaluations)},
		{"generations", strconv.Itoa(m.Generations)},
		{"wall time (s)", num(m.WallSeconds)},
		{"ecotune version", m.Version},
		{"command", strings.Join(m.Command, " ")},
	}
	for _, k := range []string{"train", "test"} {
		if v, ok := m.Hypervolume[k]; ok {
			rows = append(rows, []string{"hypervolume (" + k + ")", num(v)})
		}
	}
	return table{ID: "run", Caption: "Run", Header: []string{"", ""}, Rows: rows}
}

// replayTable gives the figures of the picked solution's re-simulation.
func (rep *Report) replayTable() table {
	r := rep.Replay
	sc := objectives.Compute(r)
	rows := [][]string{
		{"span", utc(r.TIni) + " to " + utc(r.TEnd)},
		{"jobs", strconv.Itoa(len(r.Jobs))},
	}
	for _, n := range []string{objectives.QoSP90, objectives.OffNodeSeconds, objectives.Reconfigurations, objectives.EnergyKWh, objectives.Boots, objectives.Shutdowns} {
		o, err := objectives.Lookup(n)
		if err != nil {
			continue // not reached: the names are the table's own
		}
		rows = append(rows, []string{o.Heading(), num(o.Display(o.Of(sc)))})
	}
	rows = append(rows,
		[]string{"node-state window", utc(rep.From) + " to " + utc(rep.To)},
		[]string{"reproduces the run's scores", rep.reproduces(sc)})
	return table{ID: "replay", Caption: "Re-simulation of the picked solution on the " + rep.replaySplit(), Header: []string{"", ""}, Rows: rows}
}

// reproduces says whether the replay's scores are the run's scores of the
// picked solution on the objectives, naming the first that differs.
func (rep *Report) reproduces(sc objectives.Scores) string {
	want := rep.Solution.Test
	if want == nil {
		return "no test scores in the run to compare with"
	}
	for _, n := range rep.objectiveNames() {
		got, _ := sc.Get(n)
		w, _ := want.Get(n)
		if got != w {
			return fmt.Sprintf("NO: %s is %s in the replay, %s in the run", n, full(got), full(w))
		}
	}
	return "yes"
}

// detailTables are the tables after the figures: the objectives, the
// run, the references, the picked solution (and its learned rules) and
// the whole front.
func (rep *Report) detailTables() []table {
	ts := []table{rep.objectivesTable(), rep.runTable(), rep.referencesTable(), rep.solutionTable()}
	if rep.Solution.Config.Fuzzy != nil {
		ts = append(ts, rep.rulesTable())
	}
	return append(ts, rep.frontTable())
}

// rulesTable prints the picked solution's learned fuzzy rules as text,
// leaving out the rules the search switched off.
func (rep *Report) rulesTable() table {
	fz := rep.Solution.Config.Fuzzy
	t := table{ID: "rules", Header: []string{"rule", "text"}}
	for i, r := range fz.Rules {
		if r.Then == fuzzy.NoRule {
			continue
		}
		t.Rows = append(t.Rows, []string{strconv.Itoa(i), fz.RuleText(r)})
	}
	t.Caption = fmt.Sprintf("Learned rules of the picked solution: %d active of %d", len(t.Rows), len(fz.Rules))
	return t
}

// objectivesTable explains the scores the tables show: the run's
// objectives (in the direction the run optimised them) and energy, each
// with its heading, which way is better, its unit in run.json and the
// front files, and what it measures (from the table of objectives).
func (rep *Report) objectivesTable() table {
	t := table{ID: "objectives", Caption: "Objectives", Header: []string{"objective", "shown as", "better", "unit in the run files", "meaning"}}
	add := func(name string, d objectives.Direction) {
		o, err := objectives.Lookup(name)
		if err != nil {
			t.Rows = append(t.Rows, []string{name, name, d.Better(), "", ""})
			return
		}
		t.Rows = append(t.Rows, []string{o.Name, o.Heading(), d.Better(), o.Unit, o.Description})
	}
	energy := false
	for _, o := range rep.Run.Front.Objectives {
		d := objectives.Minimize
		if o.Maximize {
			d = objectives.Maximize
		}
		add(o.Name, d)
		energy = energy || o.Name == objectives.EnergyKWh
	}
	if !energy {
		add(objectives.EnergyKWh, objectives.Minimize)
	}
	return t
}

// replayTableIf is the replay table, or an empty one without a replay.
func (rep *Report) replayTableIf() table {
	if rep.Replay == nil {
		return table{}
	}
	return rep.replayTable()
}

// tables returns the report's tables in reading order.
func (rep *Report) tables() []table {
	ts := []table{rep.holdoutTable(false)}
	if rep.Replay != nil {
		ts = append(ts, rep.replayTable())
		ts = append(ts, rep.breakdownTables()...)
	}
	return append(ts, rep.detailTables()...)
}

// hindsightText is the row a preset would have chosen on the test split
// and whether it meets the bound there ("row 7, feasible"), or "" when
// the run records none.
func hindsightText(h HoldoutRow) string {
	if h.HindsightRow == nil {
		return ""
	}
	return fmt.Sprintf("row %d, %s", *h.HindsightRow, feasibleText(*h.HindsightFeasible))
}
