package reports

import (
	"fmt"
	"github.com/ecotune/ecotune/tuner"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
)

// DefaultPeriod is the decision cycle of exported rule sets when the run
// does not record one: the simulator's default, as a daemon would run.
const DefaultPeriod = sim.DefaultPeriod

// RuleSet builds the rule-set file of the picked solution: its policy
// configuration (every parameter spelt out), the cluster it was tuned for
// and its provenance (trace, checksum, split, objectives on train and
// test, seed, version). The rule set is validated as a daemon would.
func RuleSet(r *Run, pick Pick) (*policy.RuleSet, error) {
	sol := r.Front.Solutions[pick.Row]
	spec, err := policy.Lookup(sol.Config.Name)
	if err != nil {
		return nil, fmt.Errorf("reports: export: row %d: %w", pick.Row, err)
	}
	m := r.Meta
	cl, err := tuner.ClusterOf(m)
	if err != nil {
		return nil, fmt.Errorf("reports: export: %w", err)
	}
	names := append(r.objectiveNames(), objectives.EnergyKWh)
	rs := &policy.RuleSet{
		Version: policy.RuleSetVersion,
		Policy:  spec.Fill(sol.Config),
		Cluster: groupsOf(cl),
		Period:  DefaultPeriod,
		Provenance: &policy.Provenance{
			Trace: m.Trace, TraceSHA256: m.TraceSHA256, Split: m.Split.String(),
			Train: scoreMap(&sol.Train, names), Test: scoreMap(sol.Test, names),
			Seed: m.Seed, Version: m.Version, Run: filepath.Clean(r.Dir), Pick: pick.Label, Scheduler: m.Scheduler,
		},
	}
	if p := pick.Preset; p != nil {
		rs.Provenance.Feasibility = &policy.Feasibility{Train: p.Feasible, BoundTrain: p.Resolved, Test: p.FeasibleTest, BoundTest: p.ResolvedTest}
	}
	if err := rs.Validate(); err != nil {
		return nil, fmt.Errorf("reports: export: row %d: %w", pick.Row, err)
	}
	return rs, nil
}

// Infeasible says why a preset pick misses its preset's bound ("" when it
// meets it on every split it was scored on, or was picked by row): an
// exported rule set should keep the promise its preset names.
func (p Pick) Infeasible() string {
	ch := p.Preset
	if ch == nil {
		return ""
	}
	var why []string
	if !ch.Feasible {
		q := ""
		if ch.Train != nil {
			q = fmt.Sprintf(" (its qos_p90 %g)", ch.Train.QoSP90)
		}
		why = append(why, fmt.Sprintf("no solution meets the bound %g on the train split; row %d violates it least%s", ch.Resolved, ch.Row, q))
	}
	if ch.FeasibleTest != nil && !*ch.FeasibleTest && ch.ResolvedTest != nil {
		q := ""
		if ch.Test != nil {
			q = fmt.Sprintf(" has qos_p90 %g", ch.Test.QoSP90)
		}
		why = append(why, fmt.Sprintf("on the test split row %d%s, above the bound %g", ch.Row, q, *ch.ResolvedTest))
	}
	return strings.Join(why, "; ")
}

func scoreMap(sc *objectives.Scores, names []string) map[string]float64 {
	if sc == nil {
		return nil
	}
	m := make(map[string]float64, len(names))
	for _, n := range names {
		if v, err := sc.Get(n); err == nil {
			m[n] = v
		}
	}
	return m
}

// groupsOf turns a simulated cluster into the groups a policy sees.
func groupsOf(c sim.Cluster) []policy.Group {
	gs := make([]policy.Group, len(c.Groups))
	for i, g := range c.Groups {
		gs[i] = policy.Group{Name: g.Name, Count: g.Count, Slots: g.Slots, GFLOPS: g.GFLOPS, Model: g.Model}
	}
	return gs
}

