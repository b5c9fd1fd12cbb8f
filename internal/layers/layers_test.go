package layers

import (
	"errors"
	"fmt"
	"go/build"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// module is the module path; packages are named relative to it below.
const module = "github.com/ecotune/ecotune"

// allowed is the layer table of docs/architecture.md: for each package,
// the module packages it may import besides internal/... (allowed
// everywhere). A
// package missing here fails the test: a new package needs its row.
var allowed = func() map[string][]string {
	layer1to6 := []string{"hostlist", "datasets", "fuzzy", "slurm", "policy", "sim", "objectives", "run", "replay", "tuner", "tuner/search", "tuner/scoring", "tuner/pick", "tuner/summary", "tuner/exchange", "tuner/progress"}
	scoring := []string{"sim", "policy", "fuzzy", "objectives", "datasets", "run", "replay", "tuner/search"}
	pick := append(slices.Clone(scoring), "tuner/scoring")
	summary := append(slices.Clone(pick), "tuner/pick")
	tuner := append(slices.Clone(summary), "tuner/summary", "tuner/exchange")
	return map[string][]string{
		// Slurm's host lists (node[01-04]): below datasets and slurm,
		// imports nothing of the module.
		"hostlist":   nil,
		"datasets":   {"hostlist"},
		"fuzzy":      nil,
		"slurm":      {"hostlist"},
		"policy":     {"fuzzy"},
		"sim":        {"datasets", "policy"},
		"objectives": {"sim"},
		"run":        {"objectives", "policy", "datasets", "fuzzy"},
		// One replay of a configuration (layer 5, beside run).
		"replay": {"datasets", "policy", "sim", "objectives", "fuzzy", "hostlist"},
		"tuner":  tuner,
		// The search method knows nothing of policies, traces or run
		// directories: it imports no module package above internal.
		"tuner/search": nil,
		// Scoring: the simulator and the search below it.
		"tuner/scoring": scoring,
		// Choice among a front's solutions: scoring and what it imports.
		"tuner/pick": pick,
		// The summary files of multi-run directories (windows.json,
		// summary.json, seeds.json): what pick imports, and pick.
		"tuner/summary": summary,
		// Test problems for the search methods (ZDT, DTLZ): the search
		// alone.
		"tuner/search/testproblems": {"tuner/search"},
		// A search's progress on a terminal: the search's status alone.
		"tuner/progress": {"tuner/search"},
		// Migrants between islands that run apart, through files: the
		// search's members alone.
		"tuner/exchange": {"tuner/search"},
		"reports":        layer1to6,
		"daemon":         {"slurm", "policy", "fuzzy", "datasets", "sim", "objectives", "run"},
		"serve":          append(slices.Clone(layer1to6), "reports"),
		// The commands' long help texts, embedded: no module package; no
		// row above lists it, so only cmd imports it.
		"docs/help":   nil,
		"cmd/ecotune": nil, // imports anything but cmd (checked apart)
		// Internal packages sit below every layer and import none, except
		// test support for a real component, which has a row: a package
		// may import it only if its own row allows what it imports.
		"internal/slurmtest": {"slurm"},
	}
}()

// isInternal reports whether rel (relative to the module) is internal.
func isInternal(rel string) bool { return rel == "internal" || strings.HasPrefix(rel, "internal/") }

// violations checks one package's imports (module-relative names of the
// module's packages it imports) against the table, returning one message
// per bad import, or one for a package in no layer.
func violations(pkg string, imports []string) []string {
	var bad []string
	row, known := allowed[pkg]
	if !known && !isInternal(pkg) {
		return []string{fmt.Sprintf("%s is in no layer of docs/architecture.md's table (add its row to internal/layers)", pkg)}
	}
	for _, imp := range imports {
		switch {
		case imp == "cmd" || strings.HasPrefix(imp, "cmd/"):
			bad = append(bad, fmt.Sprintf("%s imports %s: nothing imports cmd", pkg, imp))
		case strings.HasPrefix(pkg, "cmd/"):
			// the command line imports anything but cmd
		case isInternal(imp):
			// internal packages sit below every layer, but one with a
			// row brings its row's imports along
			for _, via := range allowed[imp] {
				if !slices.Contains(row, via) && !slices.Contains(allowed[pkg], via) {
					bad = append(bad, fmt.Sprintf("%s imports %s, which imports %s: its layer allows only %v (docs/architecture.md)", pkg, imp, via, row))
				}
			}
		case isInternal(pkg) && !slices.Contains(row, imp):
			bad = append(bad, fmt.Sprintf("%s imports %s: internal packages sit below every layer and import none but their row", pkg, imp))
		case isInternal(pkg):
		case !slices.Contains(row, imp):
			bad = append(bad, fmt.Sprintf("%s imports %s: its layer allows only %v (docs/architecture.md)", pkg, imp, row))
		}
	}
	return bad
}

// modulePackages returns every package of the module below root (its
// non-test Go files, as the default build context selects them) and the
// module packages each imports, both relative to the module path.
func modulePackages(root string) (map[string][]string, error) {
	pkgs := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		if path != root {
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // another module
			}
		}
		p, err := build.Default.ImportDir(path, 0)
		if err != nil {
			var none *build.NoGoError
			if errors.As(err, &none) {
				return nil
			}
			return fmt.Errorf("%s: %w", path, err)
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		var imps []string
		for _, imp := range p.Imports {
			if imp == module {
				imps = append(imps, ".")
			} else if r, ok := strings.CutPrefix(imp, module+"/"); ok {
				imps = append(imps, r)
			}
		}
		pkgs[rel] = imps
		return nil
	})
	return pkgs, err
}

