package reports

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ecotune/ecotune/tuner"
	"github.com/ecotune/ecotune/tuner/exchange"
)

// TestWriteRunStatus: each island's state follows its status (not
// started, running, interrupted, done), epochs count migration
// intervals, skips read ISLAND@gGENERATION, and the manifest's line
// appears once merged; the JSON keeps the keys dir, islands, merged.
func TestWriteRunStatus(t *testing.T) {
	isl := func(i, gen int, started, done, intr bool, sk ...exchange.Skip) IslandRow {
		return IslandRow{IslandStatus: tuner.IslandStatus{Island: i, Generation: gen, Generations: 12, Done: done, Interrupted: intr, Skipped: sk}, Epoch: gen / 4, Started: started}
	}
	for _, tc := range []struct {
		name   string
		s      RunStatus
		want   []string // lines, trailing blanks trimmed
		merged bool
	}{
		{"mixed", RunStatus{Dir: "d", generations: 12, migrationEvery: 4, Islands: []IslandRow{
			isl(0, 0, false, false, false), isl(1, 5, true, false, false), isl(2, 8, true, false, true, exchange.Skip{Island: 0, Generation: 4}), isl(3, 12, true, true, false)}},
			[]string{"0       0/3    0/12        0            0.0000       not started",
				"1       1/3    5/12        0            0.0000       running",
				"2       2/3    8/12        0            0.0000       interrupted  0@g4",
				"3       3/3    12/12       0            0.0000       done"}, false},
		{"merged", RunStatus{Dir: "d", Merged: true, generations: 12, migrationEvery: 4, Islands: []IslandRow{isl(0, 12, true, true, false)}},
			[]string{"0       3/3    12/12       0            0.0000       done", "merged: d/run.json"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteRunStatus(&b, tc.s); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
			for i := range lines {
				lines[i] = strings.TrimRight(lines[i], " ")
			}
			if got := strings.Join(lines[1:], "\n"); got != strings.Join(tc.want, "\n") {
				t.Errorf("rows\n%s\nwant\n%s", got, strings.Join(tc.want, "\n"))
			}
			if strings.Contains(b.String(), "merged:") != tc.merged {
				t.Errorf("merged line: %q", b.String())
			}
			var m map[string]any
			js, _ := json.Marshal(tc.s)
			if err := json.Unmarshal(js, &m); err != nil || len(m) != 3 || m["dir"] != "d" || m["merged"] != tc.merged {
				t.Errorf("json %s (%v)", js, err)
			}
		})
	}
}
