package summary

import (
	"encoding/csv"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/objectives"
	rundir "github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/tuner/scoring"
)

// Files TuneWindows writes into its directory, beside window-1 … window-K.
const (
	WindowsJSON = rundir.WindowsJSON
	WindowsCSV  = "windows.csv"
)

// WindowScores are the test scores the windows summary gives for every
// preset pick and reference.
var WindowScores = []string{objectives.QoSP90, objectives.OffNodeSeconds, objectives.Reconfigurations}

// WindowDir is the run directory of window k (1-based) inside a
// TuneWindows directory.
func WindowDir(k int) string { return fmt.Sprintf("window-%d", k) }

// WindowsSummary is DIR/windows.json: every window's split, search and
// test figures, then their mean and standard deviation across windows.
type WindowsSummary struct {
	Policy      string   `json:"policy"`
	Trace       string   `json:"trace"`
	TraceSHA256 string   `json:"trace_sha256"`
	Seed        int64    `json:"seed"` // shared by every window
	Jobs        int      `json:"jobs"` // of the whole trace
	Windows     int      `json:"windows"`
	Scores      []string `json:"scores"`  // WindowScores
	Presets     []string `json:"presets"` // in the order of each window's picks
	PerWindow   []Window `json:"per_window"`
	// Mean and SD (sample standard deviation, n − 1) across the windows;
	// absent while the run is interrupted.
	Mean *WindowStats `json:"mean,omitempty"`
	SD   *WindowStats `json:"sd,omitempty"`
	// Interrupted: PerWindow holds only the finished windows; --resume
	// continues.
	Interrupted bool `json:"interrupted,omitempty"`
}

// Window is one window of a rolling-origin validation: tuned on one
// block, tested on the next.
type Window struct {
	K                int     `json:"k"`   // 1-based
	Dir              string  `json:"dir"` // its run directory, relative to the summary's
	Train            Block   `json:"train"`
	Test             Block   `json:"test"`
	Evaluations      int     `json:"evaluations"`
	Generations      int     `json:"generations"`
	TrainHypervolume float64 `json:"train_hypervolume"` // in the window's own train box (run.json)
	TestHypervolume  float64 `json:"test_hypervolume"`  // in the window's own test box (run.json)
	Presets          []Pick  `json:"presets"`
	// References are the test scores of always-on and the oracle (the
	// hypervolume box) on the window's test block.
	References map[string]map[string]float64 `json:"references"`
}

// Block is a run of consecutive jobs of the trace.
type Block struct {
	FromJob int    `json:"from_job"` // index of its first job (0-based, submit order)
	ToJob   int    `json:"to_job"`   // one past its last job
	FromS   int64  `json:"from_s"`   // submit time of its first job (Unix s)
	ToS     int64  `json:"to_s"`     // submit time of its last job (Unix s)
	SHA256  string `json:"jobs_sha256"`
}

// Pick is a preset's choice in one window, with its test scores.
type Pick struct {
	Name     string             `json:"name"`
	Row      int                `json:"row"` // in the window's front.json
	Feasible bool               `json:"feasible"`
	Test     map[string]float64 `json:"test,omitempty"` // WindowScores on the test block
}

// WindowStats are a statistic of the windows' test figures.
type WindowStats struct {
	TestHypervolume float64     `json:"test_hypervolume"`
	Presets         []PickStats `json:"presets"`
}

// PickStats is a statistic of one preset's picks' test scores.
type PickStats struct {
	Name string             `json:"name"`
	Test map[string]float64 `json:"test"`
}

