package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ecotune/ecotune/run"
	"github.com/ecotune/ecotune/tuner"
)

// islandArgs are the search of the distributed-tuning tests: 4 islands
// of 8 on the embedded trace, migrations at generations 2, 4, 6 and 8.
var islandArgs = []string{"--islands", "4", "--population", "8", "--generations", "8", "--migration", "2", "--seed", "3"}

// islandsFixture is the binary and the one-machine run the tests compare
// with, made once.
var islandsFixture struct {
	once sync.Once
	bin  string
	dir  string // the one-machine run
	err  string
}

func islandsBase(t *testing.T) (bin, oneMachine string) {
	t.Helper()
	f := &islandsFixture
	f.once.Do(func() {
		tmp, err := os.MkdirTemp("", "ecotune-islands-")
		if err != nil {
			f.err = err.Error()
			return
		}
		f.bin = buildBinary(t, tmp)
		f.dir = filepath.Join(tmp, "one")
		args := append([]string{"--quiet", "tune", "--no-report", "-o", f.dir}, islandArgs...)
		if out, err := exec.Command(f.bin, args...).CombinedOutput(); err != nil {
			f.err = "ecotune " + strings.Join(args, " ") + ": " + err.Error() + "\n" + string(out)
		}
	})
	if f.err != "" {
		t.Fatal(f.err)
	}
	return f.bin, f.dir
}

// frontSums are the sha256 of a run directory's front files.
func frontSums(t *testing.T, dir string) map[string]string {
	t.Helper()
	sums := map[string]string{}
	for _, name := range []string{run.FrontJSON, run.FrontCSV, run.FrontParquet} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.Sum256(b)
		sums[name] = hex.EncodeToString(h[:])
	}
	return sums
}

// sameFront fails unless dir's front files are byte-identical to want's
// and run.json counts the same evaluations and generations.
func sameFront(t *testing.T, want, dir string) {
	t.Helper()
	a, b := frontSums(t, want), frontSums(t, dir)
	for name, sum := range a {
		if b[name] != sum {
			t.Errorf("%s: sha256 %s, the one-machine run's %s", name, b[name], sum)
		} else {
			t.Logf("%s: sha256 %s, identical", name, sum)
		}
	}
	ma, err := run.LoadManifest(want)
	if err != nil {
		t.Fatal(err)
	}
	mb, err := run.LoadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if ma.Evaluations != mb.Evaluations || ma.Generations != mb.Generations {
		t.Errorf("run.json: %d evaluations, %d generations; one machine: %d, %d", mb.Evaluations, mb.Generations, ma.Evaluations, ma.Generations)
	}
}

// ecotune runs the binary and returns its standard output.
func ecotune(t *testing.T, bin string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ecotune %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return string(out)
}

// plan writes a distributed run's directory (tune --slurm --dry-run) and
// returns it.
func plan(t *testing.T, bin string, extra ...string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "dist")
	args := append(append([]string{"--quiet", "tune", "--slurm", "--dry-run", "-o", dir}, islandArgs...), extra...)
	script := ecotune(t, bin, nil, args...)
	if !strings.Contains(script, "#SBATCH --array=0-3") || !strings.Contains(script, "tune island '"+dir+"' --index \"$SLURM_ARRAY_TASK_ID\"") {
		t.Fatalf("the dry run printed no array of 4 islands:\n%s", script)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "tune.sbatch")); err != nil || string(b) != script {
		t.Fatalf("tune.sbatch is not the script printed (%v)", err)
	}
	if _, err := os.Stat(filepath.Join(dir, run.FrontJSON)); err == nil {
		t.Fatal("the dry run wrote a front")
	}
	return dir
}

// startIsland starts island i of dir as a process.
func startIsland(t *testing.T, bin, dir string, i int) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(bin, "--quiet", "tune", "island", dir, "--index", strconv.Itoa(i), "--workers", "1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	return cmd
}

func waitIsland(t *testing.T, cmd *exec.Cmd, i int) {
	t.Helper()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("island %d: %v\n%s", i, err, cmd.Stdout)
	}
}

type statusJSON struct {
	Islands []struct {
		tuner.IslandStatus
		Started bool `json:"started"`
	} `json:"islands"`
	Merged bool `json:"merged"`
}

func status(t *testing.T, bin, dir string) statusJSON {
	t.Helper()
	var st statusJSON
	if err := json.Unmarshal([]byte(ecotune(t, bin, nil, "tune", "status", dir, "--json")), &st); err != nil {
		t.Fatal(err)
	}
	return st
}