// SlurmConfig is what a rule set becomes in slurm.conf: the power-saving
// lines, and plainly what of the policy Slurm cannot express.
type SlurmConfig struct {
	Lines    []string `json:"lines"`
	Unmapped []string `json:"unmapped"`
}

// Slurm maps a rule set to slurm.conf power saving. An idle-timeout
// solution maps to SuspendTime (idle_timeout), SuspendRate (no limit),
// ResumeRate (max_booting per boot time, or no limit), ResumeTimeout
// (twice the longest boot), SuspendTimeout (the longest shutdown) and
// SuspendExcNodes (spare nodes kept idle, count syntax of Slurm 22.05+);
// always-off is idle-timeout with every parameter 0; always-on maps to
// power saving off. Other policies do not map.
func Slurm(rs *policy.RuleSet) SlurmConfig {
	switch rs.Policy.Name {
	case "always-on":
		return SlurmConfig{Lines: []string{"SuspendTime=INFINITE"},
			Unmapped: []string{"none: always-on is Slurm with power saving disabled"}}
	case "idle-timeout":
		return slurmIdleTimeout(rs.Policy.Params, rs)
	case "always-off":
		return slurmIdleTimeout(map[string]float64{"idle_timeout": 0, "spare": 0, "max_booting": 0}, rs)
	}
	return SlurmConfig{Unmapped: []string{fmt.Sprintf(
		"policy %s does not map to Slurm power saving, which only suspends nodes idle for SuspendTime and resumes them on demand: "+
			"deploy the rule set with a daemon that runs `ecotune decide` instead", rs.Policy.Name)}}
}

func slurmIdleTimeout(p map[string]float64, rs *policy.RuleSet) SlurmConfig {
	var bootS, downS, nodes int64
	for _, g := range rs.Cluster {
		bootS, downS = max(bootS, g.Model.BootS), max(downS, g.Model.ShutdownS)
		nodes += int64(g.Count)
	}
	resumeRate := int64(0)
	var unmapped []string
	// max_booting of at least the node count limits nothing.
	if mb := int64(p["max_booting"]); mb > 0 && mb < nodes {
		resumeRate = max(1, mb*60/max(bootS, 1))
		unmapped = append(unmapped, fmt.Sprintf(
			"max_booting=%d (at most %d nodes booting at once) has no Slurm equivalent: ResumeRate=%d nodes/minute approximates it as %d boots per %d s boot",
			mb, mb, resumeRate, mb, bootS))
	}
	lines := []string{
		fmt.Sprintf("SuspendTime=%d", int64(p["idle_timeout"])),
		"SuspendRate=0",
		fmt.Sprintf("ResumeRate=%d", resumeRate),
		fmt.Sprintf("ResumeTimeout=%d", 2*bootS),
		fmt.Sprintf("SuspendTimeout=%d", downS),
	}
	if spare := int64(p["spare"]); spare > 0 {
		lines = append(lines, fmt.Sprintf("SuspendExcNodes=%s:%d", hostlist(rs.Cluster), spare))
		unmapped = append(unmapped, "SuspendExcNodes with a node count needs Slurm 22.05 or later; older versions can only exclude named nodes")
	}
	unmapped = append(unmapped,
		"Slurm powers nodes with your SuspendProgram and ResumeProgram scripts: ecotune does not write them",
		fmt.Sprintf("the decision cycle (%d s) has no Slurm setting: Slurm acts on idle time and job allocation directly", rs.Period))
	return SlurmConfig{Lines: lines, Unmapped: unmapped}
}

// hostlist names every node of the cluster in Slurm hostlist syntax:
// group name followed by 1..count, e.g. node[1-128].
func hostlist(groups []policy.Group) string {
	parts := make([]string, 0, len(groups))
	for _, g := range groups {
		if g.Count == 1 {
			parts = append(parts, g.Name+"1")
			continue
		}
		parts = append(parts, fmt.Sprintf("%s[1-%d]", g.Name, g.Count))
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}
