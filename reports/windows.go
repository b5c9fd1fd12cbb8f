package reports

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/tuner/summary"
)

// WriteWindowsText writes a rolling-origin summary (`tune --windows`) as a short table: per window its test
// jobs, test hypervolume and each preset pick's test qos_p90 / off
// node-seconds / reconfigurations, then the rows of their means and
// standard deviations across the windows.
func WriteWindowsText(w io.Writer, s *summary.WindowsSummary) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "k\ttest jobs\ttest HV\t%s\n", strings.Join(s.Presets, "\t"))
	for _, win := range s.PerWindow {
		fmt.Fprintf(tw, "%d\t%d:%d\t%.4f", win.K, win.Test.FromJob, win.Test.ToJob, win.TestHypervolume)
		for _, p := range win.Presets {
			cell := "-"
			if p.Test != nil {
				cell = pickCell(p.Test)
			}
			if !p.Feasible {
				cell += " (infeasible)"
			}
			fmt.Fprintf(tw, "\t%s", cell)
		}
		fmt.Fprintln(tw)
	}
	for _, st := range []struct {
		name string
		v    *summary.WindowStats
	}{{"mean", s.Mean}, {"sd", s.SD}} {
		if st.v == nil {
			continue
		}
		fmt.Fprintf(tw, "%s\t\t%.4f", st.name, st.v.TestHypervolume)
		for _, p := range st.v.Presets {
			fmt.Fprintf(tw, "\t%s", pickCell(p.Test))
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, "each preset: test qos_p90 / off node-seconds / reconfigurations of its pick")
	return err
}

// pickCell is "qos_p90 / off node-s / reconfigurations".
func pickCell(m map[string]float64) string {
	return fmt.Sprintf("%.3g / %.3g / %.0f", m[objectives.QoSP90], m[objectives.OffNodeSeconds], m[objectives.Reconfigurations])
}