// Every package of the module imports only what the layer table of
// docs/architecture.md allows.
func TestLayering(t *testing.T) {
	root := filepath.Join("..", "..")
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not at %s: %v", root, err)
	}
	pkgs, err := modulePackages(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"datasets", "policy", "sim", "tuner", "cmd/ecotune", "internal/layers"} {
		if _, ok := pkgs[want]; !ok {
			t.Fatalf("package %s not found: the walk is broken (found %v)", want, pkgs)
		}
	}
	for _, pkg := range slices.Sorted(maps.Keys(pkgs)) {
		for _, v := range violations(pkg, pkgs[pkg]) {
			t.Error(v)
		}
	}
}

// The check itself: hand-made import lists that the table must accept or
// reject.
func TestViolations(t *testing.T) {
	tests := []struct {
		pkg     string
		imports []string
		want    string // "" when allowed, else a part of the message
	}{
		{"datasets", nil, ""},
		{"datasets", []string{"internal/testtrace"}, ""},
		{"datasets", []string{"sim"}, "datasets imports sim"},
		{"fuzzy", []string{"policy"}, "fuzzy imports policy"},
		{"slurm", []string{"datasets"}, "slurm imports datasets"},
		{"policy", []string{"fuzzy"}, ""},
		{"policy", []string{"sim"}, "policy imports sim"},
		{"sim", []string{"datasets", "policy"}, ""},
		{"sim", []string{"objectives"}, "sim imports objectives"},
		{"objectives", []string{"sim"}, ""},
		{"objectives", []string{"datasets"}, "objectives imports datasets"},
		{"run", []string{"objectives", "policy", "datasets", "fuzzy"}, ""},
		{"run", []string{"sim"}, "run imports sim"},
		{"run", []string{"tuner"}, "run imports tuner"},
		{"tuner", []string{"sim", "policy", "fuzzy", "objectives", "datasets", "run"}, ""},
		{"tuner", []string{"slurm"}, "tuner imports slurm"},
		{"tuner", []string{"reports"}, "tuner imports reports"},
		{"reports", []string{"tuner", "run", "slurm", "datasets"}, ""},
		{"reports", []string{"serve"}, "reports imports serve"},
		{"daemon", []string{"slurm", "policy", "fuzzy", "datasets", "sim", "objectives", "run"}, ""},
		{"daemon", []string{"tuner"}, "daemon imports tuner"},
		{"serve", []string{"reports", "tuner", "run"}, ""},
		{"serve", []string{"daemon"}, "serve imports daemon"},
		{"serve", []string{"cmd/ecotune"}, "nothing imports cmd"},
		{"cmd/ecotune", []string{"serve", "daemon", "reports"}, ""},
		{"cmd/ecotune", []string{"cmd/other"}, "nothing imports cmd"},
		{"internal/testtrace", []string{"internal/other"}, ""},
		{"internal/testtrace", []string{"datasets"}, "internal packages sit below every layer"},
		{"internal/slurmtest", []string{"slurm"}, ""},
		{"internal/slurmtest", []string{"policy"}, "internal packages sit below every layer"},
		{"datasets", []string{"internal/slurmtest"}, "which imports slurm"},
		{"daemon", []string{"internal/slurmtest"}, ""},
		{"tuner/search/testproblems", []string{"tuner/search"}, ""},
		{"tuner/search", []string{"run"}, "its layer allows only"},
		{"tuner/search", []string{"internal/fingerprint"}, ""},
		{"newpkg", nil, "newpkg is in no layer"},
	}
	for _, tc := range tests {
		got := strings.Join(violations(tc.pkg, tc.imports), "; ")
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("%s importing %v: %q, want %q", tc.pkg, tc.imports, got, tc.want)
		}
	}
}