// ReadWindows completes head (its Policy, Trace, TraceSHA256, Seed,
// Windows and Interrupted set) into the summary of the TuneWindows
// directory dir: jobs are the whole trace's, bounds cut the blocks of the
// finished windows (window k trains on [bounds[k−1], bounds[k]) and tests
// on [bounds[k], bounds[k+1])), whose run.json and front.json are read.
func ReadWindows(dir string, head WindowsSummary, jobs []datasets.Job, bounds []int) (*WindowsSummary, error) {
	s := &head
	s.Jobs, s.Scores, s.PerWindow = len(jobs), WindowScores, []Window{}
	for k := 1; k+1 < len(bounds); k++ {
		w, err := readWindow(dir, jobs, k, bounds)
		if err != nil {
			return nil, err
		}
		s.PerWindow = append(s.PerWindow, w)
	}
	if len(s.PerWindow) > 0 {
		for _, p := range s.PerWindow[0].Presets {
			s.Presets = append(s.Presets, p.Name)
		}
	}
	if !s.Interrupted {
		s.Mean, s.SD = windowStats(s.PerWindow, s.Presets)
	}
	return s, nil
}

// readWindow is window k's entry, from its run.json and front.json.
func readWindow(root string, jobs []datasets.Job, k int, bounds []int) (Window, error) {
	dir := WindowDir(k)
	m, f, err := rundir.Load(filepath.Join(root, dir))
	if err != nil {
		return Window{}, err
	}
	w := Window{
		K:                k,
		Dir:              dir,
		Train:            block(jobs, bounds[k-1], bounds[k]),
		Test:             block(jobs, bounds[k], bounds[k+1]),
		Evaluations:      m.Evaluations,
		Generations:      m.Generations,
		TrainHypervolume: m.Hypervolume["train"],
		TestHypervolume:  m.Hypervolume["test"],
		References:       map[string]map[string]float64{},
	}
	for _, ch := range m.Presets {
		p := Pick{Name: ch.Name, Row: ch.Row, Feasible: ch.Feasible}
		if ch.Row >= 0 && ch.Row < len(f.Solutions) && f.Solutions[ch.Row].Test != nil {
			if p.Test, err = scoreMap(*f.Solutions[ch.Row].Test); err != nil {
				return Window{}, err
			}
		}
		w.Presets = append(w.Presets, p)
	}
	for name, r := range m.References {
		if r.Test == nil {
			continue
		}
		if w.References[name], err = scoreMap(*r.Test); err != nil {
			return Window{}, err
		}
	}
	return w, nil
}

// block describes jobs [i, j).
func block(jobs []datasets.Job, i, j int) Block {
	return Block{FromJob: i, ToJob: j, FromS: jobs[i].Submit, ToS: jobs[j-1].Submit, SHA256: scoring.JobsDigest(jobs[i:j])}
}

// scoreMap is the WindowScores of sc.
func scoreMap(sc objectives.Scores) (map[string]float64, error) {
	m := make(map[string]float64, len(WindowScores))
	for _, name := range WindowScores {
		v, err := sc.Get(name)
		if err != nil {
			return nil, err
		}
		m[name] = v
	}
	return m, nil
}

// windowStats are the mean and sample standard deviation of the windows'
// test hypervolumes and of each preset's picks' test scores (over the
// windows where the preset picked a solution; the standard deviation of
// fewer than two values is 0).
func windowStats(ws []Window, presets []string) (mean, sd *WindowStats) {
	mean, sd = &WindowStats{}, &WindowStats{}
	hv := make([]float64, len(ws))
	for i, w := range ws {
		hv[i] = w.TestHypervolume
	}
	mean.TestHypervolume, sd.TestHypervolume = scoring.MeanSD(hv)
	for pi, name := range presets {
		pm, ps := PickStats{Name: name, Test: map[string]float64{}}, PickStats{Name: name, Test: map[string]float64{}}
		for _, score := range WindowScores {
			var xs []float64
			for _, w := range ws {
				if pi < len(w.Presets) && w.Presets[pi].Test != nil {
					xs = append(xs, w.Presets[pi].Test[score])
				}
			}
			pm.Test[score], ps.Test[score] = scoring.MeanSD(xs)
		}
		mean.Presets = append(mean.Presets, pm)
		sd.Presets = append(sd.Presets, ps)
	}
	return mean, sd
}

