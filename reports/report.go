package reports

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/sim"
	"github.com/ecotune/ecotune/tuner"
)

// Options control a report.
type Options struct {
	// Pick is the solution shown in detail (timelines, Paraver trace): a
	// preset name or a front row; "" picks the first feasible preset.
	Pick string
	// From and To bound the timeline window in Unix seconds; 0 means the
	// start of the test split and DefaultWindow after From.
	From, To int64
	// OutDir is where the report goes; "" means RUN_DIR/report.
	OutDir string
	// Force allows overwriting an existing report.
	Force bool
	// Test is the split the picked solution is re-simulated on; nil loads
	// it as run.json describes (trace, split).
	Test *datasets.Trace
	// NoTimeline skips the re-simulation (no timelines, no Paraver trace).
	NoTimeline bool
}

// DefaultWindow is the length of the default node-state window.
const DefaultWindow = 2 * 24 * 3600

// Files of a report directory.
const (
	ReportHTML = "report.html"
	ReportMD   = "report.md"
	ReportCSV  = "report.csv"
	ParaverPRV = "solution.prv"
	ParaverPCF = "solution.pcf"
	ParaverROW = "solution.row"
)

// A Report is everything a report shows, gathered once and rendered as
// HTML, Markdown, CSV, figures and a Paraver trace.
type Report struct {
	Run      *Run
	Pick     Pick
	Solution tuner.Solution
	Holdout  []HoldoutRow
	Fronts   []*Figure
	// Timeline of the picked solution on the test split (nil when not
	// simulated): the replay, its window and figures.
	Replay *sim.Result
	// Breakdowns are the replay's scores per user, group and partition.
	Breakdowns *objectives.Breakdowns
	From, To   int64
	Timelines  []*Figure
	Paraver    *Paraver
}

// Build gathers the report of r.
func Build(r *Run, opt Options) (*Report, error) {
	pick, err := r.Pick(opt.Pick)
	if err != nil {
		return nil, err
	}
	rep := &Report{Run: r, Pick: pick, Solution: r.Front.Solutions[pick.Row], Holdout: Holdout(r)}
	if rep.Fronts, err = FrontFigures(r); err != nil {
		return nil, err
	}
	if opt.NoTimeline {
		return rep, nil
	}
	if err := rep.replay(opt); err != nil {
		return nil, err
	}
	return rep, nil
}

// replay re-simulates the picked solution on the test split with the
// timeline on, and draws its timelines and Paraver trace.
func (rep *Report) replay(opt Options) error {
	test := opt.Test
	if test == nil {
		var err error
		if test, err = LoadTestSplit(rep.Run.Meta); err != nil {
			return err
		}
	}
	if sc := rep.Solution.Test; sc != nil && sc.Jobs != len(test.Jobs) {
		return fmt.Errorf("reports: the test split has %d jobs but the run scored %s on %d: pass the run's test trace",
			len(test.Jobs), rep.Pick.Label, sc.Jobs)
	}
	res, err := Replay(test, rep.Run.Meta, rep.Solution.Config)
	if err != nil {
		return err
	}
	rep.Replay = res
	b, err := Breakdowns(test, res)
	if err != nil {
		return err
	}
	rep.Breakdowns = &b
	from, to := res.TIni, res.TEnd
	if opt.From != 0 || opt.To != 0 {
		from, to = window(opt.From, opt.To, res.TIni, res.TEnd)
	}
	if from >= to {
		return fmt.Errorf("reports: timeline window [%s, %s) is empty or outside the test split [%s, %s)",
			utc(opt.From), utc(opt.To), utc(res.TIni), utc(res.TEnd))
	}
	nodeFrom, nodeTo := from, to
	if opt.From == 0 && opt.To == 0 {
		nodeTo = min(to, from+DefaultWindow)
	}
	rep.From, rep.To = nodeFrom, nodeTo
	label := fmt.Sprintf("%s (%s), %s", rep.Run.Front.Policy, rep.Pick.Label, rep.replaySplit())
	slots, err := SlotsFigure("requested vs powered slots: "+label, res.Timeline, from, to, res.Slots)
	if err != nil {
		return err
	}
	nodes, err := NodesFigure("node states: "+label, res.Timeline, nodeFrom, nodeTo)
	if err != nil {
		return err
	}
	rep.Timelines = []*Figure{slots, nodes}
	rep.Paraver, err = NewParaver(res.Timeline, res.TIni, res.TEnd)
	return err
}

