package datasets

import (
	"maps"
	"testing"
)

func TestValidatorRules(t *testing.T) {
	// A valid job on a 64-processor machine; each case changes one thing.
	base := Job{ID: 1, Submit: 100, Wait: 5, Run: 60, Procs: 8, ReqProcs: 8, ReqTime: 120, Status: 1}
	tests := []struct {
		name     string
		change   func(*Job)
		keep     bool
		want     func(*Job) // the job kept, from base
		skipped  string
		adjusted string
	}{
		{"valid", func(*Job) {}, true, func(*Job) {}, "", ""},
		{"run zero kept", func(j *Job) { j.Run = 0 }, true, func(j *Job) { j.Run = 0 }, "", ""},
		{"submit unknown", func(j *Job) { j.Submit = Unknown }, false, nil, ruleSubmitUnknown, ""},
		{"run unknown", func(j *Job) { j.Run = Unknown }, false, nil, ruleRunUnknown, ""},
		{"run negative", func(j *Job) { j.Run = -7 }, false, nil, ruleRunNegative, ""},
		{"procs unknown, requested known", func(j *Job) { j.Procs = Unknown; j.ReqProcs = 16 }, true,
			func(j *Job) { j.Procs, j.ReqProcs = 16, 16 }, "", ruleProcsFromRequested},
		{"procs zero, requested known", func(j *Job) { j.Procs = 0 }, true, func(*Job) {}, "", ruleProcsFromRequested},
		{"procs and requested unknown", func(j *Job) { j.Procs, j.ReqProcs = Unknown, Unknown }, false, nil, ruleProcsUnknown, ""},
		{"procs zero, requested zero", func(j *Job) { j.Procs, j.ReqProcs = 0, 0 }, false, nil, ruleProcsUnknown, ""},
		{"more procs than machine", func(j *Job) { j.Procs = 65 }, false, nil, ruleProcsExceedMachine, ""},
		{"requested beyond machine", func(j *Job) { j.Procs, j.ReqProcs = Unknown, 65 }, false, nil, ruleProcsExceedMachine, ""},
		{"whole machine", func(j *Job) { j.Procs = 64 }, true, func(j *Job) { j.Procs = 64 }, "", ""},
		{"wait negative", func(j *Job) { j.Wait = -3 }, true, func(j *Job) { j.Wait = Unknown }, "", ruleWaitNegative},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := newValidator(64)
			j := base
			tt.change(&j)
			if got := v.keep(&j); got != tt.keep {
				t.Fatalf("keep = %v, want %v", got, tt.keep)
			}
			if tt.keep {
				want := base
				tt.want(&want)
				if j != want {
					t.Errorf("kept %+v, want %+v", j, want)
				}
			}
			if !maps.Equal(v.skipped, countOf(tt.skipped)) {
				t.Errorf("skipped %v, want %v", v.skipped, countOf(tt.skipped))
			}
			if !maps.Equal(v.adjusted, countOf(tt.adjusted)) {
				t.Errorf("adjusted %v, want %v", v.adjusted, countOf(tt.adjusted))
			}
		})
	}
}

func countOf(key string) map[string]int64 {
	if key == "" {
		return map[string]int64{}
	}
	return map[string]int64{key: 1}
}

// Without a machine size no job is too large, and the size becomes the
// largest job's, with a note.
func TestValidatorUnknownMachine(t *testing.T) {
	v := newValidator(Unknown)
	for _, p := range []int32{3, 1000, 7} {
		j := Job{Submit: 1, Run: 1, Procs: p}
		if !v.keep(&j) {
			t.Fatalf("job of %d procs dropped", p)
		}
	}
	m := Meta{Procs: Unknown}
	v.finish(&m)
	if m.Procs != 1000 || len(m.Notes) != 1 {
		t.Errorf("Procs %d, notes %q; want 1000 and one note", m.Procs, m.Notes)
	}
}