// WriteWindows writes windows.json and windows.csv into dir, atomically.
func WriteWindows(dir string, s *WindowsSummary) error {
	if err := writeJSON(filepath.Join(dir, WindowsJSON), s); err != nil {
		return err
	}
	return writeAtomic(filepath.Join(dir, WindowsCSV), func(f io.Writer) error {
		w := csv.NewWriter(f)
		if err := w.WriteAll(s.Table()); err != nil {
			return err
		}
		return w.Error()
	})
}

// Table is windows.csv: a header, one row per window, then the rows mean
// and sd (k column) with the test hypervolume and the picks' test scores.
// Preset columns are PRESET.row, PRESET.feasible and PRESET.SCORE for each
// of WindowScores; reference columns REFERENCE.SCORE (test block).
func (s *WindowsSummary) Table() [][]string {
	refs := s.referenceNames()
	head := slices.Clone(windowColumns)
	for _, p := range s.Presets {
		head = append(head, p+".row", p+".feasible")
		for _, sc := range s.Scores {
			head = append(head, p+"."+sc)
		}
	}
	for _, r := range refs {
		for _, sc := range s.Scores {
			head = append(head, r+"."+sc)
		}
	}
	rows := [][]string{head}
	for _, w := range s.PerWindow {
		row := []string{strconv.Itoa(w.K), itoa(w.Train.FromJob), itoa(w.Train.ToJob), itoa(w.Test.FromJob), itoa(w.Test.ToJob),
			i64(w.Train.FromS), i64(w.Train.ToS), i64(w.Test.FromS), i64(w.Test.ToS), itoa(w.Evaluations), itoa(w.Generations),
			ftoa(w.TrainHypervolume), ftoa(w.TestHypervolume)}
		for _, p := range w.Presets {
			row = append(row, itoa(p.Row), strconv.FormatBool(p.Feasible))
			row = append(row, scoreCells(p.Test, s.Scores)...)
		}
		for _, r := range refs {
			row = append(row, scoreCells(w.References[r], s.Scores)...)
		}
		rows = append(rows, row)
	}
	for _, st := range s.stats() {
		row := make([]string, len(head))
		at := len(windowColumns)
		row[0], row[at-1] = st.name, ftoa(st.v.TestHypervolume)
		for _, p := range st.v.Presets {
			copy(row[at+2:], scoreCells(p.Test, s.Scores))
			at += 2 + len(s.Scores)
		}
		rows = append(rows, row)
	}
	return rows
}

// windowColumns are the first columns of windows.csv; the last is the
// test hypervolume.
var windowColumns = []string{"k", "train_from_job", "train_to_job", "test_from_job", "test_to_job",
	"train_from_s", "train_to_s", "test_from_s", "test_to_s", "evaluations", "generations",
	"train_hypervolume", "test_hypervolume"}

// referenceNames are the references of the windows, sorted.
func (s *WindowsSummary) referenceNames() []string {
	var names []string
	for _, w := range s.PerWindow {
		for r := range w.References {
			if !slices.Contains(names, r) {
				names = append(names, r)
			}
		}
	}
	slices.Sort(names)
	return names
}

func scoreCells(m map[string]float64, scores []string) []string {
	out := make([]string, len(scores))
	for i, sc := range scores {
		if v, ok := m[sc]; ok {
			out[i] = ftoa(v)
		}
	}
	return out
}

func itoa(i int) string     { return strconv.Itoa(i) }
func i64(i int64) string    { return strconv.FormatInt(i, 10) }
func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// namedStats is one row of statistics across windows.
type namedStats struct {
	name string
	v    *WindowStats
}

// stats are the mean and standard deviation rows that are present.
func (s *WindowsSummary) stats() []namedStats {
	var out []namedStats
	for _, st := range []namedStats{{"mean", s.Mean}, {"sd", s.SD}} {
		if st.v != nil {
			out = append(out, st)
		}
	}
	return out
}
