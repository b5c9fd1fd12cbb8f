package datasets

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/ecotune/ecotune/internal/atomicfile"
)

// Temporary files. Import spills sorted runs into a directory named
// ".ecotune-runs-<pid>@<host>-<random>" beside its output (or in
// ImportOptions.TempDir), and Import and WriteSynth write their output to
// ".<name>.tmp<random>" beside it before renaming it; Import of logs in
// trace order, in one pass, writes it into such a directory beside it. Both are removed
// when the command fails or is cancelled (its context: the command line
// cancels it on SIGINT and SIGTERM). A process killed outright leaves
// them behind; the next Import or WriteSynth into the same directory
// removes those that are stale:
//
//   - a runs directory whose process (the pid and host in its name) no
//     longer runs on this machine, or, when that cannot be told (another
//     host, other systems, a name without a pid), in which nothing has
//     changed for staleAge;
//   - a temporary output of the same name unchanged for staleAge (a live
//     writer changes its file all the time).
const (
	runsDirPrefix = ".ecotune-runs-"
	staleAge      = time.Hour
)

// runsDirPattern is the os.MkdirTemp pattern of this process's runs
// directory: ".ecotune-runs-<pid>@<host>-*".
func runsDirPattern() string {
	return runsDirPrefix + strconv.Itoa(os.Getpid()) + "@" + hostName() + "-*"
}

// hostName is this machine's name as runs directories carry it ("" when
// unknown; '-' and '/' would confuse the name's parts).
func hostName() string {
	h, err := os.Hostname()
	if err != nil {
		return ""
	}
	return strings.NewReplacer("-", "_", "/", "_", "@", "_").Replace(h)
}

// removeStaleTemps removes the stale temporary files (see above) of
// earlier runs in dir, for an output named base (or "" for runs
// directories only). It reports nothing: a file it cannot remove is left.
func removeStaleTemps(dir, base string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	now := time.Now()
	for _, e := range entries {
		name := e.Name()
		var stale bool
		switch {
		case strings.HasPrefix(name, runsDirPrefix) && e.IsDir():
			stale = staleRunsDir(filepath.Join(dir, name), strings.TrimPrefix(name, runsDirPrefix), now)
		case base != "" && isTempOutput(name, base) && e.Type().IsRegular():
			stale = unchangedFor(filepath.Join(dir, name), now)
		}
		if stale {
			os.RemoveAll(filepath.Join(dir, name))
		}
	}
}

// isTempOutput reports whether name is a temporary output for base as
// the module's atomic writer names it.
func isTempOutput(name, base string) bool { return atomicfile.IsTempFor(name, base) }

// staleRunsDir judges a runs directory at path whose name after the
// prefix is rest ("<pid>@<host>-<random>", or "<random>" from older
// versions). The pid is asked about only on its own host: a directory
// shared between machines (NFS) may hold the runs of a live import
// elsewhere.
func staleRunsDir(path, rest string, now time.Time) bool {
	pidText, hostRand, ok := strings.Cut(rest, "@")
	if i := strings.LastIndexByte(hostRand, '-'); ok && i >= 0 && hostRand[:i] == hostName() && hostName() != "" {
		if pid, err := strconv.Atoi(pidText); err == nil && pid > 0 {
			if pid == os.Getpid() {
				return false
			}
			if gone, known := processGone(pid); known {
				return gone
			}
		}
	}
	if !unchangedFor(path, now) {
		return false
	}
	files, err := os.ReadDir(path)
	if err != nil {
		return false
	}
	for _, f := range files {
		if !unchangedFor(filepath.Join(path, f.Name()), now) {
			return false
		}
	}
	return true
}

func unchangedFor(path string, now time.Time) bool {
	fi, err := os.Lstat(path)
	return err == nil && now.Sub(fi.ModTime()) >= staleAge
}

// cancelCheckEvery is how many jobs pass between two looks at the context.
const cancelCheckEvery = 4096

// A canceller looks at a context every cancelCheckEvery calls.
type canceller struct {
	ctx context.Context
	n   int
}

func (c *canceller) err() error {
	c.n++
	if c.n%cancelCheckEvery != 0 {
		return nil
	}
	return c.ctx.Err()
}
