package reports

import (
	"fmt"
	"image/color"
	"strconv"
	"strings"

	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/tuner"
	"github.com/ecotune/ecotune/tuner/scoring"
	"github.com/ecotune/ecotune/tuner/summary"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/ecotune/ecotune/run"
)

// Files of the report of `ecotune tune --policies` in its directory.
const (
	PoliciesMarkdown = "policies.md"
	PoliciesFigure   = "policies-front"
)

// policyColours tell the policies apart on the comparison figure
// (Okabe–Ito, then greys).
var policyColours = []color.RGBA{
	{0, 114, 178, 255}, {213, 94, 0, 255}, {204, 121, 167, 255}, {230, 159, 0, 255},
	{86, 180, 233, 255}, {240, 228, 66, 255}, {90, 90, 90, 255}, {160, 160, 160, 255},
}

// WritePolicies writes the report comparing the policies of a
// TunePolicies directory: dir/policies.md (each policy's hypervolume on
// train and test in the fixed box, every preset's pick on both splits
// with its feasibility, qos_p90 beside the mean and the longest wait, and
// off-seconds as a share of the oracle's; always-on and the oracle as
// references) and the figure of their fronts on both splits,
// dir/policies-front.svg. It returns the Markdown file's path.
func WritePolicies(dir string, s *summary.PoliciesSummary, force bool) (string, error) {
	root, err := run.OpenRoot(dir)
	if err != nil {
		return "", fmt.Errorf("reports: %w", err)
	}
	defer root.Close()
	return writePolicies(root, s, force)
}

// writePolicies is WritePolicies into the directory root.
func writePolicies(root *run.Root, s *summary.PoliciesSummary, force bool) (string, error) {
	fig, err := policiesFigure(root, s)
	if err != nil {
		return "", err
	}
	svg, err := fig.Render(SVG)
	if err != nil {
		return "", err
	}
	if err := writeFile(root, PoliciesFigure+".svg", svg, force); err != nil {
		return "", err
	}
	return root.Join(PoliciesMarkdown), writeFile(root, PoliciesMarkdown, []byte(PoliciesText(s)), force)
}

// WritePoliciesRun writes what `ecotune tune --policies` writes after
// tuner.TunePolicies: the report of each policy's run (Write, forced: a
// resumed run rewrites its earlier report) in dir/POLICY, then the
// comparison (WritePolicies). It returns policies.md's path; an error
// names the policy or the comparison that failed. A POLICY directory that
// is a symbolic link is refused.
func WritePoliciesRun(dir string, s *summary.PoliciesSummary, force bool) (string, error) {
	root, err := run.OpenRoot(dir)
	if err != nil {
		return "", fmt.Errorf("reports: %w", err)
	}
	defer root.Close()
	return writePoliciesRun(root, s, force)
}

// writePoliciesRun is WritePoliciesRun in the directory root.
func writePoliciesRun(root *run.Root, s *summary.PoliciesSummary, force bool) (string, error) {
	for _, p := range s.Policies {
		pdir := root.Join(p.Dir)
		sub, err := root.Sub(p.Dir)
		if err == nil {
			_, err = writeRun(sub, Options{Force: true})
			sub.Close()
		}
		if err != nil {
			return "", fmt.Errorf("%s is in %s, but its report failed: %w", p.Policy, pdir, err)
		}
	}
	md, err := writePolicies(root, s, force)
	if err != nil {
		return "", fmt.Errorf("the runs are in %s, but the comparison failed: %w", root.Path(), err)
	}
	return md, nil
}

// PoliciesText is the Markdown of the comparison.
func PoliciesText(s *summary.PoliciesSummary) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Tuned policies compared\n\nTrace %s (sha256 %.12s), split %s, scheduler %s, seed %d.\n", s.Trace, s.TraceSHA256, s.Split, s.Scheduler, s.Seed)
	if s.Interrupted {
		b.WriteString("\nInterrupted: only the policies listed finished (continue with --resume).\n")
	}
	b.WriteString("\nHypervolume in each split's fixed box (ideal: the better of always-on and the oracle in each objective, always-on's for qos_p90 and the waits; nadir: the worse plus 10 %, 2.1 × always-on's for qos_p90 and the waits; values clamped), in [0, 1] and comparable across policies and splits.\n\n")
	b.WriteString("| policy | evaluations | schedule rule | train HV | test HV |\n|---|---|---|---|---|\n")
	for _, p := range s.Policies {
		rule := p.ScheduleRule
		if rule == "" {
			rule = "none"
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %s |\n", p.Policy, p.Evaluations, rule, hvText(p.Hypervolume, "train"), hvText(p.Hypervolume, "test"))
	}
	b.WriteString("\n![fronts on train and test](" + PoliciesFigure + ".svg)\n")
	b.WriteString("\nEach preset's pick is chosen on the train split; feasible: it meets the preset's bound on that split (resolved against always-on's there). off % oracle: off-node-seconds as a share of the oracle's on the same split. A pick with its policy's schedule rule on (rule on) may owe part of its QoS to a changed schedule: compare the waits with always-on's. The row \"test, hindsight\" is the front member the preset would have chosen on the test split: what the front offered a choice made on train.\n")
	for _, preset := range s.Presets {
		fmt.Fprintf(&b, "\n## Preset %s\n\n", preset)
		b.WriteString("| policy | split | feasible | qos_p90 | mean wait (s) | max wait (s) | off-node-seconds | off % oracle | reconfigurations | energy (kWh) | rule on |\n|---|---|---|---|---|---|---|---|---|---|---|\n")
		for _, p := range s.Policies {
			pk, ok := p.Picks[preset]
			if !ok {
				continue
			}
			feasTest := ""
			if pk.FeasibleTest != nil {
				feasTest = feasibleText(*pk.FeasibleTest)
			}
			rows := []pickRow{{"train", "train", feasibleText(pk.FeasibleTrain), &pk.Train, pk.ScheduleRuleOn},
				{"test", "test", feasTest, pk.Test, pk.ScheduleRuleOn}}
			if h := pk.Hindsight; h != nil {
				rows = append(rows, pickRow{"test, hindsight", "test", feasibleText(h.FeasibleTest), &h.Test, h.ScheduleRuleOn})
			}
			for _, r := range rows {
				if r.sc == nil {
					continue
				}
				fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", p.Policy, r.label, r.feasible, scoreCells(r.sc, s.References, r.split), yesNo(r.ruleOn))
			}
		}
		for _, name := range []string{scoring.AlwaysOn, scoring.Oracle} {
			ref, ok := s.References[name]
			if !ok {
				continue
			}
			fmt.Fprintf(&b, "| %s | train | | %s | |\n", name, scoreCells(&ref.Train, s.References, "train"))
			if ref.Test != nil {
				fmt.Fprintf(&b, "| %s | test | | %s | |\n", name, scoreCells(ref.Test, s.References, "test"))
			}
		}
	}
	return b.String()
}

