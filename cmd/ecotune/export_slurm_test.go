package main

import (
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
func TestExportSlurmAcceptedBySlurmctld(t *testing.T) {
	t.Parallel()
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
}
