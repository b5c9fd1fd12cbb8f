package reports

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/replay"
)

// WriteReplayText writes one replay's result as `ecotune simulate`
// prints it: a two-column table of the configuration, every objective
// (makespan also in days and hours, boots with the failed ones), each
// partition of the cluster, and the replay's time.
func WriteReplayText(out io.Writer, r *replay.Result) error {
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	row := func(k, format string, v ...any) { fmt.Fprintf(w, "%s\t"+format+"\n", append([]any{k}, v...)...) }
	s := r.Scores
	row("trace", "%s", r.Trace)
	row("policy", "%s %v", r.Policy, r.Params)
	row("cluster", "%d nodes, %d slots, %s, period %d s", r.Nodes, r.Slots, r.Scheduler, r.PeriodS)
	row("jobs", "%d", s.Jobs)
	for _, o := range objectives.All() {
		v := o.Text(o.Of(s))
		switch o.Name {
		case objectives.Makespan:
			v += fmt.Sprintf(" (%dd %02dh %02dm %02ds)", s.Makespan/86400, s.Makespan%86400/3600, s.Makespan%3600/60, s.Makespan%60)
		case objectives.Boots:
			v += fmt.Sprintf(" (%d failed)", r.BootFailures)
		}
		row(o.Name, "%s", v)
	}
	for _, p := range r.PartitionScores {
		row("partition "+p.Name, "%d nodes, %d jobs, %d off_node_seconds, %d reconfigurations, %.3f kWh",
			p.Nodes, p.Jobs, p.OffNodeSeconds, p.Reconfigurations, p.EnergyKWh)
	}
	row("ignored_commands", "%d", r.IgnoredCommands)
	row("sim_seconds", "%.3f", r.SimSeconds)
	return w.Flush()
}
