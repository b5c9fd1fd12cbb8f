package help

import (
	"strings"
	"testing"
)

// TestText: every embedded text is non-empty prose without the file's
// final newline (the help ends where its text does), and a name without a
// file panics.
func TestText(t *testing.T) {
	names := Names()
	if len(names) < 10 {
		t.Fatalf("names %v: want every command's", names)
	}
	for _, n := range names {
		s := Text(n)
		if strings.TrimSpace(s) == "" || strings.HasSuffix(s, "\n") || strings.Contains(s, "\r") {
			t.Errorf("%s: text %q: want non-empty, no final newline, no CR", n, s)
		}
	}
	for _, tc := range []struct {
		name string
		want string
	}{
		{"tune", "Tunes a power policy"},
		{"tune-slurm", "Distributed tuning:"},
		{"simulate", "Replays a trace once"},
	} {
		if got := Text(tc.name); !strings.HasPrefix(got, tc.want) {
			t.Errorf("Text(%q) = %.40q..., want prefix %q", tc.name, got, tc.want)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("Text(\"nowhere\"): no panic")
		}
	}()
	Text("nowhere")
}
