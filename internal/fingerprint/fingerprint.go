package fingerprint

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Fingerprint identifies what a run computes, field by field: the name of
// everything that changes its results (trace, split, cluster, scheduler,
// objectives, constraints, presets, policy and its bounds, seed, search
// settings) → a canonical text of its value (Value). A
// checkpoint carries its run's fingerprint; resuming with a different one
// is refused, naming the fields that differ (Diff).
type Fingerprint map[string]string

// Value is v's canonical text for a Fingerprint: its JSON, or
// "sha256:" and the first 16 bytes of the JSON's SHA-256 in hex when the
// JSON is longer than 64 bytes.
func Value(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "unmarshalable: " + err.Error()
	}
	if len(b) <= 64 {
		return string(b)
	}
	h := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(h[:16])
}

// Sum is one digest of every field: 16 hex digits.
func (f Fingerprint) Sum() string {
	h := sha256.New()
	for _, k := range f.names() {
		fmt.Fprintf(h, "%q=%q\n", k, f[k])
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

func (f Fingerprint) names() []string {
	names := make([]string, 0, len(f))
	for k := range f {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

// Diff names the fields whose values differ between f and g (a field
// present in one only included), sorted.
func (f Fingerprint) Diff(g Fingerprint) []string {
	var out []string
	for _, k := range f.names() {
		if v, ok := g[k]; !ok || v != f[k] {
			out = append(out, k)
		}
	}
	for _, k := range g.names() {
		if _, ok := f[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// MismatchError is a refused resume: the checkpoint was made by a run
// whose fingerprint differs in Fields.
type MismatchError struct {
	Path   string   // the checkpoint
	Fields []string // that differ, sorted
	Was    Fingerprint
	Now    Fingerprint
}

func (e *MismatchError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s was made by a different run: it differs in %s", e.Path, strings.Join(e.Fields, ", "))
	for i, k := range e.Fields {
		if i == 3 {
			b.WriteString("; …")
			break
		}
		fmt.Fprintf(&b, "; %s was %s, now %s", k, orNone(e.Was[k]), orNone(e.Now[k]))
	}
	b.WriteString(" (resume only the same problem and settings, or start afresh with --force)")
	return b.String()
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// Check returns a *MismatchError when was and now differ, else nil.
func Check(path string, was, now Fingerprint) error {
	if d := was.Diff(now); len(d) > 0 {
		return &MismatchError{Path: path, Fields: d, Was: was, Now: now}
	}
	return nil
}
