package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/ecotune/ecotune/replay"
	"github.com/ecotune/ecotune/sim"
)

// runCLI runs the command line through runMain, as main does, and returns
// its exit code, stdout and stderr.
func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = runMain(append([]string{"ecotune"}, args...), strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

// allCommands lists every command and subcommand by its full name.
func allCommands(cmds []*cli.Command, prefix string) map[string]*cli.Command {
	m := map[string]*cli.Command{}
	for _, c := range cmds {
		name := strings.TrimSpace(prefix + " " + c.Name)
		m[name] = c
		for k, v := range allCommands(c.Subcommands, name) {
			m[k] = v
		}
	}
	return m
}

// Issue 17, item 1: every command either uses an extra positional argument
// or a flag written after a positional argument, or refuses it with exit
// code 2 and a usage hint. A command added without a row here fails the
// test.
func TestEveryCommandUsesOrRefusesArgs(t *testing.T) {
	dir := t.TempDir()
	trace := writeJobs(t, dir, 60)
	runDir, _ := writeRunDir(t)
	rules := filepath.Join(dir, "rules.json")
	if code, _, stderr := runCLI("export", runDir, "--pick", "qos0", "-o", rules); code != 0 {
		t.Fatalf("export: %d %s", code, stderr)
	}
	state := filepath.Join("testdata", "decide", "state.json")
	out := func(name string) string { return filepath.Join(dir, name) }
	isJSON := func(stdout string) bool {
		return json.Valid([]byte(stdout)) && strings.HasPrefix(strings.TrimSpace(stdout), "{")
	}
	exists := func(path string) func(string) bool {
		return func(string) bool { _, err := os.Stat(path); return err == nil }
	}

	type tc struct {
		args []string
		code int
		want string            // in stderr (errors) when code != 0
		used func(string) bool // on stdout when code == 0: the flag or argument took effect
	}
	cases := map[string][]tc{
		"import": {
			{args: []string{trace, out("missing.swf"), "-o", out("i.parquet")}, code: 1, want: "missing.swf"}, // the extra log is read
			{args: []string{trace, "-o", out("i.parquet")}, used: exists(out("i.parquet"))},
			{args: []string{trace, "--bogus"}, code: 2, want: "unknown flag --bogus"},
		},
		"inspect": {
			{args: []string{trace, "extra"}, code: 2, want: "one trace at most"},
			{args: []string{trace, "--json"}, used: isJSON},
		},
		"cluster": {
			{args: []string{trace, "extra"}, code: 2, want: "one trace"},
			{args: []string{trace, "--json"}, used: isJSON},
		},
		"split": {
			{args: []string{trace, "extra", "--train", "0.5", "-o", out("s")}, code: 2, want: "one trace at most"},
			{args: []string{trace, "--train", "0.5", "-o", out("s")}, used: exists(out("s-train.parquet"))},
		},
		"synth": {
			{args: []string{"extra", "-o", out("y.parquet")}, code: 2, want: "takes no arguments"},
			{args: []string{"--jobs", "20", "-o", out("y.parquet"), "extra"}, code: 2, want: "takes no arguments"},
		},
		"simulate": {
			{args: []string{trace, "extra"}, code: 2, want: "one trace at most"},
			{args: []string{trace, "--policy", "nope"}, code: 1, want: "unknown policy"},
			// The trace argument is the one replayed (not the embedded NASA trace) and --json after it is used.
			{args: []string{trace, "--json"}, used: func(s string) bool { return isJSON(s) && strings.Contains(s, `"trace":"jobs"`) }},
		},
		"policies": {
			{args: []string{"extra"}, code: 2, want: "takes no arguments"},
			{args: []string{"extra", "--json"}, code: 2, want: "takes no arguments"},
		},
		"decide": {
			{args: []string{"--rules", rules, "--state", state, "extra"}, code: 2, want: "takes no arguments"},
			{args: []string{"extra", "--rules", rules, "--state", state}, code: 2, want: "takes no arguments"},
		},
		"tune": {
			{args: []string{trace, "extra"}, code: 2, want: "one trace at most"},
			{args: []string{trace, "--windows", "1"}, code: 1, want: "--windows 1"},
		},
		"compare": {
			{args: []string{trace, "extra"}, code: 2, want: "one trace at most"},
			{args: []string{trace, "--policies", "nope"}, code: 1, want: "nope"},
		},
		"report": {
			{args: []string{runDir, "extra", "--no-timeline"}, code: 2, want: "want one RUN_DIR"},
			{args: []string{runDir, "--no-timeline", "-o", out("rep"), "--json"}, used: func(s string) bool { return isJSON(s) && strings.Contains(s, out("rep")) }},
		},
		// The distributed run's subcommands: DIR and flags after it are
		// used (an unknown DIR is read, so the error is about the plan).
		"tune island": {
			{args: []string{out("nodir"), "extra", "--index", "0"}, code: 2, want: "want one run directory"},
			{args: []string{out("nodir"), "--index", "0"}, code: 1, want: "plan.json"},
		},
		"tune merge": {
			{args: []string{out("nodir"), "extra"}, code: 2, want: "want one run directory"},
			{args: []string{out("nodir"), "--json"}, code: 1, want: "plan.json"},
		},
		"tune status": {
			{args: []string{out("nodir"), "extra"}, code: 2, want: "want one run directory"},
			{args: []string{out("nodir"), "--json"}, code: 1, want: "plan.json"},
		},
		"export": {
			{args: []string{runDir, "extra", "--pick", "qos0", "-o", out("r2.json")}, code: 2, want: "want one RUN_DIR"},
			{args: []string{runDir, "--pick", "qos0", "-o", out("r3.json")}, used: exists(out("r3.json"))},
		},
	}
	for name, cmd := range allCommands(newApp().Commands, "") {
		if name == "help" || len(cases[name]) > 0 {
			continue
		}
		// A command without a row: one that takes no argument (no
		// ArgsUsage) is refused before it runs; one that takes arguments
		// needs its row here.
		if cmd.ArgsUsage != "" || cmd.Action == nil {
			if cmd.Action != nil {
				t.Errorf("command %s takes arguments (%s) but has no case in this test", name, cmd.ArgsUsage)
			}
			continue
		}
		cases[name] = []tc{
			{args: []string{"extra"}, code: 2, want: "takes no arguments"},
			{args: []string{"extra", "--help"}, code: 2, want: "takes no arguments"},
		}
	}
	for name, tcs := range cases {
		for _, c := range tcs {
			args := append(append([]string{"--quiet"}, strings.Fields(name)...), c.args...)
			code, stdout, stderr := runCLI(args...)
			if code != c.code {
				t.Errorf("%v: exit %d, want %d\nstderr: %s", args, code, c.code, stderr)
				continue
			}
			if c.code != 0 {
				if !strings.Contains(stderr, c.want) {
					t.Errorf("%v: stderr %q, want %q", args, stderr, c.want)
				}
				if c.code == exitUsage && !strings.Contains(stderr, "usage: ecotune "+name) {
					t.Errorf("%v: no usage hint in %q", args, stderr)
				}
				continue
			}
			if !c.used(stdout) {
				t.Errorf("%v: the argument or flag had no effect; stdout %q", args, stdout)
			}
		}
	}
}

func TestExitCodes(t *testing.T) {
	for _, tt := range []struct {
		args []string
		code int
	}{
		{[]string{"policies"}, 0},
		{[]string{"bogus"}, 2},
		{[]string{"simulate", "--bogus"}, 2},
		{[]string{"decide"}, 2},
		{[]string{"simulate", "--policy", "nope"}, 1},
		{[]string{"compare", "--json", "--csv"}, 2},
	} {
		if code, _, stderr := runCLI(tt.args...); code != tt.code {
			t.Errorf("%v: exit %d, want %d (%s)", tt.args, code, tt.code, stderr)
		}
	}
}

// Issue 17, item 2: the commands that replay a trace default to one
// scheduler, and their help says which.
func TestOneSchedulerDefault(t *testing.T) {
	cmds := allCommands(newApp().Commands, "")
	for _, name := range []string{"simulate", "compare", "tune"} {
		var got string
		for _, f := range cmds[name].Flags {
			if sf, ok := f.(*cli.StringFlag); ok && sf.Name == "scheduler" {
				got = sf.Value
			}
		}
		if got != sim.DefaultScheduler {
			t.Errorf("%s --scheduler defaults to %q, want %q", name, got, sim.DefaultScheduler)
		}
		_, help, _ := runCLI("help", name)
		if !strings.Contains(help, `(default: "`+sim.DefaultScheduler+`")`) {
			t.Errorf("help %s does not show the scheduler default", name)
		}
	}
	// And simulate really replays with it.
	_, stdout, stderr := runCLI("simulate", "--json")
	var rep replay.Result
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v (%s)", err, stderr)
	}
	if rep.Scheduler != sim.DefaultScheduler {
		t.Errorf("simulate replayed with %q", rep.Scheduler)
	}
}

