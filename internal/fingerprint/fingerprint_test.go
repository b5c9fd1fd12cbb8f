package fingerprint

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestFingerprintDiff names exactly the fields that differ, and the
// digest changes with any of them.
func TestFingerprintDiff(t *testing.T) {
	a := Fingerprint{"trace": "aa", "seed": "1", "scheduler": `"easy"`}
	b := Fingerprint{"trace": "bb", "seed": "1", "scheduler": `"fcfs"`, "split": "x"}
	if d := a.Diff(b); !slices.Equal(d, []string{"scheduler", "split", "trace"}) {
		t.Errorf("Diff = %v", d)
	}
	if a.Sum() == b.Sum() || a.Sum() != (Fingerprint{"seed": "1", "scheduler": `"easy"`, "trace": "aa"}).Sum() {
		t.Error("Sum does not identify the fields")
	}
	err := Check("ck.json", a, b)
	var mm *MismatchError
	if !errors.As(err, &mm) || !strings.Contains(err.Error(), "differs in scheduler, split, trace") {
		t.Errorf("Check: %v", err)
	}
	if err := Check("ck.json", a, a); err != nil {
		t.Errorf("same fingerprint: %v", err)
	}
	if v := Value(strings.Repeat("x", 100)); !strings.HasPrefix(v, "sha256:") {
		t.Errorf("long value %q not digested", v)
	}
}

// TestValueShortIsJSON: a short value is its JSON; a long one is digested,
// and the digest tells values apart.
func TestValueShortIsJSON(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{1, "1"},
		{"easy", `"easy"`},
		{[]float64{0.5, 2}, "[0.5,2]"},
		{map[string]int{"b": 2, "a": 1}, `{"a":1,"b":2}`},
	} {
		if got := Value(tc.v); got != tc.want {
			t.Errorf("Value(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
	if Value(strings.Repeat("x", 100)) == Value(strings.Repeat("y", 100)) {
		t.Error("two long values share a digest")
	}
}
