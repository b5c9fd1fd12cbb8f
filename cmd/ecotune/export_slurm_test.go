package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/internal/slurmtest"
)

// The block `ecotune export --slurm` writes, appended to a loopback
// cluster's slurm.conf: slurmctld starts with it and `scontrol show
// config` shows every exported value. Under CI=true a missing Slurm
// fails the test.
//
// Then one dry-run cycle of `ecotune daemon` on that cluster with the
// exported rule set and the same node map: it reads the four nodes and
// decides, and changes nothing.
func TestExportSlurmAcceptedBySlurmctld(t *testing.T) {
	dir, _ := writeRunDir(t)
	tmp := t.TempDir()
	nodesMap := filepath.Join(tmp, "nodes.map")
	if err := os.WriteFile(nodesMap, []byte("node node[01-04]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	prog := filepath.Join(tmp, "power")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := runApp(t, "export", dir, "--pick", "qos0", "-o", filepath.Join(tmp, "rules.json"), "--slurm",
		"--nodes-map", nodesMap, "--exclude", "node04", "--suspend-program", prog, "--resume-program", prog)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var block []string
	want := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		if k, v, ok := strings.Cut(line, "="); ok && !strings.HasPrefix(line, "#") {
			want[k] = v
		}
		if strings.HasPrefix(line, "#") || strings.Contains(line, "=") {
			block = append(block, line)
		}
	}
	for _, k := range []string{"SuspendProgram", "ResumeProgram", "SuspendTime", "SuspendTimeout", "ResumeTimeout", "SuspendRate", "ResumeRate", "SuspendExcNodes"} {
		if want[k] == "" {
			t.Fatalf("export printed no %s:\n%s", k, out)
		}
	}
	c := slurmtest.Start(t, slurmtest.Options{Nodes: 4, CPUs: 2, ExtraConf: strings.Join(block, "\n") + "\n"})
	config := c.Run(t, "scontrol", "show", "config")
	got := map[string]string{}
	for _, line := range strings.Split(config, "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			got[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	for k, v := range want {
		g := got[k]
		// scontrol adds units: "3600 sec", "0 nodes/min".
		if first, _, _ := strings.Cut(g, " "); first != v && g != v {
			t.Errorf("scontrol show config: %s = %q, exported %q", k, g, v)
		} else {
			t.Logf("%s: exported %s, slurmctld runs %s", k, v, g)
		}
	}

	t.Setenv("SLURM_CONF", c.Conf)
	log, err := runApp(t, "daemon", "--rules", filepath.Join(tmp, "rules.json"), "--nodes-map", nodesMap, "--once", "--dry-run", "--log", "-")
	if err != nil {
		t.Fatalf("daemon --once --dry-run: %v\n%s", err, log)
	}
	var rec struct {
		View struct {
			Nodes, Idle int
		} `json:"view"`
		Decision *struct{ Policy string } `json:"decision"`
		DryRun   bool                     `json:"dry_run"`
	}
	var line string // runApp's output holds the notices too
	for _, l := range strings.Split(log, "\n") {
		if strings.HasPrefix(l, "{") {
			line = l
		}
	}
	if err := json.Unmarshal([]byte(line), &rec); err != nil {
		t.Fatalf("decision log %q: %v", log, err)
	}
	if rec.View.Nodes != 4 || rec.View.Idle != 4 || rec.Decision == nil || rec.Decision.Policy != "idle-timeout" || !rec.DryRun {
		t.Errorf("daemon's first cycle: %s", line)
	}
	if events := c.PowerLog(t); len(events) != 0 {
		t.Errorf("dry run powered nodes: %+v", events)
	}
}