// TestIslandsLocalProcesses: four `tune island` processes and `tune
// merge` write the front of `tune --islands 4` on one machine, byte for
// byte; `tune status` shows every island done.
func TestIslandsLocalProcesses(t *testing.T) {
	bin, one := islandsBase(t)
	dir := plan(t, bin)
	st := status(t, bin, dir)
	for _, is := range st.Islands {
		if is.Started || is.Generation != 0 {
			t.Errorf("before any island ran, status shows island %d started at generation %d", is.Island, is.Generation)
		}
	}
	cmds := make([]*exec.Cmd, 4)
	for i := range cmds {
		cmds[i] = startIsland(t, bin, dir, i)
	}
	for i, c := range cmds {
		waitIsland(t, c, i)
	}
	st = status(t, bin, dir)
	sum := 0
	for _, is := range st.Islands {
		if !is.Done || is.Generation != 8 || is.Evaluations < 8 || !(is.Hypervolume > 0) || len(is.Skipped) > 0 {
			t.Errorf("island %d: %+v, want done at generation 8 with evaluations, a hypervolume and nothing skipped", is.Island, is.IslandStatus)
		}
		sum += is.Evaluations
	}
	ecotune(t, bin, nil, "--quiet", "tune", "merge", dir, "--no-report")
	sameFront(t, one, dir)
	m, err := run.LoadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if m.Evaluations > sum || len(m.MissingIslands) > 0 || m.Islands != 4 {
		t.Errorf("run.json: %d evaluations (islands' sum %d), missing %v, islands %d", m.Evaluations, sum, m.MissingIslands, m.Islands)
	}
	if !status(t, bin, dir).Merged {
		t.Error("status does not show the run merged")
	}
}

// TestIslandKilledResumes: island 2 killed (SIGKILL) after a few
// generations and started again resumes from its checkpoint; the front is
// still the one-machine run's.
func TestIslandKilledResumes(t *testing.T) {
	bin, one := islandsBase(t)
	dir := plan(t, bin)
	cmds := make([]*exec.Cmd, 4)
	for i := range cmds {
		cmds[i] = startIsland(t, bin, dir, i)
	}
	// Kill island 2 once it has finished generation 3 (past the first migration).
	deadline := time.Now().Add(2 * time.Minute)
	for {
		st, ok, err := tuner.ReadIslandStatus(dir, 2)
		if err == nil && ok && st.Generation >= 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("island 2 did not reach generation 3 in 2 minutes")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := cmds[2].Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmds[2].Wait()
	st, _, err := tuner.ReadIslandStatus(dir, 2)
	if err != nil {
		t.Fatal(err)
	}
	if st.Done {
		t.Fatal("island 2 was done before it was killed: the test proves nothing")
	}
	t.Logf("island 2 killed after generation %d", st.Generation)
	cmds[2] = startIsland(t, bin, dir, 2)
	for i, c := range cmds {
		waitIsland(t, c, i)
	}
	ecotune(t, bin, nil, "--quiet", "tune", "merge", dir, "--no-report")
	sameFront(t, one, dir)
}

// TestIslandNeverStarts: island 2 never runs; the others skip it after the
// timeout and the merge still writes a front, naming island 2 in run.json.
func TestIslandNeverStarts(t *testing.T) {
	bin, _ := islandsBase(t)
	dir := plan(t, bin, "--island-timeout", "2s")
	var cmds []*exec.Cmd
	for _, i := range []int{0, 1, 3} {
		cmds = append(cmds, startIsland(t, bin, dir, i))
	}
	for i, c := range cmds {
		waitIsland(t, c, i)
	}
	st := status(t, bin, dir)
	if st.Islands[2].Started || len(st.Islands[3].Skipped) == 0 || st.Islands[3].Skipped[0].Island != 2 {
		t.Errorf("status: island 2 started %v, island 3 skipped %v: want island 2 not started and skipped by island 3", st.Islands[2].Started, st.Islands[3].Skipped)
	}
	if len(st.Islands[0].Skipped) > 0 {
		t.Errorf("island 0 needs islands 0..1 only, but skipped %v", st.Islands[0].Skipped)
	}
	ecotune(t, bin, nil, "--quiet", "tune", "merge", dir, "--no-report")
	m, f, err := run.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Solutions) == 0 {
		t.Error("the merged front is empty")
	}
	if len(m.MissingIslands) != 1 || m.MissingIslands[0].Island != 2 || !strings.Contains(m.MissingIslands[0].Reason, "never ran") {
		t.Errorf("run.json missing_islands %+v, want island 2, never ran", m.MissingIslands)
	}
}

// Distributed tuning refuses what it cannot do, naming why, and writes
// nothing then.
func TestTuneSlurmRefuses(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--dry-run"}, "--dry-run goes with --slurm"},
		{[]string{"--sbatch-args", "-p x"}, "--sbatch-args goes with --slurm"},
		{[]string{"--slurm", "--dry-run", "--evaluations", "50"}, "evaluation budget"},
		{[]string{"--slurm", "--dry-run", "--windows", "3"}, "--slurm and --windows exclude each other"},
		{[]string{"--slurm", "--dry-run", "--resume"}, "each island resumes from its checkpoint"},
	} {
		dir := filepath.Join(t.TempDir(), "d")
		out, err := runApp(t, append([]string{"tune", "-o", dir}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("tune %v: error %v (%s), want one saying %q", c.args, err, out, c.want)
		}
		if _, err := os.Stat(dir); err == nil {
			t.Errorf("tune %v wrote %s", c.args, dir)
		}
	}
	for _, args := range [][]string{{"tune", "island"}, {"tune", "merge", t.TempDir()}, {"tune", "status", "a", "b"}} {
		if _, err := runApp(t, args...); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}
