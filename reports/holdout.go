package reports

import (
	"strconv"

	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/tuner"
)

// Reference names a run's References map is expected to hold.
const (
	AlwaysOn = "always-on"
	Oracle   = "oracle"
)

// HoldoutRow is one preset of a run, scored on the training and the test
// split. Energy figures (KWh, SavedKWh, SavedPct, AboveOracleKWh) are on
// the test split when the run has one, else on the training split.
type HoldoutRow struct {
	Preset   string  `json:"preset"`
	Bound    float64 `json:"bound"`
	Relative bool    `json:"relative"`
	Resolved float64 `json:"resolved"`
	Feasible bool    `json:"feasible"` // on the train split
	// FeasibleTest is whether the pick meets the bound, resolved on the
	// test split, there (nil: no test split, or an older run).
	FeasibleTest *bool              `json:"feasible_test,omitempty"`
	Row          int                `json:"row"`
	Train        objectives.Scores  `json:"train"`
	Test         *objectives.Scores `json:"test,omitempty"`
	// KWh is the energy of the solution.
	KWh float64 `json:"energy_kwh"`
	// SavedKWh is always-on's energy minus KWh; SavedPct is it as a
	// percentage of always-on's. Nil when the run has no always-on
	// reference on that split.
	SavedKWh *float64 `json:"saved_kwh"`
	SavedPct *float64 `json:"saved_pct"`
	// AboveOracleKWh is KWh minus the oracle's energy: the distance to
	// the clairvoyant bound (nil when the run has no oracle reference).
	AboveOracleKWh *float64 `json:"above_oracle_kwh"`
	// EnergySplit says which split the energy figures are on.
	EnergySplit string `json:"energy_split"`
	// HindsightRow is the front member the preset would have chosen on
	// the test split, HindsightFeasible whether it meets the bound there,
	// HindsightTest its test scores (run.PresetChoice.HindsightRow; nil:
	// no test split, or an older run).
	HindsightRow      *int               `json:"hindsight_row,omitempty"`
	HindsightFeasible *bool              `json:"hindsight_feasible_test,omitempty"`
	HindsightTest     *objectives.Scores `json:"hindsight_test,omitempty"`
}

// Holdout builds the holdout table: one row per preset of the run, in the
// order the tuner resolved them. A run without presets gives one row per
// rank-0 solution, labelled by row.
func Holdout(r *Run) []HoldoutRow {
	if len(r.Meta.Presets) == 0 {
		return holdoutByRow(r)
	}
	rows := make([]HoldoutRow, 0, len(r.Meta.Presets))
	for _, p := range r.Meta.Presets {
		row := holdoutRow(r, p.Row)
		row.Preset, row.Bound, row.Relative = p.Name, p.Bound, p.Relative
		row.Resolved, row.Feasible, row.FeasibleTest = p.Resolved, p.Feasible, p.FeasibleTest
		if h := p.HindsightRow; h != nil && *h >= 0 && *h < len(r.Front.Solutions) && p.HindsightFeasible != nil {
			row.HindsightRow, row.HindsightFeasible, row.HindsightTest = h, p.HindsightFeasible, r.Front.Solutions[*h].Test
		}
		rows = append(rows, row)
	}
	return rows
}

func holdoutByRow(r *Run) []HoldoutRow {
	var rows []HoldoutRow
	for i, s := range r.Front.Solutions {
		if s.Rank != 0 {
			continue
		}
		row := holdoutRow(r, i)
		row.Preset, row.Feasible = "row "+strconv.Itoa(i), true
		rows = append(rows, row)
	}
	return rows
}

func holdoutRow(r *Run, i int) HoldoutRow {
	s := r.Front.Solutions[i]
	row := HoldoutRow{Row: i, Train: s.Train, Test: s.Test}
	eval, split := s.Train, "train"
	if s.Test != nil {
		eval, split = *s.Test, "test"
	}
	row.KWh, row.EnergySplit = eval.EnergyKWh, split
	if on, ok := referenceOn(r.Meta, AlwaysOn, split); ok {
		saved := on.EnergyKWh - eval.EnergyKWh
		row.SavedKWh = &saved
		if on.EnergyKWh > 0 {
			pct := 100 * saved / on.EnergyKWh
			row.SavedPct = &pct
		}
	}
	if or, ok := referenceOn(r.Meta, Oracle, split); ok {
		above := eval.EnergyKWh - or.EnergyKWh
		row.AboveOracleKWh = &above
	}
	return row
}

// referenceOn returns the scores of reference name on split ("train" or
// "test").
func referenceOn(m *tuner.RunMeta, name, split string) (objectives.Scores, bool) {
	ref, ok := m.References[name]
	if !ok {
		return objectives.Scores{}, false
	}
	if split == "test" {
		if ref.Test == nil {
			return objectives.Scores{}, false
		}
		return *ref.Test, true
	}
	return ref.Train, true
}