// replaySplit names what the picked solution is replayed on.
func (rep *Report) replaySplit() string {
	if rep.Solution.Test == nil {
		return "whole trace (the run has no test split)"
	}
	return "test split"
}

// window resolves a --from/--to pair against the split's span: a zero
// bound takes the span's end (or DefaultWindow after from).
func window(from, to, tIni, tEnd int64) (int64, int64) {
	if from == 0 {
		from = tIni
	}
	if to == 0 {
		to = min(tEnd, from+DefaultWindow)
	}
	return max(from, tIni), min(to, tEnd)
}

func utc(t int64) string { return time.Unix(t, 0).UTC().Format(time.RFC3339) }

// Replay simulates cfg on tr with the timeline and placements on, on the cluster and
// scheduler run.json records.
func Replay(tr *datasets.Trace, m *tuner.RunMeta, cfg policy.Config) (*sim.Result, error) {
	if _, err := policy.New(cfg); err != nil {
		return nil, fmt.Errorf("reports: replay: %w", err)
	}
	c, err := tuner.ClusterOf(m)
	if err != nil {
		return nil, fmt.Errorf("reports: replay: %w", err)
	}
	mk := func() (policy.Policy, error) { return policy.New(cfg) } // one per partition
	res, err := sim.RunPartitioned(tr, c, mk, sim.Options{Scheduler: m.Scheduler, Timeline: true, JobNodes: true})
	if err != nil {
		return nil, fmt.Errorf("reports: replay of %s: %w", cfg.Name, err)
	}
	if res.Timeline == nil {
		return nil, errors.New("reports: replay: the simulator recorded no timeline")
	}
	return res, nil
}

// LoadTestSplit reads the trace run.json names and returns its test split.
func LoadTestSplit(m *tuner.RunMeta) (*datasets.Trace, error) {
	tr, err := LoadRunTrace(m)
	if err != nil {
		return nil, err
	}
	return testSplit(tr, m.Split.String())
}

// LoadRunTrace reads the whole trace of the run: the file run.json records
// (trace_file, read as it was then; an error if its digest differs from
// trace_sha256), else the embedded default when the run names it, else
// the trace name as a path (runs written before trace_file existed).
func LoadRunTrace(m *tuner.RunMeta) (*datasets.Trace, error) {
	if m.TraceFile != "" {
		tr, err := datasets.Open(m.TraceFile, datasets.ReadOptions{Format: m.TraceFormat, Lenient: m.TraceLenient})
		if err != nil {
			return nil, fmt.Errorf("reports: trace of the run: %w", err)
		}
		if d := tuner.TraceDigest(tr); m.TraceSHA256 != "" && d != m.TraceSHA256 {
			return nil, fmt.Errorf("reports: trace of the run: %s has changed since the run (sha256 %s, run.json has %s)", m.TraceFile, d, m.TraceSHA256)
		}
		return tr, nil
	}
	if m.Trace == "" || m.Trace == datasets.DefaultName || strings.HasPrefix(m.Trace, "embedded") {
		tr, err := datasets.Default()
		if err != nil {
			return nil, fmt.Errorf("reports: %w", err)
		}
		return tr, checkDigest(tr, m, "the embedded trace")
	}
	tr, err := datasets.Open(m.Trace, datasets.ReadOptions{})
	if err != nil {
		return nil, fmt.Errorf("reports: trace of the run: %w", err)
	}
	return tr, checkDigest(tr, m, m.Trace)
}