// pickRow is one row of a preset's table: the scores of a pick (or of
// its hindsight member) on one split.
type pickRow struct {
	label, split, feasible string
	sc                     *objectives.Scores
	ruleOn                 bool
}

func hvText(hv map[string]float64, split string) string {
	if v, ok := hv[split]; ok {
		return num(v)
	}
	return ""
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// scoreCells formats the comparison's score columns of sc on split.
func scoreCells(sc *objectives.Scores, refs map[string]summary.Pair, split string) string {
	share := ""
	if o, ok := refs[scoring.Oracle]; ok {
		osc := &o.Train
		if split == "test" {
			osc = o.Test
		}
		if osc != nil && osc.OffNodeSeconds > 0 {
			share = strconv.FormatFloat(100*float64(sc.OffNodeSeconds)/float64(osc.OffNodeSeconds), 'f', 1, 64) + " %"
		}
	}
	return strings.Join([]string{num(sc.QoSP90), num(sc.MeanWait), num(float64(sc.MaxWait)), num(float64(sc.OffNodeSeconds)), share,
		num(float64(sc.Reconfigurations)), num(sc.EnergyKWh)}, " | ")
}

// policiesFigure draws every policy's front (its rank-0 solutions) in
// qos_p90 against off-node-seconds, train and test side by side, with
// always-on and the oracle marked.
func policiesFigure(root *run.Root, s *summary.PoliciesSummary) (*Figure, error) {
	splits := []string{"train", "test"}
	row := make([]*plot.Plot, len(splits))
	legend := plot.NewLegend()
	legend.TextStyle.Font.Size = vg.Points(8)
	for j, split := range splits {
		p := newPlot(split+" split", "off-node-seconds", "qos_p90")
		row[j] = p
		leg := &legend
		if j > 0 {
			leg = nil // the first split's marks name the policies
		}
		if err := addPolicyFronts(p, leg, root, s, split); err != nil {
			return nil, err
		}
		if err := addPolicyReferences(p, leg, s, split); err != nil {
			return nil, err
		}
	}
	return &Figure{Name: PoliciesFigure, Title: "fronts", Plots: [][]*plot.Plot{row}, Width: frontWidth, Height: frontHeight,
		Legend: &legend, LegendWidth: frontLegend}, nil
}

// addPolicyFronts adds to p each policy's rank-0 solutions on split, in
// the policy's colour, and names them in legend unless it is nil.
func addPolicyFronts(p *plot.Plot, legend *plot.Legend, root *run.Root, s *summary.PoliciesSummary, split string) error {
	for i, ps := range s.Policies {
		_, front, err := loadSub(root, ps.Dir)
		if err != nil {
			return fmt.Errorf("reports: policy %s: %w", ps.Policy, err)
		}
		var xy plotter.XYs
		for _, sol := range front.Solutions {
			if sc := sol.On(split); sc != nil && sol.Rank == 0 {
				xy = append(xy, plotter.XY{X: float64(sc.OffNodeSeconds), Y: sc.QoSP90})
			}
		}
		if len(xy) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(xy)
		if err != nil {
			return err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: policyColours[i%len(policyColours)], Radius: vg.Points(2), Shape: draw.CircleGlyph{}}
		p.Add(sc)
		if legend != nil {
			legend.Add(ps.Policy, sc)
		}
	}
	return nil
}

// addPolicyReferences marks on p always-on and the oracle on split, when the
// summary has them, and names them in legend unless it is nil.
func addPolicyReferences(p *plot.Plot, legend *plot.Legend, s *summary.PoliciesSummary, split string) error {
	for k, name := range []string{scoring.AlwaysOn, scoring.Oracle} {
		ref, ok := s.References[name]
		if !ok {
			continue
		}
		rs := &ref.Train
		if split == "test" {
			rs = ref.Test
		}
		if rs == nil {
			continue
		}
		sc, err := plotter.NewScatter(plotter.XYs{{X: float64(rs.OffNodeSeconds), Y: rs.QoSP90}})
		if err != nil {
			return err
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: []color.RGBA{colRef, colOracle}[k], Radius: vg.Points(4), Shape: draw.CrossGlyph{}}
		p.Add(sc)
		if legend != nil {
			legend.Add(name, sc)
		}
	}
	return nil
}

// loadSub reads the run directory name beneath root, refusing a symbolic
// link there.
func loadSub(root *run.Root, name string) (*tuner.RunMeta, *tuner.Front, error) {
	sub, err := root.Sub(name)
	if err != nil {
		return nil, nil, err
	}
	defer sub.Close()
	return sub.Load()
}
