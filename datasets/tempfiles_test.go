package datasets

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"
)

// TestCancelledImportAndSynthLeaveNothing: a cancelled import (in one
// pass, or spilling runs) or synth returns the context's error and leaves
// no file.
func TestCancelledImportAndSynthLeaveNothing(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "in.swf")
	if _, err := WriteSynth(log, SynthOptions{Jobs: 20000, Nodes: 64, Seed: 1}, false); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if _, err := ImportContext(context.Background(), []string{log, log}, filepath.Join(out, "t.parquet"), ImportOptions{RunJobs: 1000}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []func() error{
		func() error { // in one pass (the log is sorted), cancelled while writing
			_, err := ImportContext(&countdown{Context: context.Background(), n: 3}, []string{log}, filepath.Join(out, "u.parquet"), ImportOptions{RunJobs: 1000})
			return err
		},
		func() error { // in runs, cancelled while reading, with runs spilled
			_, err := importContext(&countdown{Context: context.Background(), n: 3}, []string{log}, filepath.Join(out, "u.parquet"), ImportOptions{RunJobs: 1000}, false)
			return err
		},
		func() error { // in runs, cancelled while merging
			_, err := importContext(&countdown{Context: context.Background(), n: 7}, []string{log}, filepath.Join(out, "u.parquet"), ImportOptions{RunJobs: 1000}, false)
			return err
		},
		func() error {
			_, err := WriteSynthContext(&countdown{Context: context.Background(), n: 3}, filepath.Join(out, "s.swf.gz"), SynthOptions{Jobs: 100000, Nodes: 64}, false)
			return err
		},
	} {
		if err := f(); !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled: %v", err)
		}
	}
	entries, _ := os.ReadDir(out)
	if len(entries) != 1 || entries[0].Name() != "t.parquet" {
		t.Errorf("left %v, want only the finished t.parquet", entries)
	}
}

// countdown is a context cancelled at its n-th look (Err).
type countdown struct {
	context.Context
	n int
}

func (c *countdown) Err() error {
	if c.n--; c.n <= 0 {
		return context.Canceled
	}
	return nil
}

// TestRemoveStaleTemps: which leftovers the next run removes.
func TestRemoveStaleTemps(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("process liveness is judged by age there")
	}
	dir := t.TempDir()
	old := time.Now().Add(-2 * time.Hour)
	host := hostName()
	mk := func(name string, isDir, aged bool) {
		p := filepath.Join(dir, name)
		var err error
		if isDir {
			err = os.Mkdir(p, 0o700)
		} else {
			err = os.WriteFile(p, []byte("x"), 0o600)
		}
		if err == nil && aged {
			err = os.Chtimes(p, old, old)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	const deadPid = 1 << 30                                                     // above Linux's pid_max (2^22) and the BSDs'
	mk(runsDirPrefix+strconv.Itoa(deadPid)+"@"+host+"-1", true, false)          // dead process here: removed
	mk(runsDirPrefix+strconv.Itoa(os.Getpid())+"@"+host+"-2", true, true)       // this process: kept
	mk(runsDirPrefix+strconv.Itoa(deadPid)+"@elsewhere"+host+"-3", true, false) // another host, recent: kept
	mk(runsDirPrefix+strconv.Itoa(deadPid)+"@elsewhere"+host+"-4", true, true)  // another host, old: removed
	mk(runsDirPrefix+"12345", true, true)                                       // old version, old: removed
	mk(".t.parquet.tmp123", false, true)                                        // old temporary output: removed
	mk(".t.parquet.tmp456", false, false)                                       // recent: kept
	mk(".u.parquet.tmp789", false, true)                                        // another output's: kept
	mk(".t.parquet.tmp-x", false, true)                                         // not the atomic writer's: kept
	mk("t.parquet", false, true)                                                // not temporary: kept
	removeStaleTemps(dir, "t.parquet")
	var got []string
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		got = append(got, e.Name())
	}
	want := []string{
		runsDirPrefix + strconv.Itoa(os.Getpid()) + "@" + host + "-2",
		runsDirPrefix + strconv.Itoa(deadPid) + "@elsewhere" + host + "-3",
		".t.parquet.tmp456", ".t.parquet.tmp-x", ".u.parquet.tmp789", "t.parquet",
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("left %v\nwant %v", got, want)
	}
}
