package datasets

import (
	"math"
	"strings"
	"testing"
	"time"
)

// tenJobs submits job i (0-based) at 100·i² so that the time and job
// shares differ: submits 0, 100, 400, ..., 8100.
func tenJobs() *Trace {
	t := &Trace{Meta: Meta{Name: "ten", Procs: 4}}
	for i := range int64(10) {
		t.Jobs = append(t.Jobs, Job{ID: i, Submit: 100 * i * i, Run: 1, Procs: 1})
	}
	return t
}

func TestSplit(t *testing.T) {
	tests := []struct {
		name      string
		opt       SplitOptions
		trainJobs int
	}{
		// round(0.7·10) = 7 jobs.
		{"by jobs", SplitOptions{Train: 0.7}, 7},
		// cut = 0 + round(0.7·8100) = 5670: submits 0..4900 (i ≤ 7) train.
		{"by time", SplitOptions{Train: 0.7, By: "time"}, 8},
		// Window [400, 3700) keeps i = 2..6 (submits 400..3600); round(0.5·5) = 3 (2.5 rounds up).
		{"window then jobs", SplitOptions{Train: 0.5, From: 400, To: 3700}, 3},
		// Window from 2500 on: i = 5..9; cut = 2500 + round(0.5·5600) = 5300: i = 5, 6, 7.
		{"window then time", SplitOptions{Train: 0.5, By: "time", From: 2500}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			full := tenJobs()
			train, test, err := Split(full, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			if len(train.Jobs) != tt.trainJobs {
				t.Errorf("%d train jobs, want %d", len(train.Jobs), tt.trainJobs)
			}
			last := train.Jobs[len(train.Jobs)-1]
			if first := test.Jobs[0]; first.Submit < last.Submit {
				t.Errorf("test starts at %d, before the last training job at %d", first.Submit, last.Submit)
			}
			if !strings.Contains(strings.Join(train.Meta.Notes, "|"), "train part") ||
				!strings.Contains(strings.Join(test.Meta.Notes, "|"), "test part") {
				t.Errorf("notes %q / %q", train.Meta.Notes, test.Meta.Notes)
			}
			train.Jobs[0].Run = 99
			if full.Jobs[0].Run == 99 || full.Jobs[2].Run == 99 {
				t.Error("the split shares jobs with the input")
			}
			if len(full.Meta.Notes) != 0 {
				t.Error("the split changed the input's notes")
			}
		})
	}
}

func TestSplitErrors(t *testing.T) {
	for _, opt := range []SplitOptions{
		{Train: 0}, {Train: 1}, {Train: math.NaN()}, {Train: 0.5, By: "users"},
		{Train: 0.01}, // round(0.1) = 0 training jobs
		{Train: 0.5, From: 9000},
	} {
		if _, _, err := Split(tenJobs(), opt); err == nil {
			t.Errorf("Split(%+v) succeeded", opt)
		}
	}
}

func TestWindow(t *testing.T) {
	w := Window(tenJobs(), 100, 900)
	if len(w.Jobs) != 2 || w.Jobs[0].Submit != 100 || w.Jobs[1].Submit != 400 {
		t.Errorf("window [100, 900): %+v", w.Jobs)
	}
	if all := Window(tenJobs(), math.MinInt64, math.MaxInt64); len(all.Jobs) != 10 {
		t.Errorf("open window: %d jobs", len(all.Jobs))
	}
	if none := Window(tenJobs(), 900, 100); len(none.Jobs) != 0 {
		t.Errorf("reversed window: %d jobs", len(none.Jobs))
	}
}

func TestParseTime(t *testing.T) {
	pacific := time.FixedZone("PST", -8*3600)
	tests := []struct {
		in   string
		want int64
	}{
		{"1000000000", 1000000000},
		{"2001-09-09T01:46:40Z", 1000000000},
		{"2001-09-09T03:46:40+02:00", 1000000000},
		{"1970-01-02", 86400 + 8*3600}, // midnight in UTC−8
		{"1970-01-02T01:30", 86400 + 9*3600 + 1800},
		{"1970-01-02T01:30:05", 86400 + 9*3600 + 1805},
	}
	for _, tt := range tests {
		got, err := ParseTime(tt.in, pacific)
		if err != nil || got != tt.want {
			t.Errorf("ParseTime(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
	if _, err := ParseTime("yesterday", pacific); err == nil {
		t.Error("ParseTime(yesterday) succeeded")
	}
	// nil location is UTC, as report --from reads it.
	if got, err := ParseTime("1970-01-02T01:00", nil); err != nil || got != 86400+3600 {
		t.Errorf("ParseTime in UTC = %d, %v", got, err)
	}
}
