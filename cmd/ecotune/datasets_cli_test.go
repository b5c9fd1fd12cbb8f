package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runEcotune runs the command line with args, returning stdout and stderr
// apart (--json must print exactly one object on stdout).
func runEcotune(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errOut bytes.Buffer
	app := newApp()
	app.Writer, app.ErrWriter = &out, &errOut
	err = app.Run(append([]string{"ecotune"}, args...))
	return out.String(), errOut.String(), err
}

// A letter in field 4 of line 1234: the error names the file, ":1234" and
// run_time, and no output file is left.
func TestImportMalformedLine(t *testing.T) {
	dir := t.TempDir()
	var log strings.Builder
	log.WriteString("; MaxProcs: 64\n")
	for i := 1; i < 1300; i++ {
		run := "100"
		if i == 1233 { // line 1234, after the header line
			run = "1x0"
		}
		fmt.Fprintf(&log, "%d %d -1 %s 4 -1 -1 -1 -1 -1 1 1 1 -1 1 -1 -1 -1\n", i, 10*i, run)
	}
	in := filepath.Join(dir, "bad.swf")
	if err := os.WriteFile(in, []byte(log.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "t.parquet")
	_, _, err := runEcotune(t, "import", in, "-o", out)
	if err == nil {
		t.Fatal("import of a malformed log succeeded")
	}
	for _, want := range []string{in, ":1234", "run_time"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files in the directory, want only the log", len(entries))
	}
	// Lenient: imported without the bad record.
	if _, _, err := runEcotune(t, "import", in, "-o", out, "--lenient"); err != nil {
		t.Fatal(err)
	}
	stdout, _, err := runEcotune(t, "inspect", out, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Jobs    int              `json:"jobs"`
		Skipped map[string]int64 `json:"skipped"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	if got.Jobs != 1298 || got.Skipped["unreadable_run_time"] != 1 {
		t.Errorf("lenient import: %d jobs, skipped %v", got.Jobs, got.Skipped)
	}
}

// inspect --json on the real logs: job counts of SOURCES.md minus the
// documented drops, machine size from the header, exactly one object.
func TestInspectJSON(t *testing.T) {
	tests := []struct {
		file               string
		jobs, nodes, procs int
		skipped            map[string]int64
	}{
		{"NASA-iPSC-1993-3.1-cln.swf.gz", 18239, 128, 128, map[string]int64{}},
		{"SDSC-SP2-1998-4.2-cln.swf.gz", 59715 - 5671, 128, 128, map[string]int64{"run_unknown": 5671}},
		{"SDSC-Par-1996-3.1-cln.swf.gz", 32135, 400, 400, map[string]int64{}},
	}
	for _, tt := range tests {
		stdout, _, err := runEcotune(t, "inspect", testTrace(t, tt.file), "--json")
		if err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(strings.NewReader(stdout))
		var got map[string]any
		if err := dec.Decode(&got); err != nil {
			t.Fatal(err)
		}
		if dec.More() {
			t.Errorf("%s: more than one JSON value on stdout", tt.file)
		}
		for _, key := range []string{"jobs", "nodes", "procs", "span_s", "utilization", "skipped"} {
			if _, ok := got[key]; !ok {
				t.Errorf("%s: no key %q", tt.file, key)
			}
		}
		skipped := map[string]int64{}
		for k, v := range got["skipped"].(map[string]any) {
			skipped[k] = int64(v.(float64))
		}
		if int(got["jobs"].(float64)) != tt.jobs || int(got["nodes"].(float64)) != tt.nodes ||
			int(got["procs"].(float64)) != tt.procs || fmt.Sprint(skipped) != fmt.Sprint(tt.skipped) {
			t.Errorf("%s: jobs %v nodes %v procs %v skipped %v", tt.file, got["jobs"], got["nodes"], got["procs"], skipped)
		}
	}
}

// With no trace, inspect shows the embedded default.
func TestInspectDefaultText(t *testing.T) {
	stdout, _, err := runEcotune(t, "inspect")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "NASA-iPSC-1993-3.1-cln") || !strings.Contains(stdout, "18239") {
		t.Errorf("inspect without a trace:\n%s", stdout)
	}
}

func TestSplitAndSynthCommands(t *testing.T) {
	dir := t.TempDir()
	syn := filepath.Join(dir, "syn.parquet")
	if _, _, err := runEcotune(t, "synth", "--jobs", "1000", "--nodes", "64", "--seed", "3", "-o", syn); err != nil {
		t.Fatal(err)
	}
	prefix := filepath.Join(dir, "s")
	if _, _, err := runEcotune(t, "split", syn, "--train", "0.7", "-o", prefix); err != nil {
		t.Fatal(err)
	}
	for part, want := range map[string]int{"train": 700, "test": 300} {
		stdout, _, err := runEcotune(t, "inspect", prefix+"-"+part+".parquet", "--json")
		if err != nil {
			t.Fatal(err)
		}
		var got struct{ Jobs int }
		if err := json.Unmarshal([]byte(stdout), &got); err != nil || got.Jobs != want {
			t.Errorf("%s: %d jobs (%v), want %d", part, got.Jobs, err, want)
		}
	}
	if _, _, err := runEcotune(t, "split", syn, "--train", "0.7", "-o", prefix); err == nil {
		t.Error("split overwrote its outputs without --force")
	}
	if _, _, err := runEcotune(t, "split", syn, "--from", "1970-01-02", "-o", prefix+"-w"); err != nil {
		t.Errorf("window: %v", err)
	}
}
