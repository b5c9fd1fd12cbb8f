package reports

import (
	"fmt"
	"github.com/ecotune/ecotune/tuner"
	"io"
	"path/filepath"
	"strings"

	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/sim"
	"github.com/ecotune/ecotune/slurm"
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
// lines, comments to print above them, and plainly what of the policy
// Slurm cannot express.
type SlurmConfig struct {
	Lines    []string `json:"lines"`
	Comments []string `json:"comments,omitempty"`
	Unmapped []string `json:"unmapped"`
	// Daemon is true when the policy needs `ecotune daemon` to run.
	Daemon bool `json:"daemon"`
}

// WriteText writes the block as `ecotune export --slurm` prints it: a
// header naming the policy, the pick and the run directory, the
// comments, the lines, and what Slurm cannot express, as comments.
func (c SlurmConfig) WriteText(w io.Writer, policyName, pick, runDir string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# slurm.conf power saving for %s (%s), from %s\n", policyName, pick, runDir)
	for _, l := range c.Comments {
		b.WriteString("# " + l + "\n")
	}
	for _, l := range c.Lines {
		b.WriteString(l + "\n")
	}
	b.WriteString("# What Slurm cannot express:\n")
	for _, u := range c.Unmapped {
		b.WriteString("#   " + u + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// SlurmOptions say what slurm.conf is written for.
type SlurmOptions struct {
	// Version is the target Slurm release (zero: 22.05).
	Version slurm.Version
	// SuspendProgram and ResumeProgram are the programs that power nodes
	// off and on ("": placeholders under /usr/local/sbin).
	SuspendProgram, ResumeProgram string
	// Nodes are the real Slurm node names of each rule-set group (from the
	// daemon's node map); nil: unknown, SuspendExcNodes is then left as a
	// comment to complete.
	Nodes map[string][]string
	// Exclude names nodes Slurm must never power down (SuspendExcNodes).
	Exclude []string
	// Backstop is SuspendTime when `ecotune daemon` drives shutdowns
	// (0: a day): Slurm then only powers down nodes the daemon forgot.
	Backstop int64
}

// Default Suspend/Resume program paths of an exported block.
const (
	DefaultSuspendProgram = "/usr/local/sbin/ecotune-suspend"
	DefaultResumeProgram  = "/usr/local/sbin/ecotune-resume"
)

// Slurm maps a rule set to a complete slurm.conf power-saving block:
// SuspendProgram and ResumeProgram, SuspendTime, SuspendTimeout (the
// longest shutdown), ResumeTimeout (twice the longest boot), SuspendRate
// (no limit) and ResumeRate (max_booting nodes per boot time, in nodes
// per minute, or no limit), SuspendExcNodes. An idle-timeout solution is
// Slurm's own power saving: SuspendTime is its idle_timeout and its spare
// nodes become SuspendExcNodes with a count (22.05+). always-off is
// idle-timeout with every parameter 0; always-on is power saving off.
// Every other policy needs `ecotune daemon`: SuspendTime is then a long
// backstop (never INFINITE, which on 22.05 switches power saving off and
// makes Slurm refuse the daemon's power_down and power_up).
func Slurm(rs *policy.RuleSet, o SlurmOptions) (SlurmConfig, error) {
	if o.Version == (slurm.Version{}) {
		o.Version = slurm.Version{Major: 22, Minor: 5}
	}
	if o.SuspendProgram == "" {
		o.SuspendProgram = DefaultSuspendProgram
	}
	if o.ResumeProgram == "" {
		o.ResumeProgram = DefaultResumeProgram
	}
	if o.Backstop <= 0 {
		o.Backstop = 86400
	}
	switch rs.Policy.Name {
	case "always-on":
		return SlurmConfig{Lines: []string{"SuspendTime=INFINITE"},
			Comments: []string{"always-on: power saving off; no daemon needed"},
			Unmapped: []string{"none: always-on is Slurm with power saving disabled"}}, nil
	case "idle-timeout":
		return slurmBlock(rs.Policy.Params, rs, o, false)
	case "always-off":
		return slurmBlock(map[string]float64{"idle_timeout": 0, "spare": 0, "max_booting": 0}, rs, o, false)
	}
	return slurmBlock(rs.Policy.Params, rs, o, true)
}

func slurmBlock(p map[string]float64, rs *policy.RuleSet, o SlurmOptions, daemon bool) (SlurmConfig, error) {
	var bootS, downS, nodes int64
	for _, g := range rs.Cluster {
		bootS, downS = max(bootS, g.Model.BootS), max(downS, g.Model.ShutdownS)
		nodes += int64(g.Count)
	}
	var unmapped []string
	rate, note := resumeRate(int64(p["max_booting"]), nodes, bootS)
	if note != "" {
		unmapped = append(unmapped, note)
	}
	var cfg SlurmConfig
	suspendTime := fmt.Sprintf("SuspendTime=%d", int64(p["idle_timeout"]))
	if daemon {
		cfg.Daemon = true
		suspendTime = fmt.Sprintf("SuspendTime=%d", o.Backstop)
		cfg.Comments = append(cfg.Comments,
			fmt.Sprintf("%s needs `ecotune daemon --rules RULES.json`: it decides which idle nodes to power down early,", rs.Policy.Name),
			"which to keep and which to boot ahead of demand, every "+fmt.Sprint(rs.Period)+" s; Slurm keeps resuming nodes for jobs.",
			fmt.Sprintf("SuspendTime=%d is a backstop for nodes the daemon leaves idle; never INFINITE on %d.%02d:", o.Backstop, o.Version.Major, o.Version.Minor),
			"that switches power saving off, and Slurm then refuses the daemon's power_down and power_up.")
		unmapped = append(unmapped, fmt.Sprintf("policy %s does not map to Slurm's SuspendTime: run `ecotune daemon` with this rule set", rs.Policy.Name))
	} else {
		cfg.Comments = append(cfg.Comments, fmt.Sprintf("%s is Slurm's own power saving: no daemon needed (ecotune daemon runs it too)", rs.Policy.Name))
	}
	cfg.Lines = []string{
		"SuspendProgram=" + o.SuspendProgram,
		"ResumeProgram=" + o.ResumeProgram,
		suspendTime,
		fmt.Sprintf("SuspendTimeout=%d", max(downS, 1)),
		fmt.Sprintf("ResumeTimeout=%d", max(2*bootS, 1)),
		"SuspendRate=0",
		fmt.Sprintf("ResumeRate=%d", rate),
	}
	exc, err := suspendExc(p, rs, o, daemon, &cfg, &unmapped)
	if err != nil {
		return SlurmConfig{}, err
	}
	if len(exc) > 0 {
		cfg.Lines = append(cfg.Lines, "SuspendExcNodes="+strings.Join(exc, ","))
	}
	unmapped = append(unmapped,
		fmt.Sprintf("SuspendProgram and ResumeProgram must power nodes off and on (examples: docs/slurm-power-ipmi.sh, docs/slurm-power-wol.sh); "+
			"%s and %s must not be group- or world-writable", o.SuspendProgram, o.ResumeProgram))
	if !daemon {
		unmapped = append(unmapped, fmt.Sprintf("the decision cycle (%d s) has no Slurm setting: Slurm acts on idle time and job allocation directly", rs.Period))
	}
	cfg.Unmapped = unmapped
	return cfg, nil
}

// resumeRate is the ResumeRate that stands for max_booting mb on a cluster
// of nodes nodes booting in bootS seconds, and a note on the mapping; 0
// and no note when mb limits nothing (none, or at least the node count).
func resumeRate(mb, nodes, bootS int64) (int64, string) {
	if mb <= 0 || mb >= nodes {
		return 0, ""
	}
	rate := max(1, mb*60/max(bootS, 1))
	return rate, fmt.Sprintf(
		"max_booting=%d (at most %d nodes booting at once): Slurm limits resumes per minute instead; "+
			"ResumeRate=%d nodes/minute = %d nodes per %d s boot × 60 s, rounded down (at least 1)",
		mb, mb, rate, mb, bootS)
}

// suspendExc is the SuspendExcNodes sets: the excluded nodes, and for
// Slurm's own power saving the spare nodes of parameters p as a counted
// set; it adds to cfg's comments and to unmapped what it cannot map.
func suspendExc(p map[string]float64, rs *policy.RuleSet, o SlurmOptions, daemon bool, cfg *SlurmConfig, unmapped *[]string) ([]string, error) {
	var exc []string
	if len(o.Exclude) > 0 {
		h, err := slurm.CompressHostlist(o.Exclude)
		if err != nil {
			return nil, fmt.Errorf("excluded nodes: %w", err)
		}
		exc = append(exc, h)
	}
	if spare := int64(p["spare"]); spare > 0 && !daemon {
		var all []string
		for _, g := range rs.Cluster {
			all = append(all, o.Nodes[g.Name]...)
		}
		switch {
		case len(all) == 0:
			cfg.Comments = append(cfg.Comments, fmt.Sprintf("spare=%d: add SuspendExcNodes=YOUR_NODES:%d (give --nodes-map to name them)", spare, spare))
		case !o.Version.AtLeast(22, 5):
			*unmapped = append(*unmapped, fmt.Sprintf("spare=%d: SuspendExcNodes with a node count needs Slurm 22.05 or later", spare))
		default:
			h, err := slurm.CompressHostlist(all)
			if err != nil {
				return nil, fmt.Errorf("mapped nodes: %w", err)
			}
			exc = append(exc, fmt.Sprintf("%s:%d", h, spare))
		}
	}
	if len(exc) > 1 {
		// With a counted set, each set carries a count: the excluded
		// nodes as a set of which all must stay up.
		exc[0] = fmt.Sprintf("%s:%d", exc[0], len(o.Exclude))
	}
	return exc, nil
}
