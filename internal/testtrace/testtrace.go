package testtrace

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// Env names the variable that overrides where ../shared is: a directory
// laid out like it (traces/, slurm-22.05/). Pointing it at a missing
// directory shows what CI does without the shared files:
//
//	CI=true ECOTUNE_SHARED=/nonexistent go test ./...
const Env = "ECOTUNE_SHARED"

// NASA is the file name of the NASA Ames iPSC/860 log in ../shared/traces,
// the log datasets.Default embeds.
const NASA = "NASA-iPSC-1993-3.1-cln.swf.gz"

// Dir returns the shared directory: $ECOTUNE_SHARED when set, otherwise
// ../shared beside the module root (the first directory above the working
// directory holding go.mod). It does not check that the directory exists.
func Dir() (string, error) {
	if d := os.Getenv(Env); d != "" {
		return d, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("testtrace: %w", err)
	}
	for d := wd; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return filepath.Join(d, "..", "shared"), nil
		}
		up := filepath.Dir(d)
		if up == d {
			return "", fmt.Errorf("testtrace: no go.mod above %s", wd)
		}
		d = up
	}
}

// CI reports whether the tests run under CI (CI=true): there every shared
// file must be present.
func CI() bool {
	ci, _ := strconv.ParseBool(os.Getenv("CI"))
	return ci
}

// Path returns the path of rel (slash-separated, e.g.
// "traces/samples/x.sacct") under ../shared. When the file is missing the
// test fails under CI=true and is skipped otherwise; either way the
// message names ../shared and the file.
func Path(tb testing.TB, rel string) string {
	tb.Helper()
	dir, err := Dir()
	if err != nil {
		tb.Fatal(err)
	}
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if _, err := os.Stat(p); err != nil {
		msg := fmt.Sprintf("../shared/%s is missing (looked at %s: %v); the shared test files belong beside the module root (or set %s)", rel, p, err, Env)
		if CI() {
			tb.Fatal(msg)
		}
		tb.Skip(msg + "; skipped because CI is not true")
	}
	return p
}

// Trace returns the path of ../shared/traces/name, as Path does.
func Trace(tb testing.TB, name string) string {
	tb.Helper()
	return Path(tb, "traces/"+name)
}
