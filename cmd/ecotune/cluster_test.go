package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/datasets"
	"github.com/ecotune/ecotune/sim"
)

// writeSacct4x32 writes a sacct log of a cluster of 4 nodes of 32 cores
// named after prefix, with user alice of group lab in partition batch.
func writeSacct4x32(t *testing.T, dir, prefix string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("JobID|JobIDRaw|Partition|User|Group|Submit|Start|End|Elapsed|State|NNodes|NCPUS|NodeList\n")
	for i, r := range []struct {
		nodes, cpus int
		list        string
		start, end  int
	}{
		{4, 128, prefix + "[1-4]", 0, 60}, {1, 32, prefix + "1", 60, 90}, {1, 16, prefix + "2", 60, 120},
		{1, 16, prefix + "2", 70, 100}, {2, 64, prefix + "[3-4]", 60, 80},
	} {
		at := func(m int) string { return fmt.Sprintf("2024-01-01T%02d:%02d:00", m/60, m%60) }
		fmt.Fprintf(&b, "%d|%d|batch|alice|lab|%s|%s|%s||COMPLETED|%d|%d|%s\n", i+1, i+1, at(r.start), at(r.start), at(r.end), r.nodes, r.cpus, r.list)
	}
	path := filepath.Join(dir, "sacct.log")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A sacct log of 4 nodes × 32 cores: import, inspect, simulate and
// cluster all see 4 nodes of 32 slots, and the cluster file written loads
// back to the cluster simulate uses.
func TestClusterFromSacct(t *testing.T) {
	dir := t.TempDir()
	log := writeSacct4x32(t, dir, "cn")
	tr := filepath.Join(dir, "t.parquet")
	if _, _, err := runEcotune(t, "import", log, "-o", tr); err != nil {
		t.Fatal(err)
	}
	stdout, _, err := runEcotune(t, "inspect", tr, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Nodes  int                    `json:"nodes"`
		Procs  int                    `json:"procs"`
		Layout []datasets.LayoutGroup `json:"layout"`
	}
	if err := json.Unmarshal([]byte(stdout), &st); err != nil {
		t.Fatal(err)
	}
	want := []datasets.LayoutGroup{{Slots: 32, Count: 4, Hosts: "cn[1-4]"}}
	if st.Nodes != 4 || st.Procs != 128 || !reflect.DeepEqual(st.Layout, want) {
		t.Errorf("inspect --json: %d nodes, %d procs, layout %+v", st.Nodes, st.Procs, st.Layout)
	}
	text, _, err := runEcotune(t, "inspect", tr)
	if err != nil || !strings.Contains(text, "4 × 32 slots: cn[1-4]") {
		t.Errorf("inspect: %v\n%s", err, text)
	}

	meta, err := datasets.ReadParquetFile(tr)
	if err != nil {
		t.Fatal(err)
	}
	inferred, err := sim.ClusterFromTrace(meta.Meta)
	if err != nil {
		t.Fatal(err)
	}
	if inferred.Nodes() != 4 || inferred.Slots() != 128 {
		t.Errorf("cluster from the trace: %d nodes, %d slots", inferred.Nodes(), inferred.Slots())
	}
	for _, name := range []string{"c.yaml", "c.json"} {
		out := filepath.Join(dir, name)
		if _, _, err := runEcotune(t, "cluster", "--from", tr, "-o", out); err != nil {
			t.Fatal(err)
		}
		c, err := sim.LoadCluster(out)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(c, inferred) {
			t.Errorf("%s loads as %+v, want %+v", name, c, inferred)
		}
		if _, _, err := runEcotune(t, "cluster", "--from", tr, "-o", out); err == nil {
			t.Errorf("%s replaced without --force", name)
		}
		if _, _, err := runEcotune(t, "cluster", "--from", tr, "-o", out, "--force"); err != nil {
			t.Errorf("%s with --force: %v", name, err)
		}
		for _, args := range [][]string{{"simulate", "--trace", tr, "--policy", "always-on", "--json"}, {"simulate", "--trace", tr, "--cluster", out, "--policy", "always-on", "--json"}} {
			stdout, _, err := runEcotune(t, args...)
			if err != nil {
				t.Fatal(err)
			}
			var res struct{ Nodes, Slots int }
			if err := json.Unmarshal([]byte(stdout), &res); err != nil || res.Nodes != 4 || res.Slots != 128 {
				t.Errorf("%v: %d nodes, %d slots (%v)", args, res.Nodes, res.Slots, err)
			}
		}
	}
	yaml, _, err := runEcotune(t, "cluster", log) // a raw log as the argument, printed
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"# 4 hosts of 32 slots: cn[1-4]", "count: 4", "slots: 32", "idle_w: 150"} {
		if !strings.Contains(yaml, w) {
			t.Errorf("printed cluster file lacks %q:\n%s", w, yaml)
		}
	}
	for _, args := range [][]string{
		{"cluster"},
		{"cluster", tr, tr},
		{"cluster", "--from", tr, tr},
		{"cluster", "--from", tr, "-o", filepath.Join(dir, "c.txt")},
		{"cluster", "--from", tr, "--model", "nope"},
	} {
		if _, _, err := runEcotune(t, args...); err == nil {
			t.Errorf("%v succeeded", args)
		}
	}
}

// import --anonymize: none of the log's names in the output, the same key
// gives the same trace, a key is required.
func TestImportAnonymizeCLI(t *testing.T) {
	dir := t.TempDir()
	log := writeSacct4x32(t, dir, "secretnode")
	out := filepath.Join(dir, "a.parquet")
	if _, _, err := runEcotune(t, "import", log, "-o", out, "--anonymize"); err == nil {
		t.Error("--anonymize without a key succeeded")
	}
	if _, _, err := runEcotune(t, "import", log, "-o", out, "--anonymize-key", "k"); err == nil {
		t.Error("--anonymize-key without --anonymize succeeded")
	}
	if _, _, err := runEcotune(t, "import", log, "-o", out, "--anonymize", "--anonymize-key", "k"); err != nil {
		t.Fatal(err)
	}
	t.Setenv("ECOTUNE_ANON_KEY", "k")
	again := filepath.Join(dir, "b.parquet")
	if _, _, err := runEcotune(t, "import", log, "-o", again, "--anonymize"); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{out, again} {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, secret := range []string{"alice", "lab", "batch", "secretnode"} {
			if bytes.Contains(raw, []byte(secret)) {
				t.Errorf("%s: %q in the anonymized trace", f, secret)
			}
		}
	}
	ta, err := datasets.ReadParquetFile(out)
	if err != nil {
		t.Fatal(err)
	}
	tb, err := datasets.ReadParquetFile(again)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ta.Jobs, tb.Jobs) || !reflect.DeepEqual(ta.Meta.Layout, tb.Meta.Layout) {
		t.Error("the same key (flag, then environment) gave different traces")
	}
	if u := ta.Jobs[0].User; !strings.HasPrefix(u, "u_") || len(u) != 14 {
		t.Errorf("user %q", u)
	}
}