// Issue 17, item 5: every command's help prints each default once, no
// placeholder taken from a command in backticks, and a short flag means
// one thing across the commands.
func TestHelpText(t *testing.T) {
	twoDefaults := regexp.MustCompile(`\(default.*\(default`)
	short := map[string][]string{} // short alias: the names of the flag it first meant
	for name, cmd := range allCommands(newApp().Commands, "") {
		_, help, _ := runCLI(append([]string{"help"}, strings.Fields(name)...)...)
		for _, line := range strings.Split(help, "\n") {
			if twoDefaults.MatchString(line) {
				t.Errorf("help %s: two defaults: %s", name, line)
			}
			if strings.HasPrefix(strings.TrimSpace(line), "--") && strings.Contains(strings.SplitN(strings.TrimSpace(line), "  ", 2)[0], " ecotune") {
				t.Errorf("help %s: a command as placeholder: %s", name, line)
			}
		}
		for _, f := range cmd.Flags {
			names := f.Names()
			for _, a := range names[1:] {
				if len(a) != 1 {
					continue
				}
				prev, ok := short[a]
				if !ok {
					short[a] = names
					continue
				}
				same := false // one meaning: the flags share a long name (cluster's --from is also --trace)
				for _, n := range names {
					same = same || (len(n) > 1 && slices.Contains(prev, n))
				}
				if !same {
					t.Errorf("-%s means %v in one command and %v in %s", a, prev, names, name)
				}
			}
		}
	}
}
