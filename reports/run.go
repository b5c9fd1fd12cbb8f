package reports

import (
	"fmt"
	"strconv"

	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/tuner"
)

// Run is a tuning run directory as reports read it.
type Run struct {
	Dir   string
	Meta  *tuner.RunMeta
	Front *tuner.Front
}

// LoadRun reads the run directory dir (run.json and front.json).
func LoadRun(dir string) (*Run, error) {
	root, err := run.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("reports: run %s: %w", dir, err)
	}
	defer root.Close()
	return loadRun(root)
}

// loadRun reads the run directory root (run.json and front.json).
func loadRun(root *run.Root) (*Run, error) {
	dir := root.Path()
	m, f, err := root.Load()
	if err != nil {
		return nil, fmt.Errorf("reports: run %s: %w", dir, err)
	}
	r := &Run{Dir: dir, Meta: m, Front: f}
	if err := r.check(); err != nil {
		return nil, fmt.Errorf("reports: run %s: %w", dir, err)
	}
	return r, nil
}

// check rejects run directories whose files disagree with each other.
func (r *Run) check() error {
	if len(r.Front.Solutions) == 0 {
		return fmt.Errorf("%s: front has no solution", tuner.FrontJSON)
	}
	if len(r.Front.Objectives) < 2 {
		return fmt.Errorf("%s: front has %d objectives, need at least 2", tuner.FrontJSON, len(r.Front.Objectives))
	}
	for _, o := range r.Front.Objectives {
		if _, err := (objectives.Scores{}).Get(o.Name); err != nil {
			return fmt.Errorf("%s: objective %q: %w", tuner.FrontJSON, o.Name, err)
		}
	}
	if _, err := tuner.ClusterOf(r.Meta); err != nil {
		return fmt.Errorf("%s: %w", tuner.RunJSON, err)
	}
	for _, p := range r.Meta.Presets {
		if p.Row < 0 || p.Row >= len(r.Front.Solutions) {
			return fmt.Errorf("%s: preset %q: row %d outside the front's %d solutions", tuner.RunJSON, p.Name, p.Row, len(r.Front.Solutions))
		}
	}
	return nil
}

// objectiveNames returns the names of the run's objectives, in order.
func (r *Run) objectiveNames() []string {
	names := make([]string, len(r.Front.Objectives))
	for i, o := range r.Front.Objectives {
		names[i] = o.Name
	}
	return names
}

// A Pick is one chosen solution of a front.
type Pick struct {
	Label  string              // preset name, or "row N"
	Row    int                 // index in Front.Solutions
	Preset *tuner.PresetChoice // nil when picked by row
}

// Pick resolves what --pick names: a preset name (qos0.1, knee, ...) or a
// row index of the front. An empty name picks the first feasible preset,
// else the first preset, else row 0.
func (r *Run) Pick(name string) (Pick, error) {
	if name == "" {
		return r.defaultPick(), nil
	}
	for i := range r.Meta.Presets {
		if p := &r.Meta.Presets[i]; p.Name == name {
			return Pick{Label: p.Name, Row: p.Row, Preset: p}, nil
		}
	}
	row, err := strconv.Atoi(name)
	if err != nil {
		return Pick{}, fmt.Errorf("reports: pick %q: neither a preset (%s) nor a row number", name, r.presetNames())
	}
	if row < 0 || row >= len(r.Front.Solutions) {
		return Pick{}, fmt.Errorf("reports: pick %q: row outside 0..%d", name, len(r.Front.Solutions)-1)
	}
	return Pick{Label: "row " + name, Row: row}, nil
}

func (r *Run) defaultPick() Pick {
	for i := range r.Meta.Presets {
		if p := &r.Meta.Presets[i]; p.Feasible {
			return Pick{Label: p.Name, Row: p.Row, Preset: p}
		}
	}
	if len(r.Meta.Presets) > 0 {
		p := &r.Meta.Presets[0]
		return Pick{Label: p.Name, Row: p.Row, Preset: p}
	}
	return Pick{Label: "row 0", Row: 0}
}

func (r *Run) presetNames() string {
	if len(r.Meta.Presets) == 0 {
		return "the run has none"
	}
	s := ""
	for i, p := range r.Meta.Presets {
		if i > 0 {
			s += ", "
		}
		s += p.Name
	}
	return s
}
