package reports

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/tuner"
	"github.com/ecotune/ecotune/tuner/scoring"
)

// WriteTuneSummary prints what a finished tune found, in the units a
// person reads (the objectives table's headings): the front's size, each
// preset's pick with its train and test scores beside always-on's, where
// the files are and the commands that come next. html is the report's
// path ("" without one).
func WriteTuneSummary(w io.Writer, dir string, m *tuner.RunMeta, f *tuner.Front, html string) error {
	qos := tuneObjective(objectives.QoSP90)
	off := tuneObjective(objectives.OffNodeSeconds)
	energy := tuneObjective(objectives.EnergyKWh)
	reconf := tuneObjective(objectives.Reconfigurations)
	ao, hasAO := m.References[scoring.AlwaysOn]

	fmt.Fprintf(w, "\n%s tuned on %s (%s scheduler): %d generations, %d evaluations, %.0f s\n",
		m.Policy, m.Trace, m.Scheduler, m.Generations, m.Evaluations, m.WallSeconds)
	fmt.Fprintf(w, "front: %d solutions; train %d jobs, test %d jobs (%s)\n\n", len(f.Solutions), m.TrainJobs, m.TestJobs, m.Split)

	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	heads := []string{qos.Heading(), off.Heading(), "kWh saved vs always-on", reconf.Heading()}
	fmt.Fprintf(tw, "preset\trow\t%s\t\n", strings.Join(heads, "\t"))
	cell := func(train, test string) string { return train + " / " + test }
	fmt.Fprintf(tw, "\t\t%s\t\n", strings.TrimSuffix(strings.Repeat("train / test\t", len(heads)), "\t"))
	for _, p := range m.Presets {
		if p.Row < 0 || p.Row >= len(f.Solutions) {
			continue
		}
		s := f.Solutions[p.Row]
		name := p.Name
		if !p.Feasible {
			name += " (infeasible)"
		}
		saved := func(split string) string {
			sc, ref := s.On(split), ao.On(split)
			if sc == nil || !hasAO || ref == nil {
				return "–"
			}
			return fmt.Sprintf("%.1f", energy.Display(energy.Of(*ref)-energy.Of(*sc)))
		}
		val := func(o objectives.Objective, split, format string) string {
			sc := s.On(split)
			if sc == nil {
				return "–"
			}
			return fmt.Sprintf(format, o.Display(o.Of(*sc)))
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t\n", name, p.Row,
			cell(val(qos, "train", "%.3f"), val(qos, "test", "%.3f")),
			cell(val(off, "train", "%.0f"), val(off, "test", "%.0f")),
			cell(saved("train"), saved("test")),
			cell(val(reconf, "train", "%.0f"), val(reconf, "test", "%.0f")))
	}
	if hasAO {
		ref := func(o objectives.Objective, split, format string) string {
			sc := ao.On(split)
			if sc == nil {
				return "–"
			}
			return fmt.Sprintf(format, o.Display(o.Of(*sc)))
		}
		fmt.Fprintf(tw, "%s\t\t%s\t%s\t%s\t%s\t\n", scoring.AlwaysOn,
			cell(ref(qos, "train", "%.3f"), ref(qos, "test", "%.3f")),
			cell(ref(off, "train", "%.0f"), ref(off, "test", "%.0f")),
			cell("0.0", "0.0"),
			cell(ref(reconf, "train", "%.0f"), ref(reconf, "test", "%.0f")))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "(%s: %s; %s: %s)\n\n", qos.Label, qos.Direction.Better(), off.Label, off.Direction.Better())

	fmt.Fprintf(w, "files: %s (%s, %s, %s, %s)\n", dir, tuner.FrontCSV, tuner.FrontParquet, tuner.FrontJSON, tuner.RunJSON)
	if html != "" {
		fmt.Fprintf(w, "report: %s\n", html)
	}
	pick := ""
	for _, p := range m.Presets {
		if p.Feasible {
			pick = p.Name
			break
		}
	}
	if pick == "" && len(m.Presets) > 0 {
		pick = m.Presets[0].Name
	}
	fmt.Fprintln(w, "next:")
	if html == "" {
		fmt.Fprintf(w, "  ecotune report %s\n", dir)
	} else {
		fmt.Fprintf(w, "  open %s   (or: ecotune report %s --pick ROW --force)\n", html, dir)
	}
	if pick != "" {
		fmt.Fprintf(w, "  ecotune export %s --pick %s -o %s --slurm\n", dir, pick, filepath.Join(dir, "rules.json"))
	}
	_, err := fmt.Fprintln(w)
	return err
}

// tuneObjective is the objective called name, one of the package
// objectives' own constants.
func tuneObjective(name string) objectives.Objective {
	o, err := objectives.Lookup(name)
	if err != nil {
		panic(err) // the names are the package's own constants
	}
	return o
}