// checkDigest fails when run.json records a trace digest that tr does not
// have (the embedded trace included: a tampered run.json is not trusted).
func checkDigest(tr *datasets.Trace, m *tuner.RunMeta, name string) error {
	if d := tuner.TraceDigest(tr); m.TraceSHA256 != "" && d != m.TraceSHA256 {
		return fmt.Errorf("reports: trace of the run: %s has sha256 %s, run.json has %s", name, d, m.TraceSHA256)
	}
	return nil
}

// Write builds the report of the run directory runDir and writes it: the
// HTML report (returned), report.md, report.csv, every figure as SVG, PNG
// and PDF, and the Paraver trace of the picked solution. runDir is opened
// once (run.Root): the run's files are read and the report/ directory
// written through it, so that a symbolic link planted beneath it, or
// report/ swapped for one while the report is written, is refused or not
// followed.
func Write(runDir string, opt Options) (string, error) {
	root, err := run.OpenRoot(runDir)
	if err != nil {
		return "", fmt.Errorf("reports: %w", err)
	}
	defer root.Close()
	return writeRun(root, opt)
}

// WriteSub is Write of the run directory name beneath parent (a --windows
// run's window-K, a --policies run's POLICY): parent is opened by its
// path, name through it, a symbolic link there refused.
func WriteSub(parent, name string, opt Options) (string, error) {
	root, err := run.OpenRoot(parent)
	if err != nil {
		return "", fmt.Errorf("reports: %w", err)
	}
	defer root.Close()
	sub, err := root.Sub(name)
	if err != nil {
		return "", fmt.Errorf("reports: %w", err)
	}
	defer sub.Close()
	return writeRun(sub, opt)
}

// writeRun is Write of the run directory root.
func writeRun(root *run.Root, opt Options) (string, error) {
	r, err := loadRun(root)
	if err != nil {
		return "", err
	}
	rep, err := Build(r, opt)
	if err != nil {
		return "", err
	}
	var out *run.Root
	if opt.OutDir == "" {
		out, err = root.MkSub(run.ReportDir)
	} else {
		out, err = run.CreateRoot(opt.OutDir) // the user's own path
	}
	if err != nil {
		return "", fmt.Errorf("reports: %w", err)
	}
	defer out.Close()
	return rep.WriteRoot(out, opt.Force)
}

// WriteDir writes the report's files into dir and returns the HTML path.
func (rep *Report) WriteDir(dir string, force bool) (string, error) {
	root, err := run.OpenRoot(dir)
	if err != nil {
		return "", fmt.Errorf("reports: %w", err)
	}
	defer root.Close()
	return rep.WriteRoot(root, force)
}

// WriteRoot writes the report's files into the directory root and returns
// the HTML path.
func (rep *Report) WriteRoot(root *run.Root, force bool) (string, error) {
	embedded := make(map[string][]byte)
	for _, f := range rep.Figures() {
		for _, format := range Formats {
			b, err := f.Render(format)
			if err != nil {
				return "", err
			}
			if format == f.embedFormat() {
				embedded[f.Name] = b
			}
			if err := writeFile(root, f.Name+"."+format, b, force); err != nil {
				return "", err
			}
		}
	}
	files := []outFile{
		{ReportMD, rep.Markdown},
		{ReportCSV, rep.CSV},
		{ReportHTML, func() ([]byte, error) { return rep.HTML(embedded) }},
	}
	if pv := rep.Paraver; pv != nil {
		files = append(files,
			outFile{ParaverPRV, func() ([]byte, error) { return pv.PRV, nil }},
			outFile{ParaverPCF, func() ([]byte, error) { return pv.PCF, nil }},
			outFile{ParaverROW, func() ([]byte, error) { return pv.ROW, nil }})
	}
	for _, f := range files {
		b, err := f.render()
		if err != nil {
			return "", err
		}
		if err := writeFile(root, f.name, b, force); err != nil {
			return "", err
		}
	}
	return root.Join(ReportHTML), nil
}

// outFile is one file of a report and how to make its bytes.
type outFile struct {
	name   string
	render func() ([]byte, error)
}

// Figures returns every figure of the report: fronts then timelines.
func (rep *Report) Figures() []*Figure {
	return append(append([]*Figure(nil), rep.Fronts...), rep.Timelines...)
}
