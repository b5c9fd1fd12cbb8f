//go:build long

package tuner_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/internal/testtrace"
	"github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/sim"
	"github.com/ecotune/ecotune/tuner"
	"github.com/ecotune/ecotune/tuner/pick"
	"github.com/ecotune/ecotune/tuner/scoring"
	"github.com/ecotune/ecotune/tuner/search"
)

// TestCompareBaselines is the comparison, built only with the
// long tag (go test -tags long -run CompareBaselines -v ./tuner/): on NASA-iPSC and SDSC-SP2 (70/30 chronological, EASY),
// tune hgfs and each baseline with the same evaluation budget
// (ECOTUNE_BUDGET, default 600 distinct evaluations, population 16 × 2
// islands), then compare the test-split hypervolume (box: always-on and
// the oracle on the test split) and the test off-seconds of the qos0.1
// pick (absolute on NASA-iPSC, relative to always-on on SDSC-SP2, chosen
// on the train split). The table goes to the log and to
// ECOTUNE_COMPARE_OUT if set; ECOTUNE_POLICIES and ECOTUNE_TRACES (e.g.
// "NASA,SDSC") narrow it, ECOTUNE_SEED (default 1) seeds every search
// and ECOTUNE_POPULATION (default 16) sets the population per island,
// ECOTUNE_MAX_FRONT the most solutions a front keeps (default all: a cap
// keeps the solutions adding the most train hypervolume, and on SDSC-SP2
// those were not the ones that held up on the test split);
// ECOTUNE_REACTIVE_ISLAND=1 sets Options.ReactiveIsland;
// ECOTUNE_COMPARE_DIR keeps the run directories (DIR/TRACE/POLICY, an
// existing run there is replaced). It asserts nothing about who wins:
// the figures are reported as measured.
func TestCompareBaselines(t *testing.T) {
	budget := 600
	if s := os.Getenv("ECOTUNE_BUDGET"); s != "" {
		var err error
		if budget, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	seed := int64(1)
	if s := os.Getenv("ECOTUNE_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseInt(s, 10, 64); err != nil {
			t.Fatal(err)
		}
	}
	pop := 16
	if s := os.Getenv("ECOTUNE_POPULATION"); s != "" {
		var err error
		if pop, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	maxFront := 1 << 20 // every non-dominated solution
	if s := os.Getenv("ECOTUNE_MAX_FRONT"); s != "" {
		var err error
		if maxFront, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	reactive := os.Getenv("ECOTUNE_REACTIVE_ISLAND") != ""
	policies := []string{"hgfs", "idle-timeout", "escs", "eecluster", "best-fit", "load", "break-even", "exponential", "gamma", "swqn", "swqo", "random"}
	if s := os.Getenv("ECOTUNE_POLICIES"); s != "" {
		policies = strings.Split(s, ",")
	}
	traces := []struct {
		file   string
		preset string
	}{
		{"NASA-iPSC-1993-3.1-cln.swf.gz", "qos0.1=qos_p90<=0.1"},
		{"SDSC-SP2-1998-4.2-cln.swf.gz", "qos0.1=qos_p90<=always_on+0.1"},
	}
	var b strings.Builder
	fmt.Fprintf(&b, "budget %d evaluations per policy, population %d x 2 islands, seed %d, EASY, 70/30\n\n", budget, pop, seed)
	fmt.Fprintln(&b, "| trace | policy | evals | front | train HV | test HV | qos0.1 | pick train qos_p90 | pick test qos_p90 | pick test off_node_s | pick test reconfigs |")
	fmt.Fprintln(&b, "|---|---|---|---|---|---|---|---|---|---|---|")
	for _, tc := range traces {
		if only := os.Getenv("ECOTUNE_TRACES"); only != "" && !strings.Contains(only, tc.file[:4]) {
			continue
		}
		tr, err := datasets.Open(testtrace.Trace(t, tc.file), datasets.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		preset, err := pick.ParsePreset(tc.preset)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.SplitN(tc.file, "-", 3)[0] + "-" + strings.SplitN(tc.file, "-", 3)[1]
		var oracleRow string
		runDir := os.Getenv("ECOTUNE_COMPARE_DIR") // keeps the runs for ecotune report
		if runDir == "" {
			runDir = t.TempDir()
		}
		for _, pol := range policies {
			out, err := tuner.Tune(context.Background(), tuner.Options{
				Policy:   pol,
				Trace:    tr,
				Sim:      sim.Options{Scheduler: sim.EASY},
				Presets:  []pick.Preset{preset},
				Settings: search.Settings{Generations: 200, Evaluations: budget, Seed: seed}, Method: search.NSGA2{Population: pop, Islands: 2, MigrationEvery: 5},
				MaxFront:       maxFront,
				ReactiveIsland: reactive,
			}, run.Target{Dir: filepath.Join(runDir, name, pol), Force: true, Provenance: run.Provenance{Trace: name}})
			if err != nil {
				t.Fatalf("%s %s: %v", name, pol, err)
			}
			m, f := out.Meta, out.Front
			ch := m.Presets[0]
			pick := f.Solutions[ch.Row]
			feas := "feasible"
			if !ch.Feasible {
				feas = "INFEASIBLE"
			}
			row := fmt.Sprintf("| %s | %s | %d | %d | %.4f | %.4f | %s (≤ %.3g) | %.3g | %.3g | %d | %d |\n",
				name, pol, m.Evaluations, len(f.Solutions), m.Hypervolume["train"], m.Hypervolume["test"], feas, ch.Resolved,
				pick.Train.QoSP90, pick.Test.QoSP90, pick.Test.OffNodeSeconds, pick.Test.Reconfigurations)
			b.WriteString(row)
			o := m.References[scoring.Oracle].Test
			a := m.References[scoring.AlwaysOn].Test
			ohv := scoring.Normalizer(m.Normalizers["test"]).Hypervolume([][]float64{{o.QoSP90, float64(o.OffNodeSeconds), float64(o.Reconfigurations)}})
			oracleRow = fmt.Sprintf("| %s | oracle (always-on test qos_p90 %.3g) | – | – | – | %.4f | – | – | %.3g | %d | %d |\n",
				name, a.QoSP90, ohv, o.QoSP90, o.OffNodeSeconds, o.Reconfigurations)
			t.Log(strings.TrimSpace(row))
		}
		b.WriteString(oracleRow)
	}
	t.Log("\n" + b.String())
	if p := os.Getenv("ECOTUNE_COMPARE_OUT"); p != "" {
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
