package reports

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/replay"
)

// TestWriteReplayText: the text lists the configuration, the makespan in
// days, the failed boots, each partition and the replay's time, one row
// each (trace, policy, cluster, jobs, the objectives, the partition,
// ignored_commands, sim_seconds), values aligned in one column.
func TestWriteReplayText(t *testing.T) {
	r := replay.Result{Trace: "t", Policy: "idle-timeout", Params: map[string]float64{"idle_timeout": 600}, Scheduler: "easy", PeriodS: 60,
		Nodes: 4, Slots: 8, Scores: objectives.Scores{Jobs: 3, Makespan: 90061, Boots: 5}, BootFailures: 2, SimSeconds: 0.25,
		PartitionScores: []objectives.PartitionScores{{Name: "batch", Nodes: 3, Jobs: 2, OffNodeSeconds: 7, EnergyKWh: 1.5}}}
	var b bytes.Buffer
	if err := WriteReplayText(&b, &r); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"policy              idle-timeout map[idle_timeout:600]\n",
		"cluster             4 nodes, 8 slots, easy, period 60 s\n",
		"(1d 01h 01m 01s)", "5 (2 failed)",
		"partition batch     3 nodes, 2 jobs, 7 off_node_seconds, 0 reconfigurations, 1.500 kWh\n",
		"sim_seconds         0.250\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if n := strings.Count(out, "\n"); n != 7+len(objectives.All()) {
		t.Errorf("%d rows, want %d:\n%s", n, 7+len(objectives.All()), out)
	}
}
