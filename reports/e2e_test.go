package reports

import (
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/objectives"
	"github.com/ecotune/ecotune/policy"
	"github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/sim"
	"github.com/ecotune/ecotune/tuner"
)

// nasaRun is a run of idle-timeout on NASA-iPSC whose front holds real
// scores: each solution simulated on the 70 % training and 30 % test
// split. It returns the run and the test split.
func nasaRun(t testing.TB) (*Run, *datasets.Trace) {
	t.Helper()
	tr := nasaTrace(t)
	c, err := sim.ClusterFromTrace(tr.Meta)
	if err != nil {
		t.Fatal(err)
	}
	const split = "chronological jobs 0.7"
	test, err := testSplit(tr, split)
	if err != nil {
		t.Fatal(err)
	}
	train := &datasets.Trace{Meta: tr.Meta, Jobs: tr.Jobs[:len(tr.Jobs)-len(test.Jobs)]}
	score := func(tr *datasets.Trace, cfg policy.Config) objectives.Scores {
		p, err := policy.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		res, err := sim.Run(tr, c, p, sim.Options{Scheduler: sim.FCFS})
		if err != nil {
			t.Fatal(err)
		}
		return objectives.Compute(res)
	}
	f := &tuner.Front{Policy: "idle-timeout", ParamNames: []string{"idle_timeout", "spare", "max_booting"},
		Objectives: []tuner.Objective{{Name: objectives.QoSP90}, {Name: objectives.OffNodeSeconds, Maximize: true}, {Name: objectives.Reconfigurations}}}
	for _, timeout := range []float64{600, 3600, 14400} {
		cfg := idleTimeoutConfig(timeout, 0)
		te := score(test, cfg)
		f.Solutions = append(f.Solutions, tuner.Solution{Config: cfg, Train: score(train, cfg), Test: &te})
	}
	on := policy.Config{Name: AlwaysOn}
	onTest := score(test, on)
	m := &tuner.RunMeta{Version: "test", Seed: 1, Policy: "idle-timeout", Trace: datasets.DefaultName, Split: run.Holdout(0.7),
		Cluster: tuner.ClusterJSON(c), Scheduler: sim.FCFS,
		References: map[string]tuner.Reference{AlwaysOn: {Config: on, Train: score(train, on), Test: &onTest}},
		Presets:    []tuner.PresetChoice{{Name: "qos0.5", Bound: 0.5, Resolved: 0.5, Feasible: true, Row: 2}},
	}
	return &Run{Dir: t.TempDir(), Meta: m, Front: f}, test
}

// The report re-simulates the picked solution on the test split and gets
// the run's test scores back; its timelines and Paraver trace cover the
// split.
func TestReportReplaysTheRun(t *testing.T) {
	r, test := nasaRun(t)
	rep, err := Build(r, Options{Test: test})
	if err != nil {
		t.Fatal(err)
	}
	got := objectives.Compute(rep.Replay)
	if want := *rep.Solution.Test; got != want {
		t.Errorf("replay scores %+v\nrun's test scores %+v", got, want)
	}
	if got := rep.reproduces(got); got != "yes" {
		t.Errorf("replay table says %q", got)
	}
	if len(rep.Timelines) != 2 || rep.To-rep.From != DefaultWindow {
		t.Errorf("%d timelines over [%d, %d)", len(rep.Timelines), rep.From, rep.To)
	}
	prv := string(rep.Paraver.PRV)
	if !strings.HasPrefix(prv, "#Paraver (") || !strings.Contains(prv[:200], ":128(1,1,") {
		t.Errorf("paraver header %q", prv[:80])
	}
	// Every node's intervals tile the whole split: their lengths add up
	// to nodes × span, and the powered ones to the replay's powered
	// node-seconds.
	var total, powered int64
	for _, iv := range nodeIntervals(rep.Replay.Timeline, rep.Replay.TIni, rep.Replay.TEnd) {
		total += iv.To - iv.From
		if iv.State.Powered() {
			powered += iv.To - iv.From
		}
	}
	span := rep.Replay.TEnd - rep.Replay.TIni
	if total != int64(rep.Replay.Nodes)*span || powered != rep.Replay.PoweredNodeSeconds {
		t.Errorf("intervals cover %d node-seconds (%d powered), want %d (%d powered)",
			total, powered, int64(rep.Replay.Nodes)*span, rep.Replay.PoweredNodeSeconds)
	}
	dir := t.TempDir()
	path, err := rep.WriteDir(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{ParaverPRV, ParaverPCF, ParaverROW, "timeline-slots.svg", "timeline-nodes.png", filepath.Base(path)} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	// The node-state chart is embedded as PNG, the other figures as SVG.
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := html.UnescapeString(string(page))
	if n, m := strings.Count(text, `src="data:image/png;base64,`), strings.Count(text, `src="data:image/svg+xml;base64,`); n != 1 || m != 4 {
		t.Errorf("%d PNG and %d SVG figures embedded, want 1 and 4", n, m)
	}
}

// A test split that is not the run's is refused rather than reported.
func TestReportRefusesAnotherSplit(t *testing.T) {
	r, test := nasaRun(t)
	other := &datasets.Trace{Meta: test.Meta, Jobs: test.Jobs[1:]}
	if _, err := Build(r, Options{Test: other}); err == nil || !strings.Contains(err.Error(), "test split") {
		t.Errorf("Build on another split: %v", err)
	}
}
